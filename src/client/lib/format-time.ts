import { TZDate } from '@date-fns/tz';
import { isTimeZone } from '@shared/domain/time-zones';
import { format, formatDistanceStrict } from 'date-fns';

/*
 * The one place the client turns an instant into text (decision 180). Every function takes the
 * time zone to show it in; screens get the signed-in user's zone from useTimeFormat
 * (use-time-format.ts), so a handoff reads the same on every screen whatever zone the browser
 * runs in. Dates are US English; a missing value reads 'unknown date' and a bad one 'Invalid date'
 * (specification sections 8 and 9).
 */

export type DateInput = Date | string | number | null | undefined;

export const MISSING_DATE_TEXT = 'unknown date';
export const INVALID_DATE_TEXT = 'Invalid date';

/** The zone a viewer's times are shown in, and whether their saved zone had to be replaced. */
export type ViewerZone = {
  /** the IANA zone every time is shown in */
  timeZone: string;
  /** the zone saved in the profile, when it is one this browser cannot format (else null) */
  unsupported: string | null;
};

/** browserTimeZone returns the zone the browser runs in, or 'UTC' when it does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/**
 * viewerZone returns the zone to show a signed-in user's times in: their profile's zone, or UTC
 * (with the saved zone named) when this browser's Intl cannot format it. Nobody signed in (an
 * acknowledgement link opened from an email) reads the browser's zone.
 */
export function viewerZone(saved: string | null | undefined, signedIn = true): ViewerZone {
  if (!signedIn) return { timeZone: browserTimeZone(), unsupported: null };
  if (!saved) return { timeZone: 'UTC', unsupported: null };
  return isTimeZone(saved)
    ? { timeZone: saved, unsupported: null }
    : { timeZone: 'UTC', unsupported: saved };
}

/** timesInText returns the line that names the zone of a page's times: 'Times in Europe/Berlin'. */
export function timesInText(zone: ViewerZone): string {
  return zone.unsupported
    ? `Times in UTC: this browser cannot show your time zone (${zone.unsupported})`
    : `Times in ${zone.timeZone}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** formatter returns a cached en-US DateTimeFormat: making one per date is costly in long lists. */
function formatter(style: string, options: Intl.DateTimeFormatOptions, timeZone: string) {
  const key = `${style}|${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
    if (formatters.size < 500) formatters.set(key, found);
  }
  return found;
}

const STYLES = {
  date: { dateStyle: 'long' },
  dateTime: { dateStyle: 'long', timeStyle: 'short' },
  shortDate: { month: 'short', day: '2-digit', year: 'numeric' },
  time: { hour: 'numeric', minute: '2-digit' },
  weekdayDateTime: {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  },
  weekday: { weekday: 'short' },
  dayOfMonth: { day: 'numeric' },
  toSecond: {
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

function formatAs(style: keyof typeof STYLES, value: DateInput, timeZone: string): string {
  if (value === null || value === undefined || value === '') return MISSING_DATE_TEXT;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return INVALID_DATE_TEXT;
  // A zone this browser cannot format never reaches Intl: it reads as UTC (viewerZone says so).
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  return formatter(style, STYLES[style], zone).format(date);
}

/** formatDate returns a date in US English long format ('January 5, 2025') in `timeZone`. */
export function formatDate(value: DateInput, timeZone: string): string {
  return formatAs('date', value, timeZone);
}

/** formatDateTime returns a date and time in US English long format ('January 5, 2025 at 3:04 PM'). */
export function formatDateTime(value: DateInput, timeZone: string): string {
  return formatAs('dateTime', value, timeZone);
}

/** formatShortDate returns month abbreviation, two-digit day and year ('Jan 05, 2025'). */
export function formatShortDate(value: DateInput, timeZone: string): string {
  return formatAs('shortDate', value, timeZone);
}

/** formatTime returns the clock time alone ('9:00 AM'), for a day already shown. */
export function formatTime(value: DateInput, timeZone: string): string {
  return formatAs('time', value, timeZone);
}

/** formatWeekdayDateTime returns a brief instant with its weekday ('Mon, Mar 1, 7:00 AM'). */
export function formatWeekdayDateTime(value: DateInput, timeZone: string): string {
  return formatAs('weekdayDateTime', value, timeZone);
}

/** formatWeekdayDay returns a day as its weekday and date ('Mon 1'), for a timeline's day ticks. */
export function formatWeekdayDay(value: DateInput, timeZone: string): string {
  const weekday = formatAs('weekday', value, timeZone);
  if (weekday === MISSING_DATE_TEXT || weekday === INVALID_DATE_TEXT) return weekday;
  // en-US writes { weekday, day } as '1 Mon': the two parts are put in order here.
  return `${weekday} ${formatAs('dayOfMonth', value, timeZone)}`;
}

/** formatToSecond returns a brief instant to the second ('Nov 22, 3:20:05 AM'), for logs. */
export function formatToSecond(value: DateInput, timeZone: string): string {
  return formatAs('toSecond', value, timeZone);
}

/** formatMonth returns a calendar month as 'November 2026' (a month has no zone). */
export function formatMonth(m: { year: number; month: number }): string {
  return formatter('month', { month: 'long', year: 'numeric' }, 'UTC').format(
    new Date(Date.UTC(m.year, m.month - 1, 1)),
  );
}

/** formatDay returns a calendar day as 'Monday, November 2' (a day has no zone). */
export function formatDay(day: { year: number; month: number; day: number }): string {
  return formatter('day', { weekday: 'long', month: 'long', day: 'numeric' }, 'UTC').format(
    new Date(Date.UTC(day.year, day.month - 1, day.day)),
  );
}

/**
 * fromLocalInput returns the instant a datetime-local value names in `timeZone`, or null when it
 * is not one. The input itself has no zone: the browser would read it in its own.
 */
export function fromLocalInput(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const at = new TZDate(year, month - 1, day, hour, minute, timeZone);
  return Number.isNaN(at.getTime()) ? null : new Date(at.getTime());
}

/** toLocalInput returns an instant as a datetime-local input value in `timeZone` (minutes). */
export const toLocalInput = (date: Date, timeZone: string) =>
  format(new TZDate(date.getTime(), timeZone), "yyyy-MM-dd'T'HH:mm");

/** formatDuration returns how long from `start` to `end` lasts, in its largest unit ('3 days'). */
export function formatDuration(start: Date, end: Date): string {
  return formatDistanceStrict(end, start);
}

/**
 * dayPickerKey names a day of the date picker as 'M/D/YYYY' (its data-day). The picker's days are
 * local midnights of the calendar days it shows, so the browser's zone is the right one here.
 */
export function dayPickerKey(day: Date): string {
  return day.toLocaleDateString('en-US');
}
