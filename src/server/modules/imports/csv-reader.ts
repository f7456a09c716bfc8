import Papa from 'papaparse';
import { z } from 'zod';
import { CADENCE_EVERY_MAX, LAYER_MEMBERS_MAX } from '../../../shared/contracts/rotations';
import type { Cadence } from '../../../shared/domain/layers';
import {
  isE164,
  normalizePhone,
  PHONE_E164_MESSAGE,
} from '../../../shared/domain/notification-routing';
import { MINUTES_PER_DAY, minutesOfDay } from '../../../shared/domain/on-duty-windows';
import { instantOfWallMinute, wallMinuteOf, wallTimeOf } from '../../../shared/domain/shifts';
import { isTimeZone } from '../../../shared/domain/time-zones';
import { CSV_COLUMNS, type CsvColumn } from './csv-template';
import { renderSchedule } from './snapshot-rendering';
import {
  ImportSourceError,
  type SourceNote,
  type SourcePerson,
  type SourceReader,
  type SourceSchedule,
  type SourceSnapshot,
} from './source-snapshot';

/**
 * The spreadsheet reader (issue 34, decision 269): one CSV of people and rotations, a row each,
 * told apart by `kind` (columns in csv-template.ts). Rows are numbered as a spreadsheet shows them
 * (the header is row 1). A row with a bad value is left out and named in a note ("Row 17: …"),
 * every problem of the row in one sentence, so one reading lists every fix; only a file that
 * cannot be read as a whole (no header, unknown columns, an unclosed quote) is refused.
 *
 * A rotation becomes one layer: its members in turn order, turns of its cadence handing off at
 * its handoff time (weekly: on its handoff day) in its zone, the first member holding the turn
 * that began at the latest handoff at or before the window's start. A spreadsheet has no rendering
 * of its own, so `rendered` is Baton's rendering of that layer.
 */

export const CSV_ACCOUNT = 'spreadsheet';

const ROLE_WORDS: Record<string, NonNullable<SourcePerson['role']>> = {
  admin: 'admin',
  administrator: 'admin',
  manager: 'manager',
  member: 'member',
  'on-call': 'member',
  'on call': 'member',
  oncall: 'member',
  responder: 'member',
  user: 'member',
};

const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const HEADER_ALIASES: Record<string, CsvColumn> = {
  timezone: 'time_zone',
  zone: 'time_zone',
  handoff_weekday: 'handoff_day',
};

const emailSchema = z.email();
const isEmail = (value: string) => emailSchema.safeParse(value).success;

const EXPECTED = `Baton expects the columns ${CSV_COLUMNS.join(', ')} (download the template)`;

/** A cell of a row by its column; absent columns read as empty. */
type Row = { number: number; cell: (column: CsvColumn) => string };
type RowProblem = (row: Row, problems: string[]) => void;

/** The people read so far, found by email and by name, and the keys of rows left out. */
interface Roster {
  people: SourcePerson[];
  byEmail: Map<string, { person: SourcePerson; row: number }>;
  byName: Map<string, SourcePerson[]>;
  leftOut: Map<string, number>;
}

export const readCsv: SourceReader = async (input) => {
  if (input.content === undefined) {
    throw new ImportSourceError('Give the spreadsheet to import', 'input');
  }
  return readCsvContent(input.content, input.window);
};

/** readCsvContent reads a spreadsheet's text into a snapshot over the window (pure). */
export function readCsvContent(content: string, window: { from: Date; to: Date }): SourceSnapshot {
  const rows = parseRows(content);
  const notes: SourceNote[] = [];
  const rowProblem = (row: Row, problems: string[]) =>
    notes.push({
      level: 'warning',
      subject: `Row ${row.number}`,
      message: `Row ${row.number}: ${problems.join('; ')}. The row is left out: correct it and import the file again.`,
    });

  const personRows: Row[] = [];
  const rotationRows: Row[] = [];
  for (const row of rows) {
    const kind = row.cell('kind').toLowerCase();
    if (kind === 'person' || kind === 'people') personRows.push(row);
    else if (kind === 'rotation' || kind === 'schedule') rotationRows.push(row);
    else if (kind === '') rowProblem(row, ['give its kind: person or rotation']);
    else rowProblem(row, [`kind “${row.cell('kind')}” is neither person nor rotation`]);
  }

  // People first: rotations on any row may name them.
  const roster = readPeople(personRows, rowProblem);
  const people = roster.people;
  const schedules = readRotations(rotationRows, roster, window, notes, rowProblem);

  if (schedules.length > 0) {
    notes.push({
      level: 'info',
      subject: 'Rotations',
      message:
        "A spreadsheet says how a rotation turns, not who was on call: each rotation's first member holds the turn that began at its latest handoff at or before the import, and its 90-day rendering is Baton's own, so verify confirms the rotations were applied as the rows say.",
    });
  }

  // The plan lists the rows in the file's order; notes about the file as a whole come last.
  const rowOf = (n: SourceNote) => Number(/^Row (\d+)$/.exec(n.subject)?.[1] ?? Infinity);
  notes.sort((a, b) => rowOf(a) - rowOf(b));

  return {
    source: 'csv',
    account: CSV_ACCOUNT,
    window,
    people,
    schedules,
    policies: [],
    integrations: [],
    notes,
  };
}

/** readPeople reads the person rows: the good ones into the roster, the bad ones into notes. */
function readPeople(personRows: Row[], rowProblem: RowProblem): Roster {
  const people: SourcePerson[] = [];
  const byEmail = new Map<string, { person: SourcePerson; row: number }>();
  const byName = new Map<string, SourcePerson[]>();
  const leftOut = new Map<string, number>();
  for (const row of personRows) {
    const problems: string[] = [];
    const name = row.cell('name');
    const email = row.cell('email').toLowerCase();
    if (name === '') problems.push("give the person's name");
    if (email === '') problems.push("give the person's email");
    else if (!isEmail(email)) problems.push(`“${row.cell('email')}” is not an email address`);
    else {
      const earlier = byEmail.get(email);
      if (earlier) problems.push(`${email} is listed already on row ${earlier.row}`);
    }
    const phone = normalizePhone(row.cell('phone'));
    if (phone !== null && !isE164(phone)) {
      problems.push(`phone “${row.cell('phone')}”: ${PHONE_E164_MESSAGE}`);
    }
    const roleWord = row.cell('role').toLowerCase();
    const role = roleWord === '' ? 'member' : ROLE_WORDS[roleWord];
    if (role === undefined) {
      problems.push(`role “${row.cell('role')}” is not one of admin, manager or member`);
    }
    const zone = row.cell('time_zone');
    if (zone !== '' && !isTimeZone(zone)) problems.push(zoneProblem(zone));
    if (problems.length > 0) {
      rowProblem(row, problems);
      if (email !== '') leftOut.set(email, row.number);
      if (name !== '') leftOut.set(name.toLowerCase(), row.number);
      continue;
    }
    const person: SourcePerson = {
      sourceId: email,
      name,
      email,
      phone,
      timeZone: zone === '' ? null : zone,
      role,
    };
    people.push(person);
    byEmail.set(email, { person, row: row.number });
    const key = name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), person]);
  }
  return { people, byEmail, byName, leftOut };
}

/** readRotations reads the rotation rows into one-layer schedules; bad rows go into notes. */
function readRotations(
  rotationRows: Row[],
  roster: Roster,
  window: { from: Date; to: Date },
  notes: SourceNote[],
  rowProblem: RowProblem,
): SourceSchedule[] {
  const { people, byEmail, byName, leftOut } = roster;
  const schedules: SourceSchedule[] = [];
  const rotationNames = new Map<string, number>();
  for (const row of rotationRows) {
    const problems: string[] = [];
    const name = row.cell('name');
    if (name === '') problems.push("give the rotation's name");
    else {
      const earlier = rotationNames.get(name.toLowerCase());
      if (earlier !== undefined)
        problems.push(`a rotation “${name}” is listed already on row ${earlier}`);
    }
    const cadence = parseCadence(row.cell('cadence'));
    if (typeof cadence === 'string') problems.push(cadence);
    const handoffTime = parseHandoffTime(row.cell('handoff_time'));
    if (handoffTime === null) {
      problems.push(
        row.cell('handoff_time') === ''
          ? 'give the handoff time (HH:MM, 24-hour)'
          : `handoff time “${row.cell('handoff_time')}” is not a time such as 09:00`,
      );
    }
    let handoffWeekday = 1;
    const day = row.cell('handoff_day');
    if (typeof cadence !== 'string' && cadence.cadence === 'weekly') {
      const weekday = parseWeekday(day);
      if (weekday === null) {
        problems.push(
          day === ''
            ? 'give the handoff day (Monday … Sunday) of a weekly rotation'
            : `handoff day “${day}” is not a weekday such as Monday`,
        );
      } else handoffWeekday = weekday;
    }
    const zone = row.cell('time_zone');
    if (zone === '') problems.push("give the rotation's time zone, such as Europe/London");
    else if (!isTimeZone(zone)) problems.push(zoneProblem(zone));
    const members: string[] = [];
    const newPeople: SourcePerson[] = [];
    const words = row
      .cell('members')
      .split(/[;\n]/)
      .map((m) => m.trim())
      .filter((m) => m !== '');
    if (words.length === 0) problems.push('list its members in turn order, separated by ;');
    if (words.length > LAYER_MEMBERS_MAX) {
      problems.push(`a rotation may have at most ${LAYER_MEMBERS_MAX} turns`);
    }
    for (const word of words) {
      const resolved = resolveMember(word, byEmail, byName, leftOut);
      if (typeof resolved === 'string') problems.push(resolved);
      else {
        members.push(resolved.person.sourceId);
        if (resolved.isNew && !newPeople.some((p) => p.sourceId === resolved.person.sourceId)) {
          newPeople.push(resolved.person);
        }
      }
    }
    if (problems.length > 0 || typeof cadence === 'string' || handoffTime === null) {
      rowProblem(row, problems);
      continue;
    }
    rotationNames.set(name.toLowerCase(), row.number);
    for (const person of newPeople) {
      people.push(person);
      byEmail.set(person.sourceId, { person, row: row.number });
      notes.push({
        level: 'info',
        subject: `Row ${row.number}`,
        message: `Row ${row.number}: ${person.email} is not listed as a person: Baton matches or invites them by email alone, with the email as their name.`,
      });
    }
    if (day !== '' && cadence.cadence !== 'weekly') {
      notes.push({
        level: 'info',
        subject: `Row ${row.number}`,
        message: `Row ${row.number}: the handoff day “${day}” is used by weekly rotations only; “${name}” hands off every ${describeCadence(cadence)} at ${handoffTime}.`,
      });
    }
    const startsAt = latestHandoffAtOrBefore(
      cadence.cadence,
      handoffTime,
      handoffWeekday,
      zone,
      window.from,
    );
    const schedule: SourceSchedule = {
      sourceId: name,
      name,
      timeZone: zone,
      layers: [
        {
          name,
          memberSourceIds: members,
          cadence: cadence.cadence,
          cadenceEvery: cadence.every,
          handoffTime,
          handoffWeekday,
          activeWindows: [],
          startsAt,
        },
      ],
      overrides: [],
      rendered: [],
    };
    schedule.rendered = renderSchedule(schedule, window.from, window.to);
    schedules.push(schedule);
  }
  return schedules;
}

/** parseRows reads the text into rows keyed by the header, or refuses the file as a whole. */
function parseRows(content: string): Row[] {
  const text = content.replace(/^\uFEFF/, '');
  if (text.trim() === '') {
    throw new ImportSourceError(`The spreadsheet is empty: ${EXPECTED}`, 'input');
  }
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  // Spreadsheets in some languages save with semicolons or tabs between cells.
  const delimiter = firstLine.includes(',')
    ? ','
    : firstLine.includes('\t')
      ? '\t'
      : firstLine.includes(';')
        ? ';'
        : ',';
  const parsed = Papa.parse<string[]>(text, { delimiter, skipEmptyLines: false });
  const quote = parsed.errors.find((e) => e.type === 'Quotes');
  if (quote) {
    const row = (quote.row ?? 0) + 1;
    throw new ImportSourceError(
      `Row ${row}: a quoted cell is never closed, so the rest of the file cannot be read: close the quote (")`,
      'input',
    );
  }
  const [header = [], ...data] = parsed.data;
  const columns = header.map((h): string => {
    const key = h
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, '_');
    return HEADER_ALIASES[key] ?? key;
  });
  const known = new Set<string>(CSV_COLUMNS);
  const unknown = columns.filter((c) => c !== '' && !known.has(c));
  const missing = (['kind', 'name'] as const).filter((c) => !columns.includes(c));
  if (missing.length > 0 || unknown.length > 0) {
    const what = [
      missing.length > 0 ? `the first row has no ${missing.join(' or ')} column` : null,
      unknown.length > 0
        ? `Baton does not know the column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `“${u}”`).join(', ')}`
        : null,
    ].filter(Boolean);
    throw new ImportSourceError(
      `Row 1 must name the columns: ${what.join('; ')}. ${EXPECTED}`,
      'input',
    );
  }
  const twice = columns.find((c, i) => c !== '' && columns.indexOf(c) !== i);
  if (twice) {
    throw new ImportSourceError(`Row 1 names the column “${twice}” twice. ${EXPECTED}`, 'input');
  }
  const index = new Map(columns.map((c, i) => [c, i] as const));
  const rows: Row[] = [];
  data.forEach((cells, i) => {
    if (cells.every((c) => c.trim() === '')) return;
    rows.push({
      number: i + 2,
      cell: (column) => {
        const at = index.get(column);
        return at === undefined ? '' : (cells[at] ?? '').trim();
      },
    });
  });
  if (rows.length === 0) {
    throw new ImportSourceError(
      'The spreadsheet has a header and no rows: add a row for each person and rotation',
      'input',
    );
  }
  return rows;
}

function zoneProblem(zone: string): string {
  return `time zone “${zone}” is not one Baton knows: use a name such as Europe/London or America/New_York`;
}

interface ParsedCadence {
  cadence: Cadence;
  every: number;
}

const CADENCE_WORDS: Record<string, ParsedCadence> = {
  hourly: { cadence: 'hourly', every: 1 },
  daily: { cadence: 'daily', every: 1 },
  weekly: { cadence: 'weekly', every: 1 },
  biweekly: { cadence: 'weekly', every: 2 },
  fortnightly: { cadence: 'weekly', every: 2 },
};
const UNITS: Record<string, Cadence> = {
  h: 'hourly',
  hr: 'hourly',
  hrs: 'hourly',
  hour: 'hourly',
  hours: 'hourly',
  d: 'daily',
  day: 'daily',
  days: 'daily',
  w: 'weekly',
  wk: 'weekly',
  wks: 'weekly',
  week: 'weekly',
  weeks: 'weekly',
};
const UNIT_WORDS: Record<Cadence, string> = { hourly: 'hours', daily: 'days', weekly: 'weeks' };

/** parseCadence reads "weekly", "daily", "hourly", "12h", "2 weeks", "every 3 days"; else why not. */
export function parseCadence(value: string): ParsedCadence | string {
  const text = value.trim().toLowerCase();
  if (text === '')
    return 'give the cadence: daily, weekly, hourly or a length such as 12h or 2 weeks';
  const word = CADENCE_WORDS[text];
  if (word) return word;
  const match = /^(?:every\s+)?(\d+)\s*([a-z]+)$/.exec(text);
  const cadence = match ? UNITS[match[2] as string] : undefined;
  if (!match || !cadence) {
    return `cadence “${value}” is not daily, weekly, hourly or a length such as 12h or 2 weeks`;
  }
  const every = Number(match[1]);
  const max = CADENCE_EVERY_MAX[cadence];
  if (every < 1 || every > max) {
    return `cadence “${value}” must be from 1 to ${max} ${UNIT_WORDS[cadence]}`;
  }
  return { cadence, every };
}

function describeCadence(c: ParsedCadence): string {
  return c.every === 1
    ? UNIT_WORDS[c.cadence].replace(/s$/, '')
    : `${c.every} ${UNIT_WORDS[c.cadence]}`;
}

/** parseHandoffTime reads "09:00", "9:00" or "09:00:00" as "09:00"; null otherwise. */
function parseHandoffTime(value: string): string | null {
  const match = /^(\d{1,2}):(\d{2})(?::00)?$/.exec(value);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2]);
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/** parseWeekday reads a weekday's name or its first three letters: 0 = Sunday … 6 = Saturday. */
function parseWeekday(value: string): number | null {
  const text = value.trim().toLowerCase();
  if (text.length < 3) return null;
  const at = WEEKDAYS.findIndex((d) => d === text || d.slice(0, 3) === text);
  return at >= 0 ? at : null;
}

/** resolveMember finds a rotation member among the person rows, or makes one of an email. */
function resolveMember(
  word: string,
  byEmail: Map<string, { person: SourcePerson }>,
  byName: Map<string, SourcePerson[]>,
  leftOut: Map<string, number>,
): { person: SourcePerson; isNew: boolean } | string {
  const key = word.toLowerCase();
  const known = byEmail.get(key);
  if (known) return { person: known.person, isNew: false };
  const named = byName.get(key) ?? [];
  if (named.length === 1) return { person: named[0] as SourcePerson, isNew: false };
  if (named.length > 1) {
    return `member “${word}” names ${named.length} people listed: give their email instead`;
  }
  const skipped = leftOut.get(key);
  if (skipped !== undefined) {
    return `member “${word}” is the person on row ${skipped}, which is left out`;
  }
  if (word.includes('@')) {
    if (!isEmail(key)) return `member “${word}” is not an email address`;
    return { person: { sourceId: key, name: key, email: key }, isNew: true };
  }
  return `member “${word}” is not a person listed in the file, nor an email address`;
}

/**
 * latestHandoffAtOrBefore is the latest instant at or before `at` that falls at the rotation's
 * handoff time (weekly: on its handoff day): its handoff time on that local day or the day before,
 * or the week before. Hourly turns count from there, so every turn keeps the grid the handoff
 * time sets.
 */
export function latestHandoffAtOrBefore(
  cadence: Cadence,
  handoffTime: string,
  handoffWeekday: number,
  timeZone: string,
  at: Date,
): Date {
  const wall = wallTimeOf(at, timeZone);
  let day = wallMinuteOf({ ...wall, hour: 0, minute: 0 });
  let back = MINUTES_PER_DAY;
  if (cadence === 'weekly') {
    day -= ((wall.weekday - handoffWeekday + 7) % 7) * MINUTES_PER_DAY;
    back = 7 * MINUTES_PER_DAY;
  }
  let boundary = day + minutesOfDay(handoffTime);
  while (instantOfWallMinute(boundary, timeZone).getTime() > at.getTime()) boundary -= back;
  return instantOfWallMinute(boundary, timeZone);
}
