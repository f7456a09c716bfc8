import * as rruleModule from 'rrule';
import { type Recurrence, recurrenceInWords } from './recurrence';
import { instantOfWallMinute, type TimeWindow, wallMinuteOf, wallTimeOf } from './shifts';

/**
 * The occurrences of schedule entries (decision 250). A single entry is its own one occurrence; a
 * series repeats its first window by its rule in the rotation's time zone: the rule is expanded by
 * the rrule library in wall time (zone-free "floating" dates) and each occurrence's local start
 * and end are then read in the zone, so a 09:00–17:00 entry stays 09:00–17:00 local across
 * daylight-saving changes. Occurrences taken out of the series are skipped.
 */

// rrule ships CommonJS to Node (its named exports are on `default` there) and ES modules to Vite.
const { RRule } =
  (rruleModule as unknown as { default?: typeof rruleModule }).default ?? rruleModule;

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A schedule entry as the expansion reads it. */
export interface SeriesEntry {
  userId: number;
  /** the first occurrence's start and end */
  start: Date;
  end: Date;
  /** the rule; null for a single entry */
  recurrence: Recurrence | null;
  /** the starts (ISO instants) of occurrences taken out of the series */
  takenOut: readonly string[];
}

/** The wall-time shape of a series: its first local start and its local length, in ms. */
function wallShape(entry: SeriesEntry, timeZone: string): { wallStart: number; length: number } {
  const wallStart = wallMinuteOf(wallTimeOf(entry.start, timeZone)) * MINUTE;
  const wallEnd = wallMinuteOf(wallTimeOf(entry.end, timeZone)) * MINUTE;
  // A window that ends in a repeated hour may read shorter in wall time than it lasts.
  const length =
    wallEnd > wallStart ? wallEnd - wallStart : entry.end.getTime() - entry.start.getTime();
  return { wallStart, length };
}

function ruleOf(r: Recurrence, wallStart: number) {
  const days = [RRule.SU, RRule.MO, RRule.TU, RRule.WE, RRule.TH, RRule.FR, RRule.SA];
  let until: Date | null = null;
  if (r.until !== undefined) {
    const [y, m, d] = r.until.split('-').map(Number);
    until = new Date(Date.UTC(y, m - 1, d, 23, 59, 59));
  }
  return new RRule({
    freq: r.frequency === 'daily' ? RRule.DAILY : RRule.WEEKLY,
    interval: r.interval,
    byweekday: r.frequency === 'weekly' ? (r.weekdays ?? []).map((d) => days[d]) : null,
    dtstart: new Date(wallStart),
    until,
    count: r.count ?? null,
    wkst: RRule.MO,
  });
}

/** A generated occurrence: its window and whether it was taken out. */
interface Generated extends TimeWindow {
  takenOut: boolean;
}

/**
 * eachGenerated visits, in order, every occurrence the rule generates whose wall start is at or
 * after `fromWall` (taken-out ones included), until `visit` answers false or the series ends.
 */
function eachGenerated(
  entry: SeriesEntry,
  timeZone: string,
  fromWall: number,
  visit: (o: Generated) => boolean,
): void {
  const takenOut = new Set(entry.takenOut.map((s) => new Date(s).getTime()));
  if (!entry.recurrence) {
    visit({ userId: entry.userId, start: entry.start, end: entry.end, takenOut: false });
    return;
  }
  const { wallStart, length } = wallShape(entry, timeZone);
  ruleOf(entry.recurrence, wallStart).all((date) => {
    const wall = date.getTime();
    if (wall < fromWall) return true;
    const start = instantOfWallMinute(wall / MINUTE, timeZone);
    const end = instantOfWallMinute((wall + length) / MINUTE, timeZone);
    return visit({ userId: entry.userId, start, end, takenOut: takenOut.has(start.getTime()) });
  });
}

/** The wall time from which an occurrence could still end after `instant` (a day's margin). */
function wallFloor(entry: SeriesEntry, timeZone: string, instant: Date): number {
  const { length } = wallShape(entry, timeZone);
  return wallMinuteOf(wallTimeOf(instant, timeZone)) * MINUTE - length - DAY;
}

/** occurrencesOf returns an entry's occurrences that share an instant with [from, to), in order. */
export function occurrencesOf(
  entry: SeriesEntry,
  timeZone: string,
  from: Date,
  to: Date,
): TimeWindow[] {
  const found: TimeWindow[] = [];
  eachGenerated(entry, timeZone, wallFloor(entry, timeZone, from), (o) => {
    if (o.start.getTime() >= to.getTime()) return false;
    if (!o.takenOut && o.end.getTime() > from.getTime()) {
      found.push({ userId: o.userId, start: o.start, end: o.end });
    }
    return true;
  });
  return found;
}

/** firstOccurrenceAfter returns an entry's first occurrence whose start (or end) is after `after`, or null. */
export function firstOccurrenceAfter(
  entry: SeriesEntry,
  timeZone: string,
  after: Date,
  edge: 'start' | 'end',
): TimeWindow | null {
  let found: TimeWindow | null = null;
  eachGenerated(entry, timeZone, wallFloor(entry, timeZone, after), (o) => {
    if (o.takenOut || o[edge].getTime() <= after.getTime()) return true;
    found = { userId: o.userId, start: o.start, end: o.end };
    return false;
  });
  return found;
}

/**
 * nextEntryChangeAfter returns the first instant after `after` at which one of the entries'
 * occurrences starts or ends, or null.
 */
export function nextEntryChangeAfter(
  entries: readonly SeriesEntry[],
  timeZone: string,
  after: Date,
): Date | null {
  let best: number | null = null;
  for (const entry of entries) {
    const o = firstOccurrenceAfter(entry, timeZone, after, 'end');
    if (!o) continue;
    const t = o.start.getTime() > after.getTime() ? o.start.getTime() : o.end.getTime();
    if (best === null || t < best) best = t;
  }
  return best === null ? null : new Date(best);
}

/**
 * generatedBefore counts the occurrences a series generates (taken-out ones too) whose start (or
 * end) is at or before `instant`: the COUNT that cuts the series there.
 */
export function generatedBefore(
  entry: SeriesEntry,
  timeZone: string,
  instant: Date,
  edge: 'start' | 'end',
): number {
  let n = 0;
  eachGenerated(entry, timeZone, Number.NEGATIVE_INFINITY, (o) => {
    if (o[edge].getTime() > instant.getTime()) return false;
    n += 1;
    return true;
  });
  return n;
}

/**
 * seriesEndOf returns the end of a series' last generated occurrence, or null when it never
 * ends; a single entry's own end.
 */
export function seriesEndOf(entry: SeriesEntry, timeZone: string): Date | null {
  const r = entry.recurrence;
  if (!r) return entry.end;
  if (r.until === undefined && r.count === undefined) return null;
  let last: Date | null = null;
  eachGenerated(entry, timeZone, Number.NEGATIVE_INFINITY, (o) => {
    last = o.end;
    return true;
  });
  return last;
}

/** isOccurrenceOf tells whether an entry has an occurrence (not taken out) starting at `start`. */
export function isOccurrenceOf(entry: SeriesEntry, timeZone: string, start: Date): boolean {
  const o = firstOccurrenceAfter(entry, timeZone, new Date(start.getTime() - 1), 'start');
  return o !== null && o.start.getTime() === start.getTime();
}

/** seriesInWords says a series in words in its zone ('Weekly on Mon, Wed 09:00–17:00, 10 times'), or null for a single entry. */
export function seriesInWords(entry: SeriesEntry, timeZone: string): string | null {
  if (!entry.recurrence) return null;
  const { wallStart, length } = wallShape(entry, timeZone);
  const startMinute = Math.round((((wallStart % DAY) + DAY) % DAY) / MINUTE);
  return recurrenceInWords(entry.recurrence, startMinute, Math.round(length / MINUTE));
}
