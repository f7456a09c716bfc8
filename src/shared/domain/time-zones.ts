/*
 * IANA time zones: the one check of a zone name, shared by the API's schemas, the server and the
 * client. A zone is valid when the runtime's Intl knows it.
 */

/** Zones already checked: making a DateTimeFormat to test one is costly, and callers repeat them. */
const checked = new Map<string, boolean>();

/** isTimeZone tells whether the runtime knows `zone` as an IANA time zone ('Europe/London'). */
export function isTimeZone(zone: string): boolean {
  let known = checked.get(zone);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: zone });
      known = true;
    } catch {
      known = false;
    }
    if (checked.size < 1000) checked.set(zone, known);
  }
  return known;
}

/** zoneOrUtc returns `zone` when it is a known time zone, else 'UTC'. */
export function zoneOrUtc(zone: string | null | undefined): string {
  return zone && isTimeZone(zone) ? zone : 'UTC';
}
