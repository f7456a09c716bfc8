import { tzOffset } from '@date-fns/tz';

/**
 * vtimezone returns an RFC 5545 VTIMEZONE component for an IANA zone, listing each offset change
 * from the start of `fromYear - 1` to the end of `toYear` as its own observance (so events in the
 * first months of `fromYear` have the rule in force before them too). A zone without changes
 * gets one STANDARD observance.
 */
export function vtimezone(timeZone: string, fromYear: number, toYear: number): string {
  const MINUTE = 60_000;
  const DAY = 86_400_000;
  const offsetAt = (t: number) => tzOffset(timeZone, new Date(t));
  const start = Date.UTC(fromYear - 1, 0, 1);
  const end = Date.UTC(toYear + 1, 0, 1);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  let observances = 0;
  let before = offsetAt(start);
  for (let t = start; t < end; t += DAY) {
    const after = offsetAt(t + DAY);
    if (after === before) continue;
    // The change lies in (t, t + DAY]: narrow it to the minute.
    let lo = t;
    let hi = t + DAY;
    while (hi - lo > MINUTE) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
      if (offsetAt(mid) === before) lo = mid;
      else hi = mid;
    }
    const kind = after > before ? 'DAYLIGHT' : 'STANDARD';
    lines.push(
      `BEGIN:${kind}`,
      // DTSTART is the local time of the change, read in the offset before it.
      `DTSTART:${localStamp(hi + before * MINUTE)}`,
      `TZOFFSETFROM:${offsetText(before)}`,
      `TZOFFSETTO:${offsetText(after)}`,
      `END:${kind}`,
    );
    observances += 1;
    before = after;
  }
  if (observances === 0) {
    lines.push(
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      `TZOFFSETFROM:${offsetText(before)}`,
      `TZOFFSETTO:${offsetText(before)}`,
      'END:STANDARD',
    );
  }
  lines.push('END:VTIMEZONE');
  return `${lines.join('\r\n')}\r\n`;
}

const pad = (n: number) => String(n).padStart(2, '0');

function localStamp(localAsUtc: number): string {
  const d = new Date(localAsUtc);
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}00`;
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`;
}
