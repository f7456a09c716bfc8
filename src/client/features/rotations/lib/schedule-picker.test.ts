import { TZDate } from '@date-fns/tz';
import { describe, expect, test } from 'vitest';
import {
  DURATION_PRESETS,
  dayIn,
  isBeforeStartDay,
  isPastDay,
  MINUTES,
  pickEndDay,
  pickStartDay,
  roundToMinuteStep,
  START_PRESETS,
  to12Hour,
  to24Hour,
  withClockTime,
} from './schedule-picker';

// Local-time dates: the pickers work in the browser's zone.
const at = (y: number, m: number, d: number, h = 0, min = 0) => new Date(y, m - 1, d, h, min);

describe('start day', () => {
  test('picking a start day sets 12:00 and, with no end, the end 24 hours later', () => {
    const { start, end } = pickStartDay(at(2026, 3, 10, 7, 45), null);
    expect(start).toEqual(at(2026, 3, 10, 12));
    expect(end.getTime() - start.getTime()).toBe(24 * 3_600_000);
  });

  test('an existing end is kept', () => {
    const existing = at(2026, 3, 20, 9);
    expect(pickStartDay(at(2026, 3, 10), existing).end).toBe(existing);
  });

  test.each([
    [at(2026, 3, 9, 23, 59), true],
    [at(2026, 3, 10, 0, 0), false],
    [at(2026, 3, 11), false],
  ])('%s is past: %s', (day, past) => {
    expect(isPastDay(day, at(2026, 3, 10, 15))).toBe(past);
  });
});

describe('end day', () => {
  const start = at(2026, 3, 10, 17, 30);
  test('takes the start clock time', () => {
    expect(pickEndDay(at(2026, 3, 12), start)).toEqual(at(2026, 3, 12, 17, 30));
  });
  test('moves a day later when not after the start', () => {
    expect(pickEndDay(at(2026, 3, 10), start)).toEqual(at(2026, 3, 11, 17, 30));
  });
  test.each([
    [at(2026, 3, 9), true],
    [at(2026, 3, 10), false],
    [at(2026, 3, 11), false],
  ])('%s is before the start day: %s', (day, before) => {
    expect(isBeforeStartDay(day, start)).toBe(before);
  });
  test('with no start every day is disabled', () => {
    expect(isBeforeStartDay(at(2030, 1, 1), null)).toBe(true);
  });
});

describe('times', () => {
  test('the presets are the specification list, in order', () => {
    expect(START_PRESETS.map((p) => p.label)).toEqual([
      '9:00 AM',
      '12:00 PM',
      '5:00 PM',
      '8:00 PM',
      '12:00 AM',
      '6:00 AM',
      '3:00 PM',
      '11:00 PM',
    ]);
    for (const p of START_PRESETS) {
      const { hour, meridiem } = to12Hour(p.hour);
      expect(p.label).toBe(`${hour}:00 ${meridiem}`);
    }
  });

  test.each([
    [0, 12, 'AM'],
    [9, 9, 'AM'],
    [12, 12, 'PM'],
    [17, 5, 'PM'],
    [23, 11, 'PM'],
  ] as const)('%i:00 is %i %s and back', (h24, h12, meridiem) => {
    expect(to12Hour(h24)).toEqual({ hour: h12, meridiem });
    expect(to24Hour(h12, meridiem)).toBe(h24);
  });

  test('minutes step by 5', () => {
    expect(MINUTES).toEqual([0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55]);
    expect(roundToMinuteStep(59)).toBe(55);
    expect(roundToMinuteStep(7)).toBe(5);
  });

  test('withClockTime keeps the day', () => {
    expect(withClockTime(at(2026, 3, 10, 12), 20, 15)).toEqual(at(2026, 3, 10, 20, 15));
  });

  test.each([
    ['8 hours', at(2026, 3, 10, 20)],
    ['12 hours', at(2026, 3, 11, 0)],
    ['1 day', at(2026, 3, 11, 12)],
    ['2 days', at(2026, 3, 12, 12)],
    ['1 week', at(2026, 3, 17, 12)],
    ['2 weeks', at(2026, 3, 24, 12)],
  ])('duration %s', (label, end) => {
    const preset = DURATION_PRESETS.find((p) => p.label === label);
    expect(preset?.add(at(2026, 3, 10, 12))).toEqual(end);
  });
});

describe("in the signed-in user's zone, whatever the browser's", () => {
  // A TZDate writes its own offset in toISOString; the instant is what matters.
  const iso = (d: Date) => new Date(d.getTime()).toISOString();
  const berlin = 'Europe/Berlin';
  test('a picked day starts at 12:00 in that zone', () => {
    const { start, end } = pickStartDay(dayIn(new Date(2026, 10, 24), berlin), null);
    expect(iso(start)).toBe('2026-11-24T11:00:00.000Z');
    expect(iso(end)).toBe('2026-11-25T11:00:00.000Z');
    expect(to12Hour(start.getHours())).toEqual({ hour: 12, meridiem: 'PM' });
  });

  test('clock times, end days and presets keep the zone across its daylight saving change', () => {
    // Berlin moves from UTC+1 to UTC+2 on 29 March 2026.
    const start = withClockTime(dayIn(new Date(2026, 2, 28), berlin), 9, 0);
    expect(iso(start)).toBe('2026-03-28T08:00:00.000Z');
    expect(iso(pickEndDay(dayIn(new Date(2026, 2, 30), berlin), start))).toBe(
      '2026-03-30T07:00:00.000Z',
    );
    const oneDay = DURATION_PRESETS.find((p) => p.label === '1 day')!;
    expect(iso(oneDay.add(start))).toBe('2026-03-29T07:00:00.000Z');
  });

  test("past days are past in that zone's today", () => {
    // 23:30 UTC on 24 November is already 25 November in Berlin.
    const now = new TZDate(Date.UTC(2026, 10, 24, 23, 30), berlin);
    expect(isPastDay(dayIn(new Date(2026, 10, 24), berlin), now)).toBe(true);
    expect(isPastDay(dayIn(new Date(2026, 10, 25), berlin), now)).toBe(false);
  });
});
