import { describe, expect, test } from 'vitest';
import {
  isLocalDate,
  parseRecurrenceRule,
  type Recurrence,
  readRecurrenceRule,
  recurrenceInWords,
  recurrenceRefusal,
  recurrenceRule,
  shortestRepeatMinutes,
} from './recurrence';

// The RRULE subset (decision 250) at its edges, each refusal with its field and message (issue 36,
// mutation testing); the round trips and the expansion are in occurrences.test.ts.

const daily = (more: Partial<Recurrence> = {}): Recurrence => ({
  frequency: 'daily',
  interval: 1,
  ...more,
});
const weekly = (weekdays: number[] | undefined, more: Partial<Recurrence> = {}): Recurrence => ({
  frequency: 'weekly',
  interval: 1,
  weekdays,
  ...more,
});

describe('isLocalDate', () => {
  test('a real date written YYYY-MM-DD only', () => {
    expect(isLocalDate('2027-06-30')).toBe(true);
    expect(isLocalDate('2027-02-30')).toBe(false);
    expect(isLocalDate('x2027-06-30')).toBe(false);
    expect(isLocalDate('2027-06-30x')).toBe(false);
    expect(isLocalDate('30 Jun 2027')).toBe(false);
  });
});

describe('recurrenceRefusal: each refusal, its field and message', () => {
  const refusal = (r: Recurrence, maxCount?: number) => recurrenceRefusal(r, maxCount);
  test('frequency', () => {
    expect(refusal({ frequency: 'monthly' as never, interval: 1 })).toEqual({
      field: 'recurrence.frequency',
      message: 'Repeats must be daily or weekly.',
    });
  });
  test('interval: a whole number from 1 to 52', () => {
    const message = 'Repeat every must be a whole number from 1 to 52.';
    for (const interval of [0, 53, 1.5]) {
      expect(refusal(daily({ interval }))).toEqual({ field: 'recurrence.interval', message });
    }
    expect(refusal(daily({ interval: 52 }))).toBeNull();
    expect(refusal(daily({ interval: 1 }))).toBeNull();
  });
  test('weekdays: weekly only, at least one, distinct, 0 to 6', () => {
    expect(refusal(daily({ weekdays: [1] }))).toEqual({
      field: 'recurrence.weekdays',
      message: 'Weekdays are chosen only for a weekly repeat.',
    });
    expect(refusal(weekly(undefined))).toEqual({
      field: 'recurrence.weekdays',
      message: 'Choose at least one weekday.',
    });
    expect(refusal(weekly([]))?.message).toBe('Choose at least one weekday.');
    const message = 'Weekdays must be distinct days from 0 (Sunday) to 6 (Saturday).';
    for (const days of [[-1], [7], [1, 7], [1.5], [2, 2]]) {
      expect(refusal(weekly(days))).toEqual({ field: 'recurrence.weekdays', message });
    }
    expect(refusal(weekly([0]))).toBeNull();
    expect(refusal(weekly([6]))).toBeNull();
    expect(refusal(weekly([0, 1, 2, 3, 4, 5, 6]))).toBeNull();
  });
  test('until: a real date, and not with a count', () => {
    expect(refusal(daily({ until: '2027-06-30', count: 3 }))).toEqual({
      field: 'recurrence.until',
      message: 'A repeat ends on a date or after a number of times, not both.',
    });
    expect(refusal(daily({ until: '2027-06-31' }))).toEqual({
      field: 'recurrence.until',
      message: 'Until must be a date (YYYY-MM-DD).',
    });
    expect(refusal(daily({ until: '2027-06-30' }))).toBeNull();
  });
  test('count: a whole number from 1, to the bound when there is one', () => {
    expect(refusal(daily({ count: 0 }))).toEqual({
      field: 'recurrence.count',
      message: 'Times must be a whole number of at least 1.',
    });
    expect(refusal(daily({ count: 2.5 }))?.field).toBe('recurrence.count');
    expect(refusal(daily({ count: 1 }))).toBeNull();
    expect(refusal(daily({ count: 1000 }), 1000)).toBeNull();
    expect(refusal(daily({ count: 1001 }), 1000)).toEqual({
      field: 'recurrence.count',
      message: 'Times must be a whole number from 1 to 1000.',
    });
  });
});

describe('recurrenceRule', () => {
  test('daily: frequency and interval alone', () => {
    expect(recurrenceRule(daily({ interval: 3 }))).toBe('FREQ=DAILY;INTERVAL=3');
  });
  test('weekly: the days Monday first, then until or count', () => {
    expect(recurrenceRule(weekly([0, 5, 1], { until: '2027-06-30' }))).toBe(
      'FREQ=WEEKLY;INTERVAL=1;BYDAY=MO,FR,SU;UNTIL=20270630',
    );
    expect(recurrenceRule(weekly([3], { interval: 2, count: 10 }))).toBe(
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;COUNT=10',
    );
  });
});

describe('parseRecurrenceRule', () => {
  const refused = (text: string) => {
    const read = parseRecurrenceRule(text);
    return 'refusal' in read ? read.refusal : null;
  };
  test('with or without RRULE:, in any case', () => {
    expect(parseRecurrenceRule('RRULE:FREQ=DAILY')).toEqual({ recurrence: daily() });
    expect(parseRecurrenceRule('rrule:freq=weekly;byday=mo,we;until=20270630')).toEqual({
      recurrence: weekly([1, 3], { until: '2027-06-30' }),
    });
  });
  test('parts that are not NAME=VALUE', () => {
    for (const [text, part] of [
      ['FREQ', 'FREQ'],
      ['=DAILY', '=DAILY'],
      ['FREQ=DAILY=2', 'FREQ=DAILY=2'],
      ['FREQ=DAILY;', ''],
    ]) {
      expect(refused(text)).toEqual({
        field: 'recurrence.rule',
        message: `"${part}" is not a NAME=VALUE part.`,
      });
    }
  });
  test('names outside the subset, given twice, or RRULE: not at the start', () => {
    expect(refused('FREQ=DAILY;BYMONTH=3')).toEqual({
      field: 'recurrence.rule',
      message: 'BYMONTH is not supported: only FREQ, INTERVAL, BYDAY, UNTIL, COUNT.',
    });
    expect(refused('XRRULE:FREQ=DAILY')?.message).toBe(
      'XRRULE:FREQ is not supported: only FREQ, INTERVAL, BYDAY, UNTIL, COUNT.',
    );
    expect(refused('FREQ=DAILY;FREQ=WEEKLY')).toEqual({
      field: 'recurrence.rule',
      message: 'FREQ is given twice.',
    });
  });
  test('FREQ, BYDAY and UNTIL refused with their own words', () => {
    expect(refused('FREQ=MONTHLY')).toEqual({
      field: 'recurrence.frequency',
      message: 'FREQ must be DAILY or WEEKLY.',
    });
    expect(refused('FREQ=WEEKLY;BYDAY=MO,XX')).toEqual({
      field: 'recurrence.weekdays',
      message: 'BYDAY lists two-letter days (MO … SU).',
    });
    for (const until of ['2027063', '120270630', '202706301', '2027-06-30']) {
      expect(refused(`FREQ=DAILY;UNTIL=${until}`)).toEqual({
        field: 'recurrence.until',
        message: 'UNTIL must be a date (YYYYMMDD).',
      });
    }
  });
});

describe('readRecurrenceRule', () => {
  test('reads what Baton wrote, throws on anything else', () => {
    expect(readRecurrenceRule('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;COUNT=4')).toEqual(
      weekly([1], { interval: 2, count: 4 }),
    );
    expect(() => readRecurrenceRule('FREQ=MONTHLY')).toThrow(
      'Stored recurrence FREQ=MONTHLY: FREQ must be DAILY or WEEKLY.',
    );
  });
});

describe('shortestRepeatMinutes', () => {
  const DAY = 1440;
  test('daily: the interval in days', () => {
    expect(shortestRepeatMinutes(daily({ interval: 2 }))).toBe(2 * DAY);
  });
  test('weekly: the least step between the days, the week’s wrap included', () => {
    expect(shortestRepeatMinutes(weekly([3, 5]))).toBe(2 * DAY);
    expect(shortestRepeatMinutes(weekly([1, 4]))).toBe(3 * DAY);
    expect(shortestRepeatMinutes(weekly([1, 0]))).toBe(1 * DAY);
    expect(shortestRepeatMinutes(weekly([4, 5, 1]))).toBe(1 * DAY);
    expect(shortestRepeatMinutes(weekly([3], { interval: 2 }))).toBe(14 * DAY);
  });
});

describe('recurrenceInWords', () => {
  test('daily and weekly, every one or every N', () => {
    expect(recurrenceInWords(daily(), 9 * 60, 60)).toBe('Daily 09:00–10:00');
    expect(recurrenceInWords(weekly(undefined), 9 * 60, 60)).toBe('Weekly 09:00–10:00');
    expect(recurrenceInWords(weekly([]), 9 * 60, 60)).toBe('Weekly 09:00–10:00');
    expect(recurrenceInWords(weekly([0, 2], { interval: 3 }), 9 * 60, 60)).toBe(
      'Every 3 weeks on Tue, Sun 09:00–10:00',
    );
  });
  test('a day or more: its length in days, hours and minutes', () => {
    expect(recurrenceInWords(daily({ interval: 2 }), 8 * 60, 1440)).toBe(
      'Every 2 days 08:00 for 1 day',
    );
    expect(recurrenceInWords(daily({ interval: 3 }), 8 * 60, 1440 + 60)).toBe(
      'Every 3 days 08:00 for 1 day 1 hour',
    );
    expect(recurrenceInWords(weekly([1]), 8 * 60, 2 * 1440 + 2 * 60 + 5)).toBe(
      'Weekly on Mon 08:00 for 2 days 2 hours 5 min',
    );
    expect(recurrenceInWords(weekly([1]), 8 * 60, 1440 + 30)).toBe(
      'Weekly on Mon 08:00 for 1 day 30 min',
    );
  });
  test('until a date, once, or a number of times', () => {
    expect(recurrenceInWords(daily({ until: '2027-06-30' }), 0, 60)).toBe(
      'Daily 00:00–01:00, until 30 Jun 2027',
    );
    expect(recurrenceInWords(daily({ count: 1 }), 0, 60)).toBe('Daily 00:00–01:00, once');
    expect(recurrenceInWords(daily({ count: 3 }), 0, 60)).toBe('Daily 00:00–01:00, 3 times');
  });
});
