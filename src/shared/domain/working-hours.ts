import { isOnDuty, windowEdges } from './on-duty-windows';
import type { Urgency } from './paging';

/**
 * A person's working hours (issue 33, decision 254): the days of the week and the local hours, in
 * the person's own zone, in which low-urgency pages reach them when they hold low urgency to them.
 * Pure: the instant comes in. The hours are an on-duty window (decision 246), so daylight saving
 * is handled once: '09:00' is 09:00 local on both sides of a change, a start skipped by the
 * change moves to the first instant after the gap.
 */

export interface WorkingHours {
  /** 0 = Sunday … 6 = Saturday */
  days: number[];
  /** local 'HH:MM' in the person's zone; an end at or before the start runs into the next day */
  start: string;
  end: string;
  /** low-urgency pages outside these hours wait for the next start; high urgency never waits */
  holdLowUrgency: boolean;
}

/** Monday to Friday, 09:00–17:00, not held: what a person without working hours is shown. */
export const DEFAULT_WORKING_HOURS: WorkingHours = {
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '17:00',
  holdLowUrgency: false,
};

const WEEKDAY_NAMES = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;
export const WEEKDAY_SHORT = WEEKDAY_NAMES.map((d) => d.slice(0, 3));

/** How far ahead the next start is looked for: a week and a day covers any set of days. */
const LOOK_AHEAD_MS = 8 * 24 * 60 * 60_000;

/** isWithinWorkingHours tells whether `at` falls in the person's working hours, in their zone. */
export function isWithinWorkingHours(hours: WorkingHours, timeZone: string, at: Date): boolean {
  return isOnDuty([hours], timeZone, at);
}

/**
 * nextWorkingStart: the first instant after `now` at which the person's working hours begin, in
 * their zone (DST-correct), or null when there are no working days.
 */
export function nextWorkingStart(hours: WorkingHours, timeZone: string, now: Date): Date | null {
  if (hours.days.length === 0) return null;
  const edges = windowEdges([hours], timeZone, now, new Date(now.getTime() + LOOK_AHEAD_MS));
  return edges.find((e) => e.onDuty)?.at ?? null;
}

/**
 * lowUrgencyHeldUntil: when a page of this urgency, raised at `now`, reaches a person who holds
 * low urgency to their working hours: null when it goes now (high or medium urgency, no hold,
 * within the hours), else the next start of their working hours.
 */
export function lowUrgencyHeldUntil(
  hours: WorkingHours | null | undefined,
  timeZone: string,
  urgency: Urgency,
  now: Date,
): Date | null {
  if (!hours?.holdLowUrgency || urgency !== 'low') return null;
  if (isWithinWorkingHours(hours, timeZone, now)) return null;
  return nextWorkingStart(hours, timeZone, now);
}

/** workingHoursWords: "Monday to Friday, 09:00–17:00" or "Mon, Wed, Sat, 08:00–12:00". */
export function workingHoursWords(hours: Pick<WorkingHours, 'days' | 'start' | 'end'>): string {
  const days = [...new Set(hours.days)].sort((a, b) => a - b);
  const contiguous = days.length > 2 && days.every((d, i) => i === 0 || d === days[i - 1] + 1);
  const dayWords =
    days.length === 7
      ? 'Every day'
      : contiguous
        ? `${WEEKDAY_NAMES[days[0]]} to ${WEEKDAY_NAMES[days[days.length - 1]]}`
        : days.map((d) => WEEKDAY_SHORT[d]).join(', ');
  return `${dayWords}, ${hours.start}–${hours.end}`;
}
