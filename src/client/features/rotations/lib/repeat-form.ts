import type { RecurrenceInput } from '@shared/contracts/rotations';
import { isLocalDate, MAX_COUNT, MAX_INTERVAL, recurrenceInWords } from '@shared/domain/recurrence';
import { wallMinuteOf, wallTimeOf } from '@shared/domain/shifts';

/** What the add-schedule dialog's "Repeats" fields hold (decision 250). */
export interface RepeatValues {
  frequency: 'never' | 'daily' | 'weekly';
  interval: number;
  /** 0 = Sunday … 6 = Saturday, in the rotation's zone */
  weekdays: number[];
  ends: 'never' | 'until' | 'count';
  /** 'YYYY-MM-DD' */
  until: string;
  count: number;
}

export const NO_REPEAT: RepeatValues = {
  frequency: 'never',
  interval: 1,
  weekdays: [],
  ends: 'never',
  until: '',
  count: 10,
};

/** The weekdays as chosen on screen, Monday first. */
export const WEEKDAY_CHOICES = [
  { day: 1, label: 'Mon' },
  { day: 2, label: 'Tue' },
  { day: 3, label: 'Wed' },
  { day: 4, label: 'Thu' },
  { day: 5, label: 'Fri' },
  { day: 6, label: 'Sat' },
  { day: 0, label: 'Sun' },
] as const;

/** recurrenceOf turns the fields into the API's recurrence, or null for no repeat. */
export function recurrenceOf(v: RepeatValues): RecurrenceInput | null {
  if (v.frequency === 'never') return null;
  return {
    frequency: v.frequency,
    interval: v.interval,
    ...(v.frequency === 'weekly' ? { weekdays: v.weekdays } : {}),
    ...(v.ends === 'until' ? { until: v.until } : {}),
    ...(v.ends === 'count' ? { count: v.count } : {}),
  };
}

/** repeatProblem says what is wrong with the fields before they are sent, or null. */
export function repeatProblem(v: RepeatValues): string | null {
  if (v.frequency === 'never') return null;
  if (!Number.isInteger(v.interval) || v.interval < 1 || v.interval > MAX_INTERVAL) {
    return `Repeat every must be a whole number from 1 to ${MAX_INTERVAL}.`;
  }
  if (v.frequency === 'weekly' && v.weekdays.length === 0) return 'Choose at least one weekday.';
  if (v.ends === 'until' && !isLocalDate(v.until)) return 'Choose the last day it repeats.';
  if (v.ends === 'count' && (!Number.isInteger(v.count) || v.count < 1 || v.count > MAX_COUNT)) {
    return `Times must be a whole number from 1 to ${MAX_COUNT}.`;
  }
  return null;
}

/** repeatWords says the series the fields make, read in the rotation's zone, or null. */
export function repeatWords(
  v: RepeatValues,
  start: Date | null,
  end: Date | null,
  timeZone: string,
): string | null {
  const recurrence = recurrenceOf(v);
  if (!recurrence || !start || !end || end <= start || repeatProblem(v)) return null;
  const wallStart = wallMinuteOf(wallTimeOf(start, timeZone));
  const wallEnd = wallMinuteOf(wallTimeOf(end, timeZone));
  const startMinute = ((wallStart % 1440) + 1440) % 1440;
  return recurrenceInWords(
    { ...recurrence, interval: v.interval },
    startMinute,
    wallEnd - wallStart,
  );
}

/** weekdayIn returns an instant's weekday in a zone (0 = Sunday). */
export const weekdayIn = (at: Date, timeZone: string) => wallTimeOf(at, timeZone).weekday;
