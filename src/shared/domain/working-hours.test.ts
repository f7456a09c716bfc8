import { describe, expect, test } from 'vitest';
import {
  isWithinWorkingHours,
  lowUrgencyHeldUntil,
  nextWorkingStart,
  type WorkingHours,
  workingHoursWords,
} from './working-hours';

const weekdays: WorkingHours = {
  days: [1, 2, 3, 4, 5],
  start: '09:00',
  end: '17:00',
  holdLowUrgency: true,
};

describe('nextWorkingStart', () => {
  test.each([
    [
      'Friday evening in London: Monday 09:00',
      'Europe/London',
      '2026-11-27T18:00:00Z',
      '2026-11-30T09:00:00.000Z',
    ],
    [
      'Monday 08:59 in London: 09:00 the same day',
      'Europe/London',
      '2026-11-30T08:59:00Z',
      '2026-11-30T09:00:00.000Z',
    ],
    [
      'within the hours: the next day’s start',
      'Europe/London',
      '2026-11-30T10:00:00Z',
      '2026-12-01T09:00:00.000Z',
    ],
    // Across the spring change (29 March 2026): Saturday 09:00 GMT, Monday 09:00 BST = 08:00Z.
    [
      'across the spring change in London',
      'Europe/London',
      '2026-03-28T12:00:00Z',
      '2026-03-30T08:00:00.000Z',
    ],
    // Across the autumn change in New York (1 November 2026): Monday 09:00 EST = 14:00Z.
    [
      'across the autumn change in New York',
      'America/New_York',
      '2026-10-31T16:00:00Z',
      '2026-11-02T14:00:00.000Z',
    ],
    ['Tokyo, no daylight saving', 'Asia/Tokyo', '2026-11-27T10:00:00Z', '2026-11-30T00:00:00.000Z'],
  ])('%s', (_name, zone, now, expected) => {
    expect(nextWorkingStart(weekdays, zone, new Date(now))?.toISOString()).toBe(expected);
  });

  test('a start skipped by the spring change moves to the first instant after the gap', () => {
    const early: WorkingHours = { days: [0], start: '01:30', end: '05:00', holdLowUrgency: true };
    // Sunday 29 March 2026, London: 01:00 GMT jumps to 02:00 BST; 01:30 does not exist.
    expect(nextWorkingStart(early, 'Europe/London', new Date('2026-03-28T12:00:00Z'))).toEqual(
      new Date('2026-03-29T01:00:00Z'),
    );
  });

  test('no working days: null', () => {
    expect(nextWorkingStart({ ...weekdays, days: [] }, 'UTC', new Date())).toBeNull();
  });
});

describe('lowUrgencyHeldUntil', () => {
  const friday = new Date('2026-11-27T20:00:00Z');
  test.each([
    ['low urgency outside the hours waits', weekdays, 'low', friday, '2026-11-30T09:00:00.000Z'],
    ['high urgency never waits', weekdays, 'high', friday, null],
    ['medium urgency never waits', weekdays, 'medium', friday, null],
    ['not held: goes now', { ...weekdays, holdLowUrgency: false }, 'low', friday, null],
    ['within the hours: goes now', weekdays, 'low', new Date('2026-11-27T10:00:00Z'), null],
    ['no working hours: goes now', null, 'low', friday, null],
  ] as const)('%s', (_name, hours, urgency, now, expected) => {
    expect(lowUrgencyHeldUntil(hours, 'Europe/London', urgency, now)?.toISOString() ?? null).toBe(
      expected,
    );
  });
});

describe('isWithinWorkingHours and words', () => {
  test('an end before the start runs into the next day', () => {
    const nights: WorkingHours = { days: [1], start: '22:00', end: '06:00', holdLowUrgency: true };
    expect(isWithinWorkingHours(nights, 'UTC', new Date('2026-12-01T05:59:00Z'))).toBe(true);
    expect(isWithinWorkingHours(nights, 'UTC', new Date('2026-12-01T06:00:00Z'))).toBe(false);
  });
  test.each([
    [[1, 2, 3, 4, 5], 'Monday to Friday, 09:00–17:00'],
    [[0, 1, 2, 3, 4, 5, 6], 'Every day, 09:00–17:00'],
    [[1, 3, 6], 'Mon, Wed, Sat, 09:00–17:00'],
  ])('%j reads %s', (days, words) => {
    expect(workingHoursWords({ days, start: '09:00', end: '17:00' })).toBe(words);
  });
});
