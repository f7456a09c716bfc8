/**
 * Repeating schedule entries (decision 250): the RFC 5545 RRULE subset Baton stores, read and
 * written, checked field by field, and said in words. No clock and no library here: the
 * occurrences themselves are expanded in occurrences.ts.
 */

/** How often a series repeats. */
export type RecurrenceFrequency = 'daily' | 'weekly';

/** A series' rule: every `interval` days or weeks (on `weekdays`), until a local date or `count` times. */
export interface Recurrence {
  frequency: RecurrenceFrequency;
  /** every N days or weeks, 1 … MAX_INTERVAL */
  interval: number;
  /** weekly only: the local weekdays, 0 = Sunday … 6 = Saturday, each once, in order */
  weekdays?: number[];
  /** the last local date ('YYYY-MM-DD') an occurrence may start on */
  until?: string;
  /** how many occurrences the series has (taken-out ones included) */
  count?: number;
}

/** A refusal naming the field it is about. */
export interface RecurrenceRefusal {
  field: string;
  message: string;
}

export const MAX_INTERVAL = 52;
/** The most occurrences a new series may be given by count. */
export const MAX_COUNT = 1000;

const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'] as const;
const SHORT_DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** isLocalDate tells whether `value` is a real calendar date written 'YYYY-MM-DD'. */
export function isLocalDate(value: string): boolean {
  const m = DATE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}

/** weekOrder sorts weekdays Monday first (the week the words and BYDAY are written in). */
const weekOrder = (days: readonly number[]) =>
  [...days].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));

/**
 * recurrenceRefusal returns why a rule is not one Baton repeats by, or null. `maxCount` bounds a
 * count given by a person (a stored series cut short may count more).
 */
export function recurrenceRefusal(
  r: Recurrence,
  maxCount: number = Number.POSITIVE_INFINITY,
): RecurrenceRefusal | null {
  const refuse = (field: string, message: string) => ({ field: `recurrence.${field}`, message });
  if (r.frequency !== 'daily' && r.frequency !== 'weekly') {
    return refuse('frequency', 'Repeats must be daily or weekly.');
  }
  if (!Number.isInteger(r.interval) || r.interval < 1 || r.interval > MAX_INTERVAL) {
    return refuse('interval', `Repeat every must be a whole number from 1 to ${MAX_INTERVAL}.`);
  }
  if (r.frequency === 'daily' && r.weekdays !== undefined) {
    return refuse('weekdays', 'Weekdays are chosen only for a weekly repeat.');
  }
  if (r.frequency === 'weekly') {
    const days = r.weekdays ?? [];
    if (days.length === 0) return refuse('weekdays', 'Choose at least one weekday.');
    if (
      days.some((d) => !Number.isInteger(d) || d < 0 || d > 6) ||
      new Set(days).size < days.length
    ) {
      return refuse('weekdays', 'Weekdays must be distinct days from 0 (Sunday) to 6 (Saturday).');
    }
  }
  if (r.until !== undefined && r.count !== undefined) {
    return refuse('until', 'A repeat ends on a date or after a number of times, not both.');
  }
  if (r.until !== undefined && !isLocalDate(r.until)) {
    return refuse('until', 'Until must be a date (YYYY-MM-DD).');
  }
  if (r.count !== undefined && (!Number.isInteger(r.count) || r.count < 1 || r.count > maxCount)) {
    return refuse(
      'count',
      Number.isFinite(maxCount)
        ? `Times must be a whole number from 1 to ${maxCount}.`
        : 'Times must be a whole number of at least 1.',
    );
  }
  return null;
}

/** recurrenceRule writes a (valid) rule as its RRULE text, e.g. 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=10'. */
export function recurrenceRule(r: Recurrence): string {
  const parts = [`FREQ=${r.frequency.toUpperCase()}`, `INTERVAL=${r.interval}`];
  if (r.frequency === 'weekly' && r.weekdays) {
    parts.push(
      `BYDAY=${weekOrder(r.weekdays)
        .map((d) => BYDAY[d])
        .join(',')}`,
    );
  }
  if (r.until !== undefined) parts.push(`UNTIL=${r.until.replaceAll('-', '')}`);
  if (r.count !== undefined) parts.push(`COUNT=${r.count}`);
  return parts.join(';');
}

/**
 * parseRecurrenceRule reads RRULE text of the subset (FREQ=DAILY or WEEKLY, INTERVAL, BYDAY for
 * weekly, UNTIL as a date or COUNT), or says which part it refuses.
 */
export function parseRecurrenceRule(
  text: string,
): { recurrence: Recurrence } | { refusal: RecurrenceRefusal } {
  const refuse = (field: string, message: string) => ({
    refusal: { field: `recurrence.${field}`, message },
  });
  const parts = new Map<string, string>();
  for (const part of text.replace(/^RRULE:/i, '').split(';')) {
    const [key, value, ...rest] = part.split('=');
    if (!key || value === undefined || rest.length > 0) {
      return refuse('rule', `"${part}" is not a NAME=VALUE part.`);
    }
    const name = key.toUpperCase();
    if (!['FREQ', 'INTERVAL', 'BYDAY', 'UNTIL', 'COUNT'].includes(name)) {
      return refuse('rule', `${name} is not supported: only FREQ, INTERVAL, BYDAY, UNTIL, COUNT.`);
    }
    if (parts.has(name)) return refuse('rule', `${name} is given twice.`);
    parts.set(name, value.toUpperCase());
  }
  const freq = parts.get('FREQ');
  if (freq !== 'DAILY' && freq !== 'WEEKLY') {
    return refuse('frequency', 'FREQ must be DAILY or WEEKLY.');
  }
  const interval = parts.has('INTERVAL') ? Number(parts.get('INTERVAL')) : 1;
  const r: Recurrence = { frequency: freq === 'DAILY' ? 'daily' : 'weekly', interval };
  const byday = parts.get('BYDAY');
  if (byday !== undefined) {
    const days = byday.split(',').map((d) => BYDAY.indexOf(d as (typeof BYDAY)[number]));
    if (days.includes(-1)) return refuse('weekdays', 'BYDAY lists two-letter days (MO … SU).');
    r.weekdays = days;
  }
  const until = parts.get('UNTIL');
  if (until !== undefined) {
    if (!/^\d{8}$/.test(until)) return refuse('until', 'UNTIL must be a date (YYYYMMDD).');
    r.until = `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}`;
  }
  if (parts.has('COUNT')) r.count = Number(parts.get('COUNT'));
  const refusal = recurrenceRefusal(r);
  return refusal ? { refusal } : { recurrence: r };
}

/** readRecurrenceRule reads stored RRULE text; it throws on text Baton did not write. */
export function readRecurrenceRule(text: string): Recurrence {
  const read = parseRecurrenceRule(text);
  if ('refusal' in read) throw new Error(`Stored recurrence ${text}: ${read.refusal.message}`);
  return read.recurrence;
}

/**
 * shortestRepeatMinutes returns the least time, in local minutes, from one occurrence's start to
 * the next: an occurrence lasting longer would overlap the next one.
 */
export function shortestRepeatMinutes(r: Recurrence): number {
  const dayMinutes = 1440;
  if (r.frequency === 'daily') return r.interval * dayMinutes;
  const days = weekOrder(r.weekdays ?? []).map((d) => (d + 6) % 7);
  const steps = days.slice(1).map((d, i) => d - days[i]);
  steps.push(7 * r.interval - (days[days.length - 1] - days[0]));
  return Math.min(...steps) * dayMinutes;
}

const two = (n: number) => String(n).padStart(2, '0');
const clock = (minutes: number) => `${two(Math.floor(minutes / 60) % 24)}:${two(minutes % 60)}`;

/** localDateInWords writes 'YYYY-MM-DD' as '30 Jun 2027'. */
export function localDateInWords(date: string): string {
  const [y, m, d] = date.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

function spanInWords(startMinute: number, durationMinutes: number): string {
  if (durationMinutes < 1440) {
    return `${clock(startMinute)}–${clock(startMinute + durationMinutes)}`;
  }
  const days = Math.floor(durationMinutes / 1440);
  const hours = Math.floor((durationMinutes % 1440) / 60);
  const minutes = durationMinutes % 60;
  const parts = [`${days} ${days === 1 ? 'day' : 'days'}`];
  if (hours > 0) parts.push(`${hours} ${hours === 1 ? 'hour' : 'hours'}`);
  if (minutes > 0) parts.push(`${minutes} min`);
  return `${clock(startMinute)} for ${parts.join(' ')}`;
}

/**
 * recurrenceInWords says a series in words: 'Weekly on Mon, Wed, Fri 09:00–17:00, until 30 Jun
 * 2027'. `startMinute` is the local start (minutes after midnight), `durationMinutes` its length.
 */
export function recurrenceInWords(
  r: Recurrence,
  startMinute: number,
  durationMinutes: number,
): string {
  const unit = r.frequency === 'daily' ? 'day' : 'week';
  let words =
    r.interval === 1
      ? r.frequency === 'daily'
        ? 'Daily'
        : 'Weekly'
      : `Every ${r.interval} ${unit}s`;
  if (r.frequency === 'weekly' && r.weekdays && r.weekdays.length > 0) {
    words += ` on ${weekOrder(r.weekdays)
      .map((d) => SHORT_DAYS[d])
      .join(', ')}`;
  }
  words += ` ${spanInWords(startMinute, durationMinutes)}`;
  if (r.until !== undefined) words += `, until ${localDateInWords(r.until)}`;
  if (r.count !== undefined) words += r.count === 1 ? ', once' : `, ${r.count} times`;
  return words;
}
