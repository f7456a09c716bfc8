import { instantOfWallMinute, parseLocalTime, wallMinuteOf, wallTimeOf } from './shifts';

/**
 * On-duty windows of a rotation's layer (issue 32, decision 246): the days and local hours in the
 * rotation's zone in which a layer has somebody on call. Pure: the instant comes in.
 *
 * A window belongs to the day it starts on and runs from the instant its start wall time names
 * to the instant its end names (instantOfWallTime: a time skipped by daylight saving moves to the
 * first instant after the gap, a repeated one takes the first), so '07:00'–'19:00' stays 07:00 to
 * 19:00 local across a change, and windows meeting at one wall time never overlap or leave a hole.
 */

/**
 * One on-duty window: on each of `days` (0 = Sunday … 6 = Saturday) from `start` to `end`, local
 * 'HH:MM' in the rotation's zone. An end at or before the start runs into the next day, so
 * '00:00'–'00:00' is the whole day.
 */
export interface OnDutyWindow {
  days: readonly number[];
  start: string;
  end: string;
}

/** A change of a layer's duty: at `at` it goes on duty (`onDuty`) or off. */
export interface WindowEdge {
  at: Date;
  onDuty: boolean;
}

const MINUTE = 60_000;
/** Minutes in a day of wall-clock time. */
export const MINUTES_PER_DAY = 24 * 60;

// A projection reads the same few window edges and handoff times at every instant it looks at.
const minutesOfDayCache = new Map<string, number>();

/** minutesOfDay returns the minutes since midnight of a local 'HH:MM' time; it throws on anything else. */
export function minutesOfDay(hhmm: string): number {
  const known = minutesOfDayCache.get(hhmm);
  if (known !== undefined) return known;
  const { hour, minute } = parseLocalTime(hhmm);
  // only well-formed times reach here (parseLocalTime throws on anything else): bounded
  minutesOfDayCache.set(hhmm, hour * 60 + minute);
  return hour * 60 + minute;
}

/** localDayOf returns the wall minute of local midnight on the date of `at` in a zone. */
export function localDayOf(at: Date, timeZone: string): number {
  const wall = wallTimeOf(at, timeZone);
  return wallMinuteOf({ ...wall, hour: 0, minute: 0 });
}

// How far a wall clock can run behind the instant's place among wall times: a repeated stretch
// after a daylight-saving change is an hour or two, never a day.
const REPEAT_SLACK = MINUTES_PER_DAY;

interface Occurrence {
  open: number;
  close: number;
}

/**
 * occurrencesOn lists each window's opening on the local days from `firstDay` to `lastDay`; with
 * `wall`, only those that may hold the instant whose wall minute it is.
 */
function occurrencesOn(
  windows: readonly OnDutyWindow[],
  timeZone: string,
  firstDay: number,
  lastDay: number,
  wall?: number,
): Occurrence[] {
  const occurrences: Occurrence[] = [];
  for (let day = firstDay; day <= lastDay; day += MINUTES_PER_DAY) {
    const weekday = new Date(day * MINUTE).getUTCDay();
    for (const window of windows) {
      if (!window.days.includes(weekday)) continue;
      const start = day + minutesOfDay(window.start);
      let end = day + minutesOfDay(window.end);
      if (end <= start) end += MINUTES_PER_DAY;
      if (wall !== undefined && (end <= wall || start > wall + REPEAT_SLACK)) continue;
      occurrences.push({
        open: instantOfWallMinute(start, timeZone).getTime(),
        close: instantOfWallMinute(end, timeZone).getTime(),
      });
    }
  }
  return occurrences;
}

const within = (occurrences: readonly Occurrence[], t: number) =>
  occurrences.some((o) => o.open <= t && t < o.close);

/** hasWindows tells whether a layer is on duty only within windows (none, or an empty list: always). */
export function hasWindows(
  windows: readonly OnDutyWindow[] | null | undefined,
): windows is readonly OnDutyWindow[] {
  return windows !== null && windows !== undefined && windows.length > 0;
}

/**
 * isOnDuty tells whether `at` falls in one of the windows, read in `timeZone`; no windows (null,
 * absent or an empty list) is always on duty.
 */
export function isOnDuty(
  windows: readonly OnDutyWindow[] | null | undefined,
  timeZone: string,
  at: Date,
): boolean {
  if (!hasWindows(windows)) return true;
  // A window from the day before may still be open; in a repeated hour after midnight the wall
  // date can lag a window of the next day that already opened.
  const day = localDayOf(at, timeZone);
  const occurrences = occurrencesOn(
    windows,
    timeZone,
    day - MINUTES_PER_DAY,
    day + MINUTES_PER_DAY,
  );
  return within(occurrences, at.getTime());
}

/**
 * windowEdges returns each instant in (from, to] at which the windows put a layer on or off duty,
 * oldest first; overlapping or touching windows are one stretch. No windows: none.
 */
export function windowEdges(
  windows: readonly OnDutyWindow[] | null | undefined,
  timeZone: string,
  from: Date,
  to: Date,
): WindowEdge[] {
  if (!hasWindows(windows) || to.getTime() <= from.getTime()) return [];
  const occurrences = occurrencesOn(
    windows,
    timeZone,
    localDayOf(from, timeZone) - MINUTES_PER_DAY,
    localDayOf(to, timeZone) + MINUTES_PER_DAY,
  );
  const candidates = [...new Set(occurrences.flatMap((o) => [o.open, o.close]))]
    .filter((t) => t > from.getTime() && t <= to.getTime())
    .sort((a, b) => a - b);
  const edges: WindowEdge[] = [];
  let onDuty = within(occurrences, from.getTime());
  for (const t of candidates) {
    const now = within(occurrences, t);
    if (now !== onDuty) edges.push({ at: new Date(t), onDuty: now });
    onDuty = now;
  }
  return edges;
}
