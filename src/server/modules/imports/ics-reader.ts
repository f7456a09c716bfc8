import ICAL from 'ical.js';
import * as rruleModule from 'rrule';
import { instantOfWallMinute, wallMinuteOf, wallTimeOf } from '../../../shared/domain/shifts';
import { isTimeZone } from '../../../shared/domain/time-zones';
import { merge } from './snapshot-rendering';
import {
  ImportSourceError,
  type SourceNote,
  type SourcePerson,
  type SourceReader,
  type SourceShift,
  type SourceSnapshot,
} from './source-snapshot';

/**
 * The calendar-file reader (issue 34, decision 269): an ICS export of an on-call schedule
 * (PagerDuty's, Opsgenie's and Grafana OnCall's all make one) becomes one scheduled rotation whose
 * entries are the calendar's events over the import window. Each content line is parsed by ical.js
 * (parameters, quoting, escapes); the structure, times and recurrence are read here so every
 * refusal names its line. Repeating events are expanded by the rrule library in wall-clock time
 * in their zone (TZID, read through the zone database), EXDATE and modified instances
 * (RECURRENCE-ID) honoured. The person on call is the event's attendee (its email), or without one
 * the name in its summary ("On Call - Ada Lovelace - Primary" → Ada Lovelace).
 */

// rrule ships CommonJS to Node (its named exports are on `default` there) and ES modules to Vite.
const { RRule } =
  (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule;

const MINUTE = 60_000;
const DAY = 86_400_000;
/** The most occurrences one repeating event may have in the window. */
export const ICS_OCCURRENCES_MAX = 10_000;

/** One content line, unfolded, with the line of the file it began on. */
interface ContentLine {
  line: number;
  text: string;
}

/** A parsed property: its name, parameters, values (ical.js's jCal) and raw value text. */
interface Property {
  line: number;
  name: string;
  params: Record<string, unknown>;
  type: string;
  values: unknown[];
  raw: string;
}

interface Component {
  name: string;
  line: number;
  properties: Property[];
  children: Component[];
}

/** A time as the file gives it: a wall time (ms on a zone-free count) in a zone. */
interface WallInstant {
  wall: number;
  zone: string;
  date: boolean;
}

export const readIcs: SourceReader = async (input) => {
  if (input.content === undefined) {
    throw new ImportSourceError('Give the calendar file to import', 'input');
  }
  return readIcsContent(input.content, input.window);
};

const refuse = (message: string) => new ImportSourceError(message, 'input');

/** readIcsContent reads a calendar's text into a snapshot over the window (pure). */
export function readIcsContent(content: string, window: { from: Date; to: Date }): SourceSnapshot {
  const calendar = parseCalendar(content);
  const notes: SourceNote[] = [];
  const first = (c: Component, name: string) => c.properties.find((p) => p.name === name);
  const text = (p: Property | undefined) =>
    p && typeof p.values[0] === 'string' ? (p.values[0] as string).trim() : '';

  const calendarName = text(first(calendar, 'X-WR-CALNAME')) || 'Calendar file';
  const events = calendar.children.filter((c) => c.name === 'VEVENT');
  if (events.length === 0) {
    throw refuse(
      'The calendar has no events (no BEGIN:VEVENT): export the schedule with its shifts',
    );
  }
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
  const calendarZoneProperty = first(calendar, 'X-WR-TIMEZONE');
  let calendarZone = calendarZoneProperty
    ? resolveZone(text(calendarZoneProperty), calendarZoneProperty.line)
    : null;
  if (!calendarZone) {
    const zoned = events
      .flatMap((e) => e.properties)
      .find((p) => p.name === 'DTSTART' && typeof p.params.tzid === 'string');
    calendarZone = zoned ? resolveZone(zoned.params.tzid as string, zoned.line) : 'UTC';
  }
  const zone = calendarZone;

  const timeOf = (p: Property): WallInstant => readTime(p, 0, zone, resolveZone);

  // Modified instances replace the occurrence of their series they name.
  const replaced = new Map<string, Set<number>>();
  for (const event of events) {
    const recurrenceId = first(event, 'RECURRENCE-ID');
    const uid = text(first(event, 'UID'));
    if (recurrenceId && uid) {
      const at = instantOf(timeOf(recurrenceId)).getTime();
      replaced.set(uid, (replaced.get(uid) ?? new Set()).add(at));
    }
  }

  interface Occurrence extends SourceShift {
    line: number;
  }
  const occurrences: Occurrence[] = [];
  const emails = new Map<string, SourcePerson>();
  const nameOnly = new Map<string, { name: string; line: number }>();
  let cancelled = 0;
  let allDay = false;
  let floating: number | null = null;
  let continues = false;

  for (const event of events) {
    if (text(first(event, 'STATUS')).toUpperCase() === 'CANCELLED') {
      cancelled++;
      continue;
    }
    const dtstart = first(event, 'DTSTART');
    if (!dtstart) {
      throw refuse(`Line ${event.line}: the event that begins here has no DTSTART (its start)`);
    }
    const start = timeOf(dtstart);
    if (start.date) allDay = true;
    if (!start.date && dtstart.params.tzid === undefined && !/Z$/i.test(dtstart.raw)) {
      floating ??= dtstart.line;
    }
    const length = lengthOf(event, start, timeOf);
    if (length === null) {
      notes.push({
        level: 'warning',
        subject: `Line ${event.line}`,
        message: `Line ${event.line}: the event has no end (DTEND or DURATION), so it lasts no time and puts nobody on call: it is left out.`,
      });
      continue;
    }

    // Who is on call.
    const summary = text(first(event, 'SUMMARY'));
    const attendees = event.properties.filter((p) => p.name === 'ATTENDEE');
    const withEmail = attendees
      .map((a) => ({ a, email: emailOf(a) }))
      .filter((x): x is { a: Property; email: string } => x.email !== null);
    let personId: string;
    if (withEmail.length > 0) {
      const { a, email } = withEmail[0] as { a: Property; email: string };
      const cn = typeof a.params.cn === 'string' ? a.params.cn.trim() : '';
      personId = email;
      if (!emails.has(email)) {
        emails.set(email, { sourceId: email, name: cn || nameInSummary(summary) || email, email });
      }
      if (withEmail.length > 1) {
        notes.push({
          level: 'warning',
          subject: `Line ${event.line}`,
          message: `Line ${event.line}: the event has ${withEmail.length} attendees (${withEmail.map((x) => x.email).join(', ')}); Baton puts one person on call at a time, so ${email} is taken.`,
        });
      }
    } else {
      const name = nameInSummary(summary);
      if (name === '') {
        notes.push({
          level: 'warning',
          subject: `Line ${event.line}`,
          message: `Line ${event.line}: the event has no attendee and no summary, so it names nobody to put on call: it is left out.`,
        });
        continue;
      }
      personId = `name:${name.toLowerCase()}`;
      if (!nameOnly.has(personId)) nameOnly.set(personId, { name, line: event.line });
    }

    // When.
    const excluded = new Set<number>(replaced.get(text(first(event, 'UID'))) ?? []);
    const excludedDays = new Set<number>();
    const recurrenceId = first(event, 'RECURRENCE-ID');
    for (const exdate of event.properties.filter((p) => p.name === 'EXDATE')) {
      for (let i = 0; i < exdate.values.length; i++) {
        const t = readTime(exdate, i, zone, resolveZone);
        // A date alone takes out the occurrence starting that day.
        if (t.date) excludedDays.add(Math.floor(t.wall / DAY));
        else excluded.add(instantOf(t).getTime());
      }
    }
    const starts: number[] = [start.wall];
    const rrule = first(event, 'RRULE');
    const lowWall = wallOf(window.from, start.zone) - length.wall - length.exact - DAY;
    const highWall = wallOf(window.to, start.zone) + DAY;
    if (rrule && !recurrenceId) {
      const rule = ruleOf(rrule, start);
      let count = 0;
      rule.between(new Date(lowWall), new Date(highWall), true, (d) => {
        count++;
        if (count > ICS_OCCURRENCES_MAX) {
          throw refuse(
            `Line ${rrule.line}: the event repeats more than ${ICS_OCCURRENCES_MAX} times in ${Math.round((window.to.getTime() - window.from.getTime()) / DAY)} days: Baton cannot take so many entries`,
          );
        }
        starts.push(d.getTime());
        return true;
      });
      if (rule.after(new Date(highWall)) !== null) continues = true;
    }
    for (const rdate of event.properties.filter((p) => p.name === 'RDATE')) {
      for (let i = 0; i < rdate.values.length; i++) {
        const t = readTime(rdate, i, zone, resolveZone);
        starts.push(wallOf(instantOf(t), start.zone));
      }
    }
    for (const wall of new Set(starts)) {
      const begin = instantOf({ ...start, wall });
      if (excluded.has(begin.getTime()) || excludedDays.has(Math.floor(wall / DAY))) continue;
      // The first occurrence ends where DTEND says, even in an hour a clock change repeats.
      const end =
        wall === start.wall && length.end
          ? length.end
          : new Date(instantOf({ ...start, wall: wall + length.wall }).getTime() + length.exact);
      if (begin >= window.to) {
        continues = true;
        continue;
      }
      if (end <= window.from || end <= begin) continue;
      occurrences.push({
        start: new Date(Math.max(begin.getTime(), window.from.getTime())),
        end: new Date(Math.min(end.getTime(), window.to.getTime())),
        personSourceId: personId,
        line: event.line,
      });
    }
  }

  // People: by attendee email; a name alone is matched to an attendee of the same name.
  const people: SourcePerson[] = [...emails.values()];
  const renamed = new Map<string, string>();
  for (const [id, { name, line }] of nameOnly) {
    const same = people.find(
      (p) => p.email !== null && p.name.toLowerCase() === name.toLowerCase(),
    );
    if (same) {
      renamed.set(id, same.sourceId);
      continue;
    }
    people.push({ sourceId: id, name, email: null });
    notes.push({
      level: 'warning',
      subject: name,
      message: `“${name}” (first on line ${line}) has no email in the calendar, only a name in the events' summary: Baton matches people by email, so they cannot be matched and need one. Export the calendar with attendees, or add ATTENDEE:mailto:… to their events.`,
    });
  }
  for (const o of occurrences) o.personSourceId = renamed.get(o.personSourceId) ?? o.personSourceId;

  const nameOf = (id: string) => people.find((p) => p.sourceId === id)?.name ?? id;
  // Baton has one person on call at a time: where events overlap, the later-starting one wins.
  occurrences.sort((a, b) => a.start.getTime() - b.start.getTime() || a.line - b.line);
  const out: SourceShift[] = [];
  const overlaps: string[] = [];
  for (const o of occurrences) {
    let at = out.length;
    while (at > 0 && (out[at - 1] as SourceShift).end > o.start) at--;
    const tail = out.splice(at);
    const after: SourceShift[] = [];
    for (const piece of tail) {
      if (piece.personSourceId !== o.personSourceId && piece.end > o.start && piece.start < o.end) {
        overlaps.push(
          `${nameOf(piece.personSourceId)} and ${nameOf(o.personSourceId)} from ${o.start.toISOString()}`,
        );
      }
      if (piece.start < o.start) out.push({ ...piece, end: o.start });
      if (piece.end > o.end)
        after.push({ ...piece, start: new Date(Math.max(piece.start.getTime(), o.end.getTime())) });
    }
    out.push({ start: o.start, end: o.end, personSourceId: o.personSourceId }, ...after);
  }
  const rendered = merge(out);

  if (overlaps.length > 0) {
    notes.push({
      level: 'warning',
      subject: calendarName,
      message: `${overlaps.length} time${overlaps.length > 1 ? 's' : ''} two events overlap (${overlaps.slice(0, 3).join('; ')}${overlaps.length > 3 ? '; …' : ''}): Baton puts one person on call at a time, so where events overlap the one that starts later is on call.`,
    });
  }
  if (allDay) {
    notes.push({
      level: 'info',
      subject: calendarName,
      message: `All-day events run from midnight to midnight in ${zone}, the calendar's time zone.`,
    });
  }
  if (floating !== null) {
    notes.push({
      level: 'info',
      subject: calendarName,
      message: `Line ${floating}: times without a time zone are read in ${zone}, the calendar's time zone.`,
    });
  }
  if (cancelled > 0) {
    notes.push({
      level: 'info',
      subject: calendarName,
      message: `${cancelled} cancelled event${cancelled > 1 ? 's' : ''} (STATUS:CANCELLED) put nobody on call and ${cancelled > 1 ? 'are' : 'is'} left out.`,
    });
  }
  notes.push({
    level: 'warning',
    subject: calendarName,
    message: `A calendar lists shifts, not how they turn: “${calendarName}” becomes a scheduled rotation whose entries are its events from ${day(window.from)} to ${day(window.to)}.${continues ? ` Its events after ${day(window.to)} are not imported: import the calendar again before then, or give the rotation layers.` : ''}`,
  });

  const relcalid = text(first(calendar, 'X-WR-RELCALID'));
  return {
    source: 'ics',
    account: calendarName,
    window,
    people,
    schedules: [
      {
        sourceId: relcalid || calendarName,
        name: calendarName,
        description: text(first(calendar, 'X-WR-CALDESC')) || null,
        timeZone: zone,
        layers: null,
        overrides: [],
        rendered,
      },
    ],
    policies: [],
    integrations: [],
    notes,
  };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** parseCalendar unfolds and parses the file into its components, or refuses it naming the line. */
function parseCalendar(content: string): Component {
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

function parseProperty(line: number, text: string): Property {
  let jcal: unknown[];
  try {
    jcal = ICAL.parse.property(text) as unknown[];
  } catch {
    // ical.js refuses a value it cannot type (a bad RRULE): keep the text for the reader to judge.
    const raw = rawValue(text);
    const name = /^([A-Za-z0-9-]+)[;:]/.exec(text)?.[1];
    if (!name || (raw === '' && !text.includes(':'))) {
      throw refuse(`Line ${line}: “${clip(text)}” is not a calendar line (NAME:value)`);
    }
    return { line, name: name.toUpperCase(), params: {}, type: 'unknown', values: [raw], raw };
  }
  const [name, params, type, ...values] = jcal as [string, Record<string, unknown>, string];
  return { line, name: name.toUpperCase(), params, type, values, raw: rawValue(text) };
}

/** rawValue is the text after the first colon outside quotes (a parameter may quote a colon). */
function rawValue(text: string): string {
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === ':' && !quoted) return text.slice(i + 1);
  }
  return '';
}

const clip = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** ianaZone reads a TZID as a zone of the zone database, also behind a vendor's prefix. */
function ianaZone(tzid: string): string | null {
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
function readTime(
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
function instantOf(t: WallInstant): Date {
  const minutes = Math.floor(t.wall / MINUTE);
  return new Date(instantOfWallMinute(minutes, t.zone).getTime() + (t.wall - minutes * MINUTE));
}

/** wallOf is an instant's wall time in a zone, as ms on the zone-free count. */
function wallOf(instant: Date, zone: string): number {
  return wallMinuteOf(wallTimeOf(instant, zone)) * MINUTE + (instant.getTime() % MINUTE);
}

/**
 * lengthOf is how long each occurrence lasts: `wall` is added in wall-clock time (DTEND's
 * distance from DTSTART in the start's zone, and DURATION's days and weeks), `exact` as elapsed
 * time (DURATION's hours, minutes and seconds). Null: the event has no length.
 */
function lengthOf(
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
function ruleOf(p: Property, start: WallInstant): InstanceType<typeof RRule> {
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

/** emailOf reads an attendee's address: "mailto:ada@example.com", or a bare address. */
function emailOf(p: Property): string | null {
  const value = typeof p.values[0] === 'string' ? (p.values[0] as string).trim() : '';
  const address = value.replace(/^mailto:/i, '').toLowerCase();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(address) ? address : null;
}

/**
 * nameInSummary is who an event's summary names: "On Call - Ada Lovelace - Primary" (PagerDuty)
 * → "Ada Lovelace"; "[L1] ada" (a layer prefix) → "ada"; "Ada is on call" → "Ada"; anything else
 * is taken whole (Grafana OnCall's summary is the user's name).
 */
export function nameInSummary(summary: string): string {
  let s = summary.trim().replace(/^\[[^\]]*\]\s*/, '');
  const onCall = /^on[\s-]?call\s*[-–—:]\s*(.+)$/i.exec(s);
  if (onCall) s = (onCall[1] as string).split(/\s+[-–—]\s+/)[0] as string;
  const suffix = /^(.+?)\s+(?:is\s+)?on[\s-]?call$/i.exec(s);
  if (suffix) s = suffix[1] as string;
  return s.trim();
}
