import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

/** cn merges class names, letting later Tailwind classes win over earlier ones. */
export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}

/** initials returns the upper-case first letters of the first two words of a name. */
export function initials(name: string | null | undefined): string {
  return (name ?? '')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('');
}

export type DateInput = Date | string | number | null | undefined;

export const MISSING_DATE_TEXT = 'unknown date';
export const INVALID_DATE_TEXT = 'Invalid date';

type FormatOptions = {
  /** IANA time zone to show the date in; the browser's own zone when omitted. */
  timeZone?: string;
};

function formatWith(value: DateInput, format: Intl.DateTimeFormatOptions, options: FormatOptions) {
  if (value === null || value === undefined || value === '') return MISSING_DATE_TEXT;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return INVALID_DATE_TEXT;
  return new Intl.DateTimeFormat('en-US', { ...format, timeZone: options.timeZone }).format(date);
}

/** formatDate returns a date in US English long format ('January 5, 2025'). */
export function formatDate(value: DateInput, options: FormatOptions = {}): string {
  return formatWith(value, { dateStyle: 'long' }, options);
}

/** formatDateTime returns a date and time in US English long format ('January 5, 2025 at 3:04 PM'). */
export function formatDateTime(value: DateInput, options: FormatOptions = {}): string {
  return formatWith(value, { dateStyle: 'long', timeStyle: 'short' }, options);
}

/** formatShortDate returns month abbreviation, two-digit day and year ('Jan 05, 2025'). */
export function formatShortDate(value: DateInput, options: FormatOptions = {}): string {
  return formatWith(value, { month: 'short', day: '2-digit', year: 'numeric' }, options);
}
