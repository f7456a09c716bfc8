import {
  type CalendarClock,
  type Component,
  calendarClock,
  DAY,
  first,
  instantOf,
  lengthOf,
  type Property,
  parseCalendar,
  refuse,
  ruleOf,
  text,
  type WallInstant,
  wallOf,
} from './ics-calendar';
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

/** The most occurrences one repeating event may have in the window. */
export const ICS_OCCURRENCES_MAX = 10_000;

type Window = { from: Date; to: Date };

interface Occurrence extends SourceShift {
  line: number;
}

/** What reading the events gathers. */
interface EventReading {
  occurrences: Occurrence[];
  /** people named by an attendee's email */
  emails: Map<string, SourcePerson>;
  /** people named only in a summary, by their source id */
  nameOnly: Map<string, { name: string; line: number }>;
  notes: SourceNote[];
  cancelled: number;
  allDay: boolean;
  /** the first line with a time without a zone */
  floating: number | null;
  /** whether events go on after the window */
  continues: boolean;
}

export const readIcs: SourceReader = async (input) => {
  if (input.content === undefined) {
    throw new ImportSourceError('Give the calendar file to import', 'input');
  }
  return readIcsContent(input.content, input.window);
};

/** readIcsContent reads a calendar's text into a snapshot over the window (pure). */
export function readIcsContent(content: string, window: Window): SourceSnapshot {
  const calendar = parseCalendar(content);
  const calendarName = text(first(calendar, 'X-WR-CALNAME')) || 'Calendar file';
  const events = calendar.children.filter((c) => c.name === 'VEVENT');
  if (events.length === 0) {
    throw refuse(
      'The calendar has no events (no BEGIN:VEVENT): export the schedule with its shifts',
    );
  }
  const clock = calendarClock(calendar, events);
  const reading: EventReading = {
    occurrences: [],
    emails: new Map(),
    nameOnly: new Map(),
    notes: [],
    cancelled: 0,
    allDay: false,
    floating: null,
    continues: false,
  };
  const replaced = replacedInstances(events, clock);
  for (const event of events) readEvent(event, clock, replaced, window, reading);
  const people = peopleOf(reading);
  const nameOf = (id: string) => people.find((p) => p.sourceId === id)?.name ?? id;
  const { rendered, overlaps } = onePersonAtATime(reading.occurrences, nameOf);
  const notes = [
    ...reading.notes,
    ...calendarNotes(calendarName, clock.zone, reading, overlaps, window),
  ];
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
        timeZone: clock.zone,
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

/** replacedInstances: by UID, the occurrences that modified instances (RECURRENCE-ID) replace. */
function replacedInstances(
  events: readonly Component[],
  clock: CalendarClock,
): Map<string, Set<number>> {
  const replaced = new Map<string, Set<number>>();
  for (const event of events) {
    const recurrenceId = first(event, 'RECURRENCE-ID');
    const uid = text(first(event, 'UID'));
    if (recurrenceId && uid) {
      const at = instantOf(clock.timeOf(recurrenceId)).getTime();
      replaced.set(uid, (replaced.get(uid) ?? new Set()).add(at));
    }
  }
  return replaced;
}

/** readEvent adds an event's occurrences within the window, and its person, to the reading. */
function readEvent(
  event: Component,
  clock: CalendarClock,
  replaced: Map<string, Set<number>>,
  window: Window,
  r: EventReading,
): void {
  if (text(first(event, 'STATUS')).toUpperCase() === 'CANCELLED') {
    r.cancelled++;
    return;
  }
  const dtstart = first(event, 'DTSTART');
  if (!dtstart) {
    throw refuse(`Line ${event.line}: the event that begins here has no DTSTART (its start)`);
  }
  const start = clock.timeOf(dtstart);
  if (start.date) r.allDay = true;
  if (!start.date && dtstart.params.tzid === undefined && !/Z$/i.test(dtstart.raw)) {
    r.floating ??= dtstart.line;
  }
  const length = lengthOf(event, start, clock.timeOf);
  if (length === null) {
    r.notes.push({
      level: 'warning',
      subject: `Line ${event.line}`,
      message: `Line ${event.line}: the event lasts no time (it has no DTEND or DURATION, or ends as it starts), so it puts nobody on call: it is left out.`,
    });
    return;
  }
  const personId = personOf(event, r);
  if (personId === null) return;

  const excluded = new Set<number>(replaced.get(text(first(event, 'UID'))) ?? []);
  const excludedDays = new Set<number>();
  for (const exdate of event.properties.filter((p) => p.name === 'EXDATE')) {
    for (let i = 0; i < exdate.values.length; i++) {
      const t = clock.timeOf(exdate, i);
      // A date alone takes out the occurrence starting that day.
      if (t.date) excludedDays.add(Math.floor(t.wall / DAY));
      else excluded.add(instantOf(t).getTime());
    }
  }
  const lowWall = wallOf(window.from, start.zone) - length.wall - length.exact - DAY;
  const highWall = wallOf(window.to, start.zone) + DAY;
  const starts = occurrenceWalls(event, start, clock, window, lowWall, highWall, r);
  for (const wall of starts) {
    const begin = instantOf({ ...start, wall });
    if (excluded.has(begin.getTime()) || excludedDays.has(Math.floor(wall / DAY))) continue;
    // The first occurrence ends where DTEND says, even in an hour a clock change repeats.
    const end =
      wall === start.wall && length.end
        ? length.end
        : new Date(instantOf({ ...start, wall: wall + length.wall }).getTime() + length.exact);
    if (begin >= window.to) {
      r.continues = true;
      continue;
    }
    if (end <= window.from || end <= begin) continue;
    r.occurrences.push({
      start: new Date(Math.max(begin.getTime(), window.from.getTime())),
      end: new Date(Math.min(end.getTime(), window.to.getTime())),
      personSourceId: personId,
      line: event.line,
    });
  }
}

/**
 * occurrenceWalls lists the wall starts of an event's occurrences near the window: its start,
 * its RRULE's (expanded in wall time in the start's zone), and its RDATEs.
 */
function occurrenceWalls(
  event: Component,
  start: WallInstant,
  clock: CalendarClock,
  window: Window,
  lowWall: number,
  highWall: number,
  r: EventReading,
): Set<number> {
  const starts: number[] = [start.wall];
  const rrule = first(event, 'RRULE');
  if (rrule && !first(event, 'RECURRENCE-ID')) {
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
    if (rule.after(new Date(highWall)) !== null) r.continues = true;
  }
  for (const rdate of event.properties.filter((p) => p.name === 'RDATE')) {
    for (let i = 0; i < rdate.values.length; i++) {
      starts.push(wallOf(instantOf(clock.timeOf(rdate, i)), start.zone));
    }
  }
  return new Set(starts);
}

/**
 * personOf is who an event puts on call: its attendee's email (named by the attendee's CN, else
 * the summary), or without one the name in its summary; null (with a note) when it names nobody.
 */
function personOf(event: Component, r: EventReading): string | null {
  const summary = text(first(event, 'SUMMARY'));
  const withEmail = event.properties
    .filter((p) => p.name === 'ATTENDEE')
    .map((a) => ({ a, email: emailOf(a) }))
    .filter((x): x is { a: Property; email: string } => x.email !== null);
  const taken = withEmail[0];
  if (taken) {
    const cn = typeof taken.a.params.cn === 'string' ? taken.a.params.cn.trim() : '';
    if (!r.emails.has(taken.email)) {
      r.emails.set(taken.email, {
        sourceId: taken.email,
        name: cn || nameInSummary(summary) || taken.email,
        email: taken.email,
      });
    }
    if (withEmail.length > 1) {
      r.notes.push({
        level: 'warning',
        subject: `Line ${event.line}`,
        message: `Line ${event.line}: the event has ${withEmail.length} attendees (${withEmail.map((x) => x.email).join(', ')}); Baton puts one person on call at a time, so ${taken.email} is taken.`,
      });
    }
    return taken.email;
  }
  const name = nameInSummary(summary);
  if (name === '') {
    r.notes.push({
      level: 'warning',
      subject: `Line ${event.line}`,
      message: `Line ${event.line}: the event has no attendee and no summary, so it names nobody to put on call: it is left out.`,
    });
    return null;
  }
  const id = `name:${name.toLowerCase()}`;
  if (!r.nameOnly.has(id)) r.nameOnly.set(id, { name, line: event.line });
  return id;
}

/**
 * peopleOf is the calendar's people: attendees by email, and names alone, each matched to an
 * attendee of the same name when there is one (their occurrences are then that attendee's).
 */
function peopleOf(r: EventReading): SourcePerson[] {
  const people: SourcePerson[] = [...r.emails.values()];
  const renamed = new Map<string, string>();
  for (const [id, { name, line }] of r.nameOnly) {
    const same = people.find(
      (p) => p.email !== null && p.name.toLowerCase() === name.toLowerCase(),
    );
    if (same) {
      renamed.set(id, same.sourceId);
      continue;
    }
    people.push({ sourceId: id, name, email: null });
    r.notes.push({
      level: 'warning',
      subject: name,
      message: `“${name}” (first on line ${line}) has no email in the calendar, only a name in the events' summary: Baton matches people by email, so they cannot be matched and need one. Export the calendar with attendees, or add ATTENDEE:mailto:… to their events.`,
    });
  }
  for (const o of r.occurrences) {
    o.personSourceId = renamed.get(o.personSourceId) ?? o.personSourceId;
  }
  return people;
}

/**
 * onePersonAtATime lays the occurrences into one line of shifts, Baton having one person on call
 * at a time: where events overlap, the later-starting one is on call (the rule compareRenderings
 * reads two shifts at once by). It lists each overlap of two people.
 */
function onePersonAtATime(
  occurrences: Occurrence[],
  nameOf: (id: string) => string,
): { rendered: SourceShift[]; overlaps: string[] } {
  occurrences.sort((a, b) => a.start.getTime() - b.start.getTime() || a.line - b.line);
  const out: SourceShift[] = [];
  const overlaps: string[] = [];
  for (const o of occurrences) {
    let at = out.length;
    while (at > 0 && (out[at - 1] as SourceShift).end > o.start) at--;
    const tail = out.splice(at);
    const after: SourceShift[] = [];
    for (const piece of tail) {
      if (piece.personSourceId !== o.personSourceId && piece.start < o.end) {
        overlaps.push(
          `${nameOf(piece.personSourceId)} and ${nameOf(o.personSourceId)} from ${o.start.toISOString()}`,
        );
      }
      if (piece.start < o.start) out.push({ ...piece, end: o.start });
      if (piece.end > o.end) {
        after.push({ ...piece, start: new Date(Math.max(piece.start.getTime(), o.end.getTime())) });
      }
    }
    out.push({ start: o.start, end: o.end, personSourceId: o.personSourceId }, ...after);
  }
  return { rendered: merge(out), overlaps };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** calendarNotes are the notes about the calendar as a whole. */
function calendarNotes(
  calendarName: string,
  zone: string,
  r: EventReading,
  overlaps: string[],
  window: Window,
): SourceNote[] {
  const notes: SourceNote[] = [];
  const note = (level: SourceNote['level'], message: string) =>
    notes.push({ level, subject: calendarName, message });
  if (overlaps.length > 0) {
    note(
      'warning',
      `${overlaps.length} time${overlaps.length > 1 ? 's' : ''} two events overlap (${overlaps.slice(0, 3).join('; ')}${overlaps.length > 3 ? '; …' : ''}): Baton puts one person on call at a time, so where events overlap the one that starts later is on call.`,
    );
  }
  if (r.allDay) {
    note(
      'info',
      `All-day events run from midnight to midnight in ${zone}, the calendar's time zone.`,
    );
  }
  if (r.floating !== null) {
    note(
      'info',
      `Line ${r.floating}: times without a time zone are read in ${zone}, the calendar's time zone.`,
    );
  }
  if (r.cancelled > 0) {
    const many = r.cancelled > 1;
    note(
      'info',
      `${r.cancelled} cancelled event${many ? 's' : ''} (STATUS:CANCELLED) put nobody on call and ${many ? 'are' : 'is'} left out.`,
    );
  }
  note(
    'warning',
    `A calendar lists shifts, not how they turn: “${calendarName}” becomes a scheduled rotation whose entries are its events from ${day(window.from)} to ${day(window.to)}.${r.continues ? ` Its events after ${day(window.to)} are not imported: import the calendar again before then, or give the rotation layers.` : ''}`,
  );
  return notes;
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
