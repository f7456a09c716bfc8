import type { Calendar } from '@shared/contracts/calendar';
import { describe, expect, test } from 'vitest';
import { formatMonth, formatTime } from '@/lib/format-time';
import {
  currentMonth,
  dayRotations,
  monthParam,
  neighbours,
  parseMonth,
  shiftLabel,
  shortName,
} from './calendar-view';

const calendar: Calendar = {
  from: '2026-11-01T05:00:00.000Z',
  to: '2026-12-06T06:00:00.000Z',
  people: [
    { id: 1, name: 'Olivia Ortiz', email: 'o@example.com' },
    { id: 2, name: 'Noah Nakamura', email: 'n@example.com' },
  ],
  rotations: [
    {
      id: 10,
      name: 'Platform Primary',
      type: 'fixed',
      cadence: 'weekly',
      pattern: 'Weekly shifts from Monday 09:00',
      memberIds: [1, 2],
      suspended: false,
      timeZone: 'America/New_York',
      shifts: [
        {
          userId: 1,
          start: '2026-11-02T14:00:00.000Z',
          end: '2026-11-09T14:00:00.000Z',
          source: 'history',
        },
        {
          userId: 2,
          start: '2026-11-09T14:00:00.000Z',
          end: '2026-11-10T00:00:00.000Z',
          source: 'rotation',
        },
        {
          userId: 1,
          start: '2026-11-10T00:00:00.000Z',
          end: '2026-11-11T00:00:00.000Z',
          source: 'coverage',
          coveredUserId: 2,
        },
      ],
      gaps: [],
    },
    {
      id: 11,
      name: 'Database On-Call',
      type: 'fixed',
      cadence: 'daily',
      pattern: 'Daily shifts at 09:00',
      memberIds: [],
      suspended: false,
      timeZone: 'UTC',
      shifts: [],
      gaps: [],
    },
  ],
  timeOff: [],
};

describe('dayRotations', () => {
  test('a handoff day lists the outgoing and the incoming holder with the times, in the viewer’s zone', () => {
    const [entry, ...rest] = dayRotations(
      calendar,
      { year: 2026, month: 11, day: 9 },
      'America/Chicago',
      {
        rotationId: null,
        viewerId: 1,
      },
    );
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({ rotationId: 10, index: 0 });
    expect(
      entry.people.map((p) => [
        p.name,
        p.startsAt?.toISOString() ?? null,
        p.endsAt?.toISOString() ?? null,
        p.mine,
      ]),
    ).toEqual([
      ['Olivia Ortiz', null, '2026-11-09T14:00:00.000Z', true],
      ['Noah Nakamura', '2026-11-09T14:00:00.000Z', '2026-11-10T00:00:00.000Z', false],
      // The coverage window starting at midnight UTC starts at 18:00 the same day in Chicago.
      ['Olivia Ortiz', '2026-11-10T00:00:00.000Z', null, true],
    ]);
    expect(formatTime(entry.people[1].startsAt as Date, 'America/Chicago')).toBe('8:00 AM');
  });

  test('a coverage window is marked; the filter keeps one rotation; an empty day has nothing', () => {
    const covered = dayRotations(calendar, { year: 2026, month: 11, day: 10 }, 'UTC', {
      rotationId: null,
      viewerId: 2,
    });
    expect(covered[0].people.map((p) => [p.name, p.coverage, p.coveredName])).toEqual([
      ['Olivia Ortiz', true, 'Noah Nakamura'],
    ]);
    // The menu reads the whole shift, beyond the day.
    expect(covered[0].people[0].shift).toEqual({
      start: new Date('2026-11-10T00:00:00.000Z'),
      end: new Date('2026-11-11T00:00:00.000Z'),
      source: 'coverage',
    });
    expect(
      dayRotations(calendar, { year: 2026, month: 11, day: 10 }, 'UTC', {
        rotationId: 11,
        viewerId: 2,
      }),
    ).toEqual([]);
    expect(
      dayRotations(calendar, { year: 2026, month: 11, day: 20 }, 'UTC', {
        rotationId: null,
        viewerId: 2,
      }),
    ).toEqual([]);
  });
});

test.each([
  ['2026-11', { year: 2026, month: 11 }],
  ['2026-1', null],
  ['2026-13', null],
  [null, null],
  ['garbage', null],
])('parseMonth(%s)', (value, expected) => {
  expect(parseMonth(value)).toEqual(expected);
});

test('months: the current one in a zone, its neighbours, its title and address', () => {
  // 03:00 UTC on 1 December is still 30 November in Chicago.
  const m = currentMonth(new Date('2026-12-01T03:00:00Z'), 'America/Chicago');
  expect(m).toEqual({ year: 2026, month: 11 });
  expect(neighbours({ year: 2026, month: 12 })).toEqual({
    prev: { year: 2026, month: 11 },
    next: { year: 2027, month: 1 },
  });
  expect(formatMonth(m)).toBe('November 2026');
  expect(monthParam({ year: 2027, month: 3 })).toBe('2027-03');
  expect(shortName('Noah Nakamura')).toBe('Noah N.');
  expect(shortName('Cher')).toBe('Cher');
});

describe('shiftLabel', () => {
  test.each([
    [{ name: 'Noah Nakamura', mine: false, coverage: false }, 'Noah Nakamura'],
    [{ name: 'Olivia Ortiz', mine: true, coverage: false }, 'Olivia Ortiz (you)'],
    [{ name: 'Noah Nakamura', mine: false, coverage: true }, 'Noah Nakamura (coverage)'],
    [{ name: 'Olivia Ortiz', mine: true, coverage: true }, 'Olivia Ortiz (you) (coverage)'],
  ])('%j reads %s', (shift, label) => {
    expect(shiftLabel(shift)).toBe(label);
  });
});
