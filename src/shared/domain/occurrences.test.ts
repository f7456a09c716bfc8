import { describe, expect, test } from 'vitest';
import {
  firstOccurrenceAfter,
  generatedBefore,
  isOccurrenceOf,
  nextEntryChangeAfter,
  occurrencesOf,
  type SeriesEntry,
  seriesEndOf,
  seriesInWords,
} from './occurrences';
import {
  parseRecurrenceRule,
  type Recurrence,
  recurrenceInWords,
  recurrenceRefusal,
  recurrenceRule,
  shortestRepeatMinutes,
} from './recurrence';

const series = (
  start: string,
  end: string,
  recurrence: Recurrence | null,
  takenOut: string[] = [],
): SeriesEntry => ({ userId: 7, start: new Date(start), end: new Date(end), recurrence, takenOut });
const iso = (windows: { start: Date; end: Date }[]) =>
  windows.map((w) => `${w.start.toISOString()}/${w.end.toISOString()}`);

describe('the RRULE subset', () => {
  test('a rule is written and read back', () => {
    const r: Recurrence = {
      frequency: 'weekly',
      interval: 2,
      weekdays: [5, 1, 3],
      until: '2027-06-30',
    };
    const text = recurrenceRule(r);
    expect(text).toBe('FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR;UNTIL=20270630');
    expect(parseRecurrenceRule(text)).toEqual({ recurrence: { ...r, weekdays: [1, 3, 5] } });
    expect(parseRecurrenceRule('FREQ=DAILY;COUNT=3')).toEqual({
      recurrence: { frequency: 'daily', interval: 1, count: 3 },
    });
  });

  test('each refusal names its field', () => {
    const field = (text: string) => {
      const read = parseRecurrenceRule(text);
      return 'refusal' in read ? read.refusal.field : null;
    };
    expect(field('FREQ=MONTHLY')).toBe('recurrence.frequency');
    expect(field('FREQ=DAILY;BYMONTH=3')).toBe('recurrence.rule');
    expect(field('FREQ=DAILY;INTERVAL=0')).toBe('recurrence.interval');
    expect(field('FREQ=WEEKLY;BYDAY=XX')).toBe('recurrence.weekdays');
    expect(field('FREQ=WEEKLY')).toBe('recurrence.weekdays');
    expect(field('FREQ=DAILY;BYDAY=MO')).toBe('recurrence.weekdays');
    expect(field('FREQ=DAILY;UNTIL=20270230')).toBe('recurrence.until');
    expect(field('FREQ=DAILY;UNTIL=20270228;COUNT=2')).toBe('recurrence.until');
    expect(field('FREQ=DAILY;COUNT=0')).toBe('recurrence.count');
    expect(recurrenceRefusal({ frequency: 'daily', interval: 1, count: 1001 }, 1000)).toEqual({
      field: 'recurrence.count',
      message: 'Times must be a whole number from 1 to 1000.',
    });
    expect(recurrenceRefusal({ frequency: 'weekly', interval: 1, weekdays: [1, 1] })?.field).toBe(
      'recurrence.weekdays',
    );
  });

  test('the shortest repeat: the least local time from one start to the next', () => {
    expect(shortestRepeatMinutes({ frequency: 'daily', interval: 2 })).toBe(2 * 1440);
    expect(shortestRepeatMinutes({ frequency: 'weekly', interval: 1, weekdays: [1, 2] })).toBe(
      1440,
    );
    expect(shortestRepeatMinutes({ frequency: 'weekly', interval: 2, weekdays: [1] })).toBe(
      14 * 1440,
    );
    expect(shortestRepeatMinutes({ frequency: 'weekly', interval: 1, weekdays: [0, 1] })).toBe(
      1440,
    );
  });

  test('a series in words', () => {
    const r: Recurrence = {
      frequency: 'weekly',
      interval: 1,
      weekdays: [1, 3, 5],
      until: '2027-06-30',
    };
    expect(recurrenceInWords(r, 9 * 60, 8 * 60)).toBe(
      'Weekly on Mon, Wed, Fri 09:00–17:00, until 30 Jun 2027',
    );
    expect(recurrenceInWords({ frequency: 'daily', interval: 2, count: 5 }, 22 * 60, 8 * 60)).toBe(
      'Every 2 days 22:00–06:00, 5 times',
    );
    expect(
      recurrenceInWords({ frequency: 'weekly', interval: 2, weekdays: [0] }, 9 * 60, 36 * 60 + 30),
    ).toBe('Every 2 weeks on Sun 09:00 for 1 day 12 hours 30 min');
  });
});

describe('expanding a series', () => {
  const weekly: Recurrence = { frequency: 'weekly', interval: 1, weekdays: [1] };

  test('weekly 09:00–17:00 in New York stays 09:00–17:00 local across the spring change', () => {
    // Monday 2 Mar 2026 09:00 EST; clocks go forward on Sunday 8 Mar.
    const e = series('2026-03-02T14:00:00Z', '2026-03-02T22:00:00Z', weekly);
    const found = occurrencesOf(
      e,
      'America/New_York',
      new Date('2026-03-01T00:00:00Z'),
      new Date('2026-03-17T00:00:00Z'),
    );
    expect(iso(found)).toEqual([
      '2026-03-02T14:00:00.000Z/2026-03-02T22:00:00.000Z',
      '2026-03-09T13:00:00.000Z/2026-03-09T21:00:00.000Z',
      '2026-03-16T13:00:00.000Z/2026-03-16T21:00:00.000Z',
    ]);
    expect(seriesInWords(e, 'America/New_York')).toBe('Weekly on Mon 09:00–17:00');
  });

  test('daily 22:00–06:00 in Berlin keeps its local times over the autumn change', () => {
    // Clocks go back on Sunday 25 Oct 2026 at 03:00 CEST.
    const e = series('2026-10-24T20:00:00Z', '2026-10-25T05:00:00Z', {
      frequency: 'daily',
      interval: 1,
      count: 3,
    });
    const found = occurrencesOf(
      e,
      'Europe/Berlin',
      new Date('2026-10-01T00:00:00Z'),
      new Date('2026-11-01T00:00:00Z'),
    );
    expect(iso(found)).toEqual([
      '2026-10-24T20:00:00.000Z/2026-10-25T05:00:00.000Z',
      '2026-10-25T21:00:00.000Z/2026-10-26T05:00:00.000Z',
      '2026-10-26T21:00:00.000Z/2026-10-27T05:00:00.000Z',
    ]);
    expect(seriesEndOf(e, 'Europe/Berlin')).toEqual(new Date('2026-10-27T05:00:00Z'));
  });

  test('COUNT counts occurrences; UNTIL is the last local start date, inclusive', () => {
    const base = ['2026-06-01T09:00:00Z', '2026-06-01T10:00:00Z'] as const;
    const counted = series(...base, { frequency: 'daily', interval: 1, count: 4 });
    const until = series(...base, { frequency: 'daily', interval: 1, until: '2026-06-04' });
    const span = [new Date('2026-05-01T00:00:00Z'), new Date('2026-07-01T00:00:00Z')] as const;
    expect(occurrencesOf(counted, 'UTC', ...span)).toHaveLength(4);
    expect(occurrencesOf(until, 'UTC', ...span)).toHaveLength(4);
    expect(seriesEndOf(until, 'UTC')).toEqual(new Date('2026-06-04T10:00:00Z'));
    expect(seriesEndOf(series(...base, { frequency: 'daily', interval: 1 }), 'UTC')).toBeNull();
    expect(seriesEndOf(series(...base, null), 'UTC')).toEqual(new Date(base[1]));
  });

  test('every 2 weeks on Mon and Thu; a taken-out occurrence is skipped but still counted', () => {
    const r: Recurrence = { frequency: 'weekly', interval: 2, weekdays: [1, 4], count: 5 };
    const e = series('2026-06-01T08:00:00Z', '2026-06-01T12:00:00Z', r, [
      '2026-06-04T08:00:00.000Z',
    ]);
    const found = occurrencesOf(
      e,
      'UTC',
      new Date('2026-05-01T00:00:00Z'),
      new Date('2026-12-01T00:00:00Z'),
    );
    expect(found.map((w) => w.start.toISOString().slice(0, 10))).toEqual([
      '2026-06-01',
      '2026-06-15',
      '2026-06-18',
      '2026-06-29',
    ]);
    expect(isOccurrenceOf(e, 'UTC', new Date('2026-06-15T08:00:00Z'))).toBe(true);
    expect(isOccurrenceOf(e, 'UTC', new Date('2026-06-04T08:00:00Z'))).toBe(false);
    expect(isOccurrenceOf(e, 'UTC', new Date('2026-06-08T08:00:00Z'))).toBe(false);
    expect(generatedBefore(e, 'UTC', new Date('2026-06-16T00:00:00Z'), 'start')).toBe(3);
  });

  test('the window asked for is honoured at both ends; a single entry is its own occurrence', () => {
    const e = series('2026-06-01T09:00:00Z', '2026-06-01T17:00:00Z', {
      frequency: 'daily',
      interval: 1,
    });
    const found = occurrencesOf(
      e,
      'UTC',
      new Date('2026-06-03T16:00:00Z'),
      new Date('2026-06-05T09:00:00Z'),
    );
    expect(found.map((w) => w.start.toISOString().slice(0, 10))).toEqual([
      '2026-06-03',
      '2026-06-04',
    ]);
    const single = series('2026-06-01T09:00:00Z', '2026-06-01T17:00:00Z', null);
    expect(
      occurrencesOf(
        single,
        'UTC',
        new Date('2026-06-02T00:00:00Z'),
        new Date('2026-06-03T00:00:00Z'),
      ),
    ).toEqual([]);
    expect(
      iso(
        occurrencesOf(
          single,
          'UTC',
          new Date('2026-06-01T16:00:00Z'),
          new Date('2026-06-03T00:00:00Z'),
        ),
      ),
    ).toEqual(['2026-06-01T09:00:00.000Z/2026-06-01T17:00:00.000Z']);
  });

  test('the next change: an occurrence in progress ends; otherwise the next one starts', () => {
    const e = series('2026-06-01T09:00:00Z', '2026-06-01T17:00:00Z', weekly, [
      '2026-06-08T09:00:00.000Z',
    ]);
    expect(nextEntryChangeAfter([e], 'UTC', new Date('2026-06-01T12:00:00Z'))).toEqual(
      new Date('2026-06-01T17:00:00Z'),
    );
    expect(nextEntryChangeAfter([e], 'UTC', new Date('2026-06-01T17:00:00Z'))).toEqual(
      new Date('2026-06-15T09:00:00Z'),
    );
    expect(
      firstOccurrenceAfter(e, 'UTC', new Date('2026-06-02T00:00:00Z'), 'start')?.start,
    ).toEqual(new Date('2026-06-15T09:00:00Z'));
    const ended = series('2026-06-01T09:00:00Z', '2026-06-01T17:00:00Z', { ...weekly, count: 1 });
    expect(nextEntryChangeAfter([ended], 'UTC', new Date('2026-06-02T00:00:00Z'))).toBeNull();
  });
});
