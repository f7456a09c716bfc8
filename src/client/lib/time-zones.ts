import { tzOffset } from '@date-fns/tz';
import { TIMEZONES } from '@shared/contracts/users';
import { isTimeZone } from '@shared/domain/time-zones';

/*
 * The time zones a rotation can use: every IANA zone the browser knows, searchable by name or
 * UTC offset (decision 033).
 */

/** supportedTimeZones returns the runtime's IANA zones (Intl.supportedValuesOf), or none. */
function supportedTimeZones(): string[] {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
}

/*
 * Trap: Intl.supportedValuesOf answers CLDR's canonical ids, which keep names IANA has since
 * replaced (Asia/Calcutta for Asia/Kolkata, Europe/Kiev for Europe/Kyiv). People search for the
 * current names, so the list shows those; both spellings name the same zone for Intl.
 */
const CURRENT_NAMES: Readonly<Record<string, string>> = {
  'Africa/Asmera': 'Africa/Asmara',
  'America/Buenos_Aires': 'America/Argentina/Buenos_Aires',
  'America/Catamarca': 'America/Argentina/Catamarca',
  'America/Coral_Harbour': 'America/Atikokan',
  'America/Cordoba': 'America/Argentina/Cordoba',
  'America/Godthab': 'America/Nuuk',
  'America/Indianapolis': 'America/Indiana/Indianapolis',
  'America/Jujuy': 'America/Argentina/Jujuy',
  'America/Louisville': 'America/Kentucky/Louisville',
  'America/Mendoza': 'America/Argentina/Mendoza',
  'Asia/Calcutta': 'Asia/Kolkata',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Rangoon': 'Asia/Yangon',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Europe/Kiev': 'Europe/Kyiv',
  'Pacific/Enderbury': 'Pacific/Kanton',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Truk': 'Pacific/Chuuk',
};

const FORMER_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(CURRENT_NAMES).map(([former, current]) => [current, former]),
);

/** currentZoneName returns IANA's current name of a zone, where the runtime knows it. */
export function currentZoneName(zone: string): string {
  const current = CURRENT_NAMES[zone];
  return current && isTimeZone(current) ? current : zone;
}

/** formerZoneName returns the name a zone had before IANA renamed it, or ''. */
function formerZoneName(zone: string): string {
  return FORMER_NAMES[zone] ?? '';
}

/**
 * timeZoneChoices returns UTC first, then every IANA zone the runtime knows (by its current name)
 * together with the profile zones and any `extra` ones in use (a rotation's own), sorted, without
 * repeats.
 */
export function timeZoneChoices(
  extra: readonly (string | null | undefined)[] = [],
  supported: readonly string[] = supportedTimeZones(),
): string[] {
  const zones = new Set<string>([...supported.map(currentZoneName), ...TIMEZONES]);
  for (const zone of extra) if (zone) zones.add(zone);
  zones.delete('UTC');
  return ['UTC', ...[...zones].sort((a, b) => a.localeCompare(b, 'en'))];
}

/**
 * pinnedFirst returns `zones` with the `pinned` ones first, in their order (the profile's nine of
 * the specification), then the rest in their own order; pinned zones not in `zones` are left out.
 */
export function pinnedFirst(zones: readonly string[], pinned: readonly string[]): string[] {
  const all = new Set(zones);
  const top = pinned.filter((zone) => all.has(zone));
  const rest = zones.filter((zone) => !top.includes(zone));
  return [...top, ...rest];
}

/** utcOffsetLabel returns the zone's offset at `at` as 'UTC+05:30', 'UTC−04:00', 'UTC+00:00'; '' if unknown. */
export function utcOffsetLabel(zone: string, at: Date): string {
  let minutes: number;
  try {
    minutes = tzOffset(zone, at);
  } catch {
    return '';
  }
  if (!Number.isFinite(minutes)) return '';
  const sign = minutes >= 0 ? '+' : '−';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
}

const normalise = (text: string) =>
  text.toLowerCase().replaceAll('_', ' ').replaceAll('−', '-').replace(/\s+/g, ' ').trim();

/**
 * matchesZone tells whether a search matches a zone: every word of the query appears in its name
 * (underscores read as spaces, any case), its former name, or its offset label ('utc+09').
 */
export function matchesZone(query: string, zone: string, offset: string): boolean {
  const words = normalise(query).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = `${normalise(zone)} ${normalise(formerZoneName(zone))} ${normalise(offset)}`;
  return words.every((word) => haystack.includes(word));
}
