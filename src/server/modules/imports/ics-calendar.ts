import ICAL from 'ical.js';
import * as rruleModule from 'rrule';
import { instantOfWallMinute, wallMinuteOf, wallTimeOf } from '../../../shared/domain/shifts';
import { isTimeZone } from '../../../shared/domain/time-zones';
import { ImportSourceError } from './source-snapshot';

/**
 * A calendar file's grammar and times for the calendar-file reader (decision 269): content lines
 * unfolded and parsed by ical.js (parameters, quoting, escapes), components nested by BEGIN/END
 * with the line each began on, and dates, zones, lengths and repeat rules read so that every
 * refusal names its line.
 */

// rrule ships CommonJS to Node (its named exports are on `default` there) and ES modules to Vite.
const { RRule } =
  (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule;

export const MINUTE = 60_000;
export const DAY = 86_400_000;

/** One content line, unfolded, with the line of the file it began on. */
interface ContentLine {
  line: number;
  text: string;
}

/** A parsed property: its name, parameters, values (ical.js's jCal) and raw value text. */
export interface Property {
  line: number;
  name: string;
  params: Record<string, unknown>;
  type: string;
  values: unknown[];
  raw: string;
}

export interface Component {
  name: string;
  line: number;
  properties: Property[];
  children: Component[];
}

/** A time as the file gives it: a wall time (ms on a zone-free count) in a zone. */
export interface WallInstant {
  wall: number;
  zone: string;
  date: boolean;
}

export const refuse = (message: string) => new ImportSourceError(message, 'input');

/** first is a component's first property of a name. */
export const first = (c: Component, name: string) => c.properties.find((p) => p.name === name);

/** text is a text property's value, trimmed ('' when absent). */
export const text = (p: Property | undefined) =>
  p && typeof p.values[0] === 'string' ? (p.values[0] as string).trim() : '';

/** The calendar's zone and how its times are read. */
export interface CalendarClock {
  zone: string;
  resolveZone: (tzid: string, line: number) => string;
  timeOf: (p: Property, index?: number) => WallInstant;
}

/**
 * calendarClock reads how the calendar's times are zoned: TZIDs through the zone database (or a
 * VTIMEZONE's X-LIC-LOCATION), and times without a zone (and all-day events) in the calendar's
 * zone: X-WR-TIMEZONE, else the first TZID of an event's start, else UTC.
 */
export function calendarClock(calendar: Component, events: readonly Component[]): CalendarClock {
  const zones = new Map<string, string>();
  for (const tz of calendar.children.filter((c) => c.name === 'VTIMEZONE')) {
    const id = text(first(tz, 'TZID'));
    const location = text(first(tz, 'X-LIC-LOCATION'));
    if (id && location && isTimeZone(location)) zones.set(id, location);
  }
  const resolveZone = (tzid: string, line: number): string => {
    const known = zones.get(tzid) ?? ianaZone(tzid);
    if (!known) {
      throw refuse(
        `Line ${line}: the time zone “${tzid}” is not one Baton knows: export the calendar with zone names such as Europe/Berlin`,
      );
    }
    return known;
  };
  const named = first(calendar, 'X-WR-TIMEZONE');
  let zone = named ? resolveZone(text(named), named.line) : null;
  if (!zone) {
    const zoned = events
      .flatMap((e) => e.properties)
      .find((p) => p.name === 'DTSTART' && typeof p.params.tzid === 'string');
    zone = zoned ? resolveZone(zoned.params.tzid as string, zoned.line) : 'UTC';
  }
  const calendarZone = zone;
  return {
    zone: calendarZone,
    resolveZone,
    timeOf: (p, index = 0) => readTime(p, index, calendarZone, resolveZone),
  };
}

/** parseCalendar unfolds and parses the file into its components, or refuses it naming the line. */
export function parseCalendar(content: string): Component {
  const lines = unfold(content.replace(/^\uFEFF/, ''));
  const head = lines[0];
  if (head?.text.toUpperCase() !== 'BEGIN:VCALENDAR') {
    throw refuse(
      `This is not a calendar file: its first line must be BEGIN:VCALENDAR${head ? `, and line ${head.line} reads “${clip(head.text)}”` : ''}`,
    );
  }
  const stack: Component[] = [];
  let calendar: Component | null = null;
  for (const { line, text } of lines) {
    const upper = text.toUpperCase();
    if (upper.startsWith('BEGIN:')) {
      const component: Component = {
        name: upper.slice(6).trim(),
        line,
        properties: [],
        children: [],
      };
      if (stack.length === 0 && calendar && component.name === 'VCALENDAR') {
        // A second calendar in the same file: its events join the first's.
        stack.push(calendar);
        continue;
      }
      if (stack.length === 0 && calendar) {
        throw refuse(
          `Line ${line}: BEGIN:${component.name} stands outside BEGIN:VCALENDAR … END:VCALENDAR`,
        );
      }
      stack.at(-1)?.children.push(component);
      stack.push(component);
      continue;
    }
    if (upper.startsWith('END:')) {
      const name = upper.slice(4).trim();
      const open = stack.pop();
      if (!open)
        throw refuse(`Line ${line}: END:${name} closes nothing (no BEGIN:${name} before it)`);
      if (open.name !== name) {
        throw refuse(
          `Line ${line}: END:${name} does not close BEGIN:${open.name} of line ${open.line}`,
        );
      }
      if (stack.length === 0) calendar ??= open;
      continue;
    }
    const current = stack.at(-1);
    if (!current) {
      throw refuse(`Line ${line}: “${clip(text)}” stands outside BEGIN:VCALENDAR … END:VCALENDAR`);
    }
    current.properties.push(parseProperty(line, text));
  }
  const unclosed = stack.at(-1);
  if (unclosed) {
    throw refuse(
      `Line ${unclosed.line}: BEGIN:${unclosed.name} is never closed (END:${unclosed.name} is missing): the file may be cut short`,
    );
  }
  return calendar as Component;
}

/** unfold joins folded lines (a line starting with a space or tab continues the one before). */
function unfold(content: string): ContentLine[] {
  const out: ContentLine[] = [];
  content.split(/\r\n|\n|\r/).forEach((raw, i) => {
    if (/^[ \t]/.test(raw) && out.length > 0) {
      (out.at(-1) as ContentLine).text += raw.slice(1);
    } else if (raw.trim() !== '') out.push({ line: i + 1, text: raw });
  });
  return out;
}

/** The properties the reader reads: only these are parsed by ical.js, the others only checked. */
const READ = new Set([
  'BEGIN',
  'END',
  'DTSTART',
  'DTEND',
  'DURATION',
  'RRULE',
  'RDATE',
  'EXDATE',
  'RECURRENCE-ID',
  'ATTENDEE',
  'SUMMARY',
  'STATUS',
  'UID',
  'TZID',
  'X-LIC-LOCATION',
  'X-WR-CALNAME',
  'X-WR-CALDESC',
  'X-WR-TIMEZONE',
  'X-WR-RELCALID',
]);

function parseProperty(line: number, text: string): Property {
  const name = /^([A-Za-z0-9-]+)[;:]/.exec(text)?.[1]?.toUpperCase();
  const raw = rawValue(text);
  if (!name || raw === null) {
    throw refuse(`Line ${line}: “${clip(text)}” is not a calendar line (NAME:value)`);
  }
  if (!READ.has(name)) return { line, name, params: {}, type: 'unknown', values: [raw], raw };
  try {
    const [, params, type, ...values] = ICAL.parse.property(text) as [
      string,
      Record<string, unknown>,
      string,
      ...unknown[],
    ];
    return { line, name, params, type, values, raw };
  } catch {
    // ical.js refuses a value it cannot type (a bad RRULE): keep the text for the reader to judge.
    return { line, name, params: {}, type: 'unknown', values: [raw], raw };
  }
}

/** rawValue is the text after the first colon outside quotes (a parameter may quote a colon). */
function rawValue(text: string): string | null {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === ':' && !quoted) return text.slice(i + 1);
  }
  return null;
}

export const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** ianaZone reads a TZID as a zone of the zone database, also behind a vendor's prefix. */
export function ianaZone(tzid: string): string | null {
  const id = tzid.replace(/^"|"$/g, '').trim();
  if (isTimeZone(id)) return id;
  // "/mozilla.org/20050126_1/Europe/Berlin", "/citadel.org/…/America/New_York"
  const parts = id.split('/').filter(Boolean);
  for (let i = 1; i < parts.length - 1; i++) {
    const candidate = parts.slice(i).join('/');
    if (isTimeZone(candidate)) return candidate;
  }
  return null;
}

const TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z)?)?$/;

/** readTime reads value `index` of a date or date-time property as a wall time in its zone. */
export function readTime(
  p: Property,
  index: number,
  calendarZone: string,
  resolveZone: (tzid: string, line: number) => string,
): WallInstant {
  const value = p.values[index];
  const match = typeof value === 'string' ? TIME.exec(value) : null;
  const bad = () =>
    refuse(
      `Line ${p.line}: ${p.name} “${clip(p.raw)}” is not a date (YYYYMMDD) or date and time (YYYYMMDDTHHMMSS, Z for UTC)`,
    );
  if (!match) throw bad();
  const [, y, mo, d, h, mi, s, z] = match.map((m) => m ?? '') as string[];
  const parts = [y, mo, d, h || '0', mi || '0', s || '0'].map(Number) as number[];
  const [year, month, dayOfMonth, hour, minute, second] = parts as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const wall = Date.UTC(year, month - 1, dayOfMonth, hour, minute, Math.min(second, 59));
  const check = new Date(wall);
  if (
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== dayOfMonth ||
    hour > 23 ||
    minute > 59
  ) {
    throw bad();
  }
  const date = h === '';
  if (z) return { wall, zone: 'UTC', date };
  const tzid = p.params.tzid;
  if (typeof tzid === 'string' && !date) return { wall, zone: resolveZone(tzid, p.line), date };
  return { wall, zone: calendarZone, date };
}

/** instantOf is the instant a wall time names in its zone (a skipped time moves past the gap). */
export function instantOf(t: WallInstant): Date {
  if (t.zone === 'UTC') return new Date(t.wall);
  const minutes = Math.floor(t.wall / MINUTE);
  return new Date(instantOfWallMinute(minutes, t.zone).getTime() + (t.wall - minutes * MINUTE));
}

/** wallOf is an instant's wall time in a zone, as ms on the zone-free count. */
export function wallOf(instant: Date, zone: string): number {
  if (zone === 'UTC') return instant.getTime();
  return wallMinuteOf(wallTimeOf(instant, zone)) * MINUTE + (instant.getTime() % MINUTE);
}

/**
 * lengthOf is how long each occurrence lasts: `wall` is added in wall-clock time (DTEND's
 * distance from DTSTART in the start's zone, and DURATION's days and weeks), `exact` as elapsed
 * time (DURATION's hours, minutes and seconds). Null: the event has no length.
 */
export function lengthOf(
  event: Component,
  start: WallInstant,
  timeOf: (p: Property) => WallInstant,
): { wall: number; exact: number; end?: Date } | null {
  const dtend = event.properties.find((p) => p.name === 'DTEND');
  const duration = event.properties.find((p) => p.name === 'DURATION');
  if (dtend) {
    const end = instantOf(timeOf(dtend));
    const wall = wallOf(end, start.zone) - start.wall;
    if (end.getTime() < instantOf(start).getTime()) {
      throw refuse(`Line ${dtend.line}: the event ends (DTEND) before it starts (DTSTART)`);
    }
    return wall <= 0 ? null : { wall, exact: 0, end };
  }
  if (duration) {
    const match = /^\+?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i.exec(
      duration.raw.trim(),
    );
    if (!match || duration.raw.trim().toUpperCase() === 'P') {
      throw refuse(
        `Line ${duration.line}: DURATION “${clip(duration.raw)}” is not a length such as PT12H or P7D`,
      );
    }
    const n = (i: number) => Number(match[i] ?? 0);
    const wall = (n(1) * 7 + n(2)) * DAY;
    const exact = ((n(3) * 60 + n(4)) * 60 + n(5)) * 1000;
    return wall + exact === 0 ? null : { wall, exact };
  }
  // RFC 5545: an all-day event without an end lasts the day; a timed one, no time.
  return start.date ? { wall: DAY, exact: 0 } : null;
}

/** ruleOf reads an RRULE for expansion in wall time from the event's start. */
export function ruleOf(p: Property, start: WallInstant): InstanceType<typeof RRule> {
  const bad = (why: string) =>
    refuse(`Line ${p.line}: RRULE “${clip(p.raw)}” is not a repeat rule Baton can read: ${why}`);
  let options: ReturnType<typeof RRule.parseString>;
  try {
    options = RRule.parseString(p.raw.trim());
  } catch (error) {
    throw bad(error instanceof Error ? error.message : String(error));
  }
  if (options.freq === undefined || options.freq === null) throw bad('it has no FREQ');
  let until = options.until ?? null;
  // An UNTIL in UTC bounds the series in real time: read it as wall time in the start's zone.
  if (until && /UNTIL=\d{8}T\d{6}Z/i.test(p.raw)) until = new Date(wallOf(until, start.zone));
  try {
    return new RRule({ ...options, dtstart: new Date(start.wall), until, tzid: null });
  } catch (error) {
    throw bad(error instanceof Error ? error.message : String(error));
  }
}
