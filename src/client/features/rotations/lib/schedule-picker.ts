import { TZDate } from '@date-fns/tz';
import { addDays, addHours, addWeeks, isBefore, set, startOfDay } from 'date-fns';

/**
 * The add-schedule date and time rules of specification section 5, as pure functions of their
 * inputs (`now` is passed in). The dialog works in the signed-in user's zone: its dates are
 * TZDates of that zone (dayIn), on which date-fns reads and sets the zone's own clock, across
 * daylight saving changes too.
 */

/** dayIn returns the calendar day a date picker shows (year, month, day) as midnight in `timeZone`. */
export function dayIn(day: Date, timeZone: string): TZDate {
  return new TZDate(day.getFullYear(), day.getMonth(), day.getDate(), timeZone);
}

/** The hour a freshly picked start day starts at. */
const DEFAULT_START_HOUR = 12;
/** Minutes in the custom minute picker step by this much. */
const MINUTE_STEP = 5;

export type TimePreset = { label: string; hour: number; minute: number };

/** START_PRESETS are the quick start times, in the specification's order. */
export const START_PRESETS: readonly TimePreset[] = [
  { label: '9:00 AM', hour: 9, minute: 0 },
  { label: '12:00 PM', hour: 12, minute: 0 },
  { label: '5:00 PM', hour: 17, minute: 0 },
  { label: '8:00 PM', hour: 20, minute: 0 },
  { label: '12:00 AM', hour: 0, minute: 0 },
  { label: '6:00 AM', hour: 6, minute: 0 },
  { label: '3:00 PM', hour: 15, minute: 0 },
  { label: '11:00 PM', hour: 23, minute: 0 },
];

export type DurationPreset = { label: string; add: (start: Date) => Date };

/** DURATION_PRESETS set the end relative to the start. */
export const DURATION_PRESETS: readonly DurationPreset[] = [
  { label: '8 hours', add: (d) => addHours(d, 8) },
  { label: '12 hours', add: (d) => addHours(d, 12) },
  { label: '1 day', add: (d) => addDays(d, 1) },
  { label: '2 days', add: (d) => addDays(d, 2) },
  { label: '1 week', add: (d) => addWeeks(d, 1) },
  { label: '2 weeks', add: (d) => addWeeks(d, 2) },
];

/** HOURS_12 are the custom hour choices, 1 to 12. */
export const HOURS_12 = Array.from({ length: 12 }, (_, i) => i + 1);
/** MINUTES are the custom minute choices, 0 to 55 in steps of 5. */
export const MINUTES = Array.from({ length: 60 / MINUTE_STEP }, (_, i) => i * MINUTE_STEP);

/** isPastDay tells whether a calendar day lies before today (the start picker disables those). */
export function isPastDay(day: Date, now: Date): boolean {
  return isBefore(startOfDay(day), startOfDay(now));
}

/** isBeforeStartDay tells whether a day lies before the start's day (the end picker disables those). */
export function isBeforeStartDay(day: Date, start: Date | null): boolean {
  if (!start) return true;
  return isBefore(startOfDay(day), startOfDay(start));
}

/**
 * pickStartDay returns the start and end after a start day is picked: the start at 12:00 on that
 * day, and the end kept, or 24 hours after the start when there was none.
 */
export function pickStartDay(day: Date, end: Date | null): { start: Date; end: Date } {
  const start = set(day, { hours: DEFAULT_START_HOUR, minutes: 0, seconds: 0, milliseconds: 0 });
  return { start, end: end ?? addHours(start, 24) };
}

/**
 * pickEndDay returns the end after an end day is picked: that day at the start's clock time, a day
 * later when that is not after the start.
 */
export function pickEndDay(day: Date, start: Date): Date {
  const end = set(day, {
    hours: start.getHours(),
    minutes: start.getMinutes(),
    seconds: 0,
    milliseconds: 0,
  });
  return end.getTime() > start.getTime() ? end : addDays(end, 1);
}

/** withClockTime returns the date on the same day at hour:minute (24-hour). */
export function withClockTime(date: Date, hour: number, minute: number): Date {
  return set(date, { hours: hour, minutes: minute, seconds: 0, milliseconds: 0 });
}

export type Meridiem = 'AM' | 'PM';

/** to12Hour returns a 24-hour clock hour as 1-12 with AM or PM. */
export function to12Hour(hour24: number): { hour: number; meridiem: Meridiem } {
  const meridiem: Meridiem = hour24 < 12 ? 'AM' : 'PM';
  const hour = hour24 % 12 === 0 ? 12 : hour24 % 12;
  return { hour, meridiem };
}

/** to24Hour returns the 24-hour clock hour of a 1-12 hour with AM or PM. */
export function to24Hour(hour12: number, meridiem: Meridiem): number {
  const base = hour12 % 12;
  return meridiem === 'PM' ? base + 12 : base;
}

/** roundToMinuteStep returns the minute rounded down to the picker's 5-minute step. */
export function roundToMinuteStep(minute: number): number {
  return Math.floor(minute / MINUTE_STEP) * MINUTE_STEP;
}
