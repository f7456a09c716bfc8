import { describe, expect, test } from 'vitest';
import {
  type CalendarShift,
  dayBounds,
  dayKeyOf,
  historyShifts,
  holderAt,
  mergeShifts,
  monthGrid,
  overlayCoverage,
  type RotationCalendarInput,
  rotationShifts,
  shiftMonth,
  shiftsBetween,
} from './calendar';
import { DEFAULT_HANDOFF_TIMINGS as t } from './handoff-flow';

const at = (iso: string) => new Date(iso);
const rows = (shifts: { userId: number; start: Date; end: Date; source?: string }[]) =>
  shifts.map((s) => [s.userId, s.start.toISOString(), s.end.toISOString(), s.source]);

describe('monthGrid', () => {
  test.each([
    // [year, month, weeks, first day, last day]
    [2026, 11, 5, '2026-11-01', '2026-12-05'],
    [2026, 2, 4, '2026-02-01', '2026-02-28'],
    [2026, 3, 5, '2026-03-01', '2026-04-04'],
    [2026, 8, 6, '2026-07-26', '2026-09-05'],
  ])('%i-%i: %i weeks from %s to %s, Sunday to Saturday', (year, month, weeks, first, last) => {
    const grid = monthGrid(year, month);
    expect(grid).toHaveLength(weeks);
    expect(grid[0][0].key).toBe(first);
    expect(grid.at(-1)?.at(-1)?.key).toBe(last);
    for (const week of grid) {
      expect(week.map((d) => d.weekday)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    }
    expect(grid.flat().filter((d) => d.inMonth)).toHaveLength(
      new Date(Date.UTC(year, month, 0)).getUTCDate(),
    );
  });

  test('months move across years', () => {
    expect(shiftMonth(2026, 12, 1)).toEqual({ year: 2027, month: 1 });
    expect(shiftMonth(2026, 1, -1)).toEqual({ year: 2025, month: 12 });
  });
});

describe('days in a time zone', () => {
  test('a day is midnight to midnight local; the change day is 23 or 25 hours long', () => {
    const spring = dayBounds({ year: 2026, month: 3, day: 8 }, 'America/New_York');
    expect(spring).toEqual({ start: at('2026-03-08T05:00:00Z'), end: at('2026-03-09T04:00:00Z') });
    const autumn = dayBounds({ year: 2026, month: 11, day: 1 }, 'America/New_York');
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(25);
    expect(dayKeyOf(at('2026-03-09T03:59:00Z'), 'America/New_York')).toBe('2026-03-08');
    expect(dayKeyOf(at('2026-03-08T13:30:00Z'), 'Australia/Sydney')).toBe('2026-03-09');
  });
});

describe('history and coverage', () => {
  test('history: who held the baton between recorded changes', () => {
    const shifts = historyShifts(
      [
        { at: at('2026-03-02T09:00:00Z'), toUserId: 2, kind: 'pass' },
        { at: at('2026-03-03T10:00:00Z'), toUserId: 3, kind: 'coverage' },
        { at: at('2026-03-03T18:00:00Z'), toUserId: null, kind: 'schedule' },
      ],
      { userId: 1, kind: 'take' },
      at('2026-03-01T00:00:00Z'),
      at('2026-03-04T00:00:00Z'),
    );
    expect(rows(shifts)).toEqual([
      [1, '2026-03-01T00:00:00.000Z', '2026-03-02T09:00:00.000Z', 'history'],
      [2, '2026-03-02T09:00:00.000Z', '2026-03-03T10:00:00.000Z', 'history'],
      [3, '2026-03-03T10:00:00.000Z', '2026-03-03T18:00:00.000Z', 'coverage'],
    ]);
  });

  test('a coverage window cuts the shifts under it', () => {
    const shifts = overlayCoverage(
      [
        {
          userId: 1,
          start: at('2026-03-01T00:00:00Z'),
          end: at('2026-03-08T00:00:00Z'),
          source: 'rotation',
        },
      ],
      [{ userId: 2, start: at('2026-03-03T00:00:00Z'), end: at('2026-03-04T00:00:00Z') }],
    );
    expect(rows(shifts)).toEqual([
      [1, '2026-03-01T00:00:00.000Z', '2026-03-03T00:00:00.000Z', 'rotation'],
      [2, '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z', 'coverage'],
      [1, '2026-03-04T00:00:00.000Z', '2026-03-08T00:00:00.000Z', 'rotation'],
    ]);
  });

  test('a window that names whose shift it covers says so on its shift (decision 218)', () => {
    const shifts = overlayCoverage(
      [
        {
          userId: 1,
          start: at('2026-03-01T00:00:00Z'),
          end: at('2026-03-08T00:00:00Z'),
          source: 'rotation',
        },
      ],
      [
        {
          userId: 2,
          requesterId: 1,
          start: at('2026-03-03T00:00:00Z'),
          end: at('2026-03-04T00:00:00Z'),
        },
      ],
    );
    expect(shifts.map((s) => s.coveredUserId)).toEqual([undefined, 1, undefined]);
  });

  test('back-to-back shifts of one person merge; a coverage stretch stays apart', () => {
    const merged = mergeShifts([
      {
        userId: 1,
        start: at('2026-03-01T00:00:00Z'),
        end: at('2026-03-02T00:00:00Z'),
        source: 'history',
      },
      {
        userId: 1,
        start: at('2026-03-02T00:00:00Z'),
        end: at('2026-03-03T00:00:00Z'),
        source: 'rotation',
      },
      {
        userId: 1,
        start: at('2026-03-03T00:00:00Z'),
        end: at('2026-03-04T00:00:00Z'),
        source: 'coverage',
      },
    ]);
    expect(merged.map((s) => s.source)).toEqual(['history', 'coverage']);
  });
});

describe('rotationShifts', () => {
  const fixed: RotationCalendarInput = {
    type: 'fixed',
    suspended: false,
    pattern: {
      cadence: 'weekly',
      timeZone: 'America/New_York',
      handoffTime: '09:00',
      handoffWeekday: 1,
    },
    memberIds: [1, 2, 3],
    holderId: 1,
    nextBoundary: at('2026-03-09T13:00:00Z'),
    lastHandoffAt: at('2026-03-02T14:00:00Z'),
    entries: [],
    coverage: [],
    holderAtFrom: { userId: 3, kind: 'auto' },
    changes: [{ at: at('2026-03-02T14:00:00Z'), toUserId: 1, kind: 'auto' }],
  };
  const from = at('2026-03-01T05:00:00Z');
  const to = at('2026-04-05T04:00:00Z');
  const now = at('2026-03-04T12:00:00Z');

  test('a fixed rotation: history, then one member a week from the pending boundary, across the DST change', () => {
    expect(rows(rotationShifts(fixed, from, to, now, t))).toEqual([
      [3, '2026-03-01T05:00:00.000Z', '2026-03-02T14:00:00.000Z', 'history'],
      [1, '2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z', 'history'],
      [2, '2026-03-09T13:00:00.000Z', '2026-03-16T13:00:00.000Z', 'rotation'],
      [3, '2026-03-16T13:00:00.000Z', '2026-03-23T13:00:00.000Z', 'rotation'],
      [1, '2026-03-23T13:00:00.000Z', '2026-03-30T13:00:00.000Z', 'rotation'],
      [2, '2026-03-30T13:00:00.000Z', '2026-04-06T13:00:00.000Z', 'rotation'],
    ]);
  });

  test('an accepted coverage window is laid over the projection', () => {
    const covered = rotationShifts(
      {
        ...fixed,
        coverage: [
          {
            userId: 3,
            requesterId: 2,
            start: at('2026-03-10T00:00:00Z'),
            end: at('2026-03-11T00:00:00Z'),
          },
        ],
      },
      from,
      to,
      now,
      t,
    );
    expect(
      rows(shiftsBetween(covered, at('2026-03-09T00:00:00Z'), at('2026-03-12T00:00:00Z'))),
    ).toEqual([
      [1, '2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z', 'history'],
      [2, '2026-03-09T13:00:00.000Z', '2026-03-10T00:00:00.000Z', 'rotation'],
      [3, '2026-03-10T00:00:00.000Z', '2026-03-11T00:00:00.000Z', 'coverage'],
      [2, '2026-03-11T00:00:00.000Z', '2026-03-16T13:00:00.000Z', 'rotation'],
    ]);
  });

  test('a manual pass inside the handoff window keeps the new holder through the next shift', () => {
    const handled = rotationShifts(
      { ...fixed, holderId: 2, lastHandoffAt: at('2026-03-09T12:45:00Z') },
      at('2026-03-09T12:50:00Z'),
      at('2026-03-20T00:00:00Z'),
      at('2026-03-09T12:50:00Z'),
      t,
    );
    expect(rows(handled).map((r) => r.slice(0, 3))).toEqual([
      [2, '2026-03-09T12:50:00.000Z', '2026-03-16T13:00:00.000Z'],
      [3, '2026-03-16T13:00:00.000Z', '2026-03-23T13:00:00.000Z'],
    ]);
  });

  test('a suspended rotation has history but no future', () => {
    const shifts = rotationShifts(
      { ...fixed, suspended: true, nextBoundary: null },
      from,
      to,
      now,
      t,
    );
    expect(shifts.at(-1)?.end).toEqual(now);
  });

  test('a scheduled rotation: the holder until the next change, then the entries, gaps empty', () => {
    const scheduled: RotationCalendarInput = {
      ...fixed,
      type: 'scheduled',
      holderId: 2,
      entries: [
        { userId: 1, start: at('2026-03-04T09:00:00Z'), end: at('2026-03-05T09:00:00Z') },
        { userId: 3, start: at('2026-03-06T09:00:00Z'), end: at('2026-03-07T09:00:00Z') },
      ],
      holderAtFrom: { userId: null, kind: null },
      changes: [{ at: at('2026-03-04T09:00:00Z'), toUserId: 2, kind: 'pass' }],
    };
    expect(rows(rotationShifts(scheduled, from, at('2026-03-08T00:00:00Z'), now, t))).toEqual([
      [2, '2026-03-04T09:00:00.000Z', '2026-03-05T09:00:00.000Z', 'history'],
      [3, '2026-03-06T09:00:00.000Z', '2026-03-07T09:00:00.000Z', 'schedule'],
    ]);
  });
});

describe('holderAt', () => {
  const shift = (userId: number, start: string, end: string, source: CalendarShift['source']) => ({
    userId,
    start: at(start),
    end: at(end),
    source,
  });
  // Laid from 1 March: 3 from the handoff before (27 Feb), 1 with a day covered by 2, a gap, 3.
  const shifts: CalendarShift[] = [
    shift(3, '2026-03-01T00:00:00Z', '2026-03-02T09:00:00Z', 'history'),
    shift(1, '2026-03-02T09:00:00Z', '2026-03-09T09:00:00Z', 'rotation'),
    { ...shift(2, '2026-03-09T09:00:00Z', '2026-03-10T09:00:00Z', 'coverage'), coveredUserId: 1 },
    shift(1, '2026-03-10T09:00:00Z', '2026-03-16T09:00:00Z', 'rotation'),
    shift(2, '2026-03-16T09:00:00Z', '2026-03-17T09:00:00Z', 'coverage'),
    shift(2, '2026-03-17T09:00:00Z', '2026-03-23T09:00:00Z', 'rotation'),
    shift(3, '2026-03-30T09:00:00Z', '2026-04-06T09:00:00Z', 'rotation'),
  ];
  const span = {
    from: at('2026-03-01T00:00:00Z'),
    to: at('2026-04-01T00:00:00Z'),
    heldAtFrom: { userId: 3, since: at('2026-02-27T17:30:00Z') },
  };
  const row = (instant: string) => {
    const found = holderAt(shifts, at(instant), span);
    return [
      found.shift?.userId ?? null,
      found.shift?.source ?? null,
      found.since?.toISOString() ?? null,
      found.until?.toISOString() ?? null,
      found.next ? [found.next.userId, found.next.from.toISOString()] : null,
    ];
  };

  test.each([
    // [at, holder, source, since, until, next]
    [
      'a stretch laid from the span’s start began at the handoff before it',
      '2026-03-01T12:00:00Z',
      [3, 'history', '2026-02-27T17:30:00.000Z', '2026-03-02T09:00:00.000Z'],
      [1, '2026-03-02T09:00:00.000Z'],
    ],
    [
      'a turn cut by a covered day ends where the cover starts',
      '2026-03-05T00:00:00Z',
      [1, 'rotation', '2026-03-02T09:00:00.000Z', '2026-03-09T09:00:00.000Z'],
      [2, '2026-03-09T09:00:00.000Z'],
    ],
    [
      'the covered day: the covering person, back to the member after',
      '2026-03-09T09:00:00Z',
      [2, 'coverage', '2026-03-09T09:00:00.000Z', '2026-03-10T09:00:00.000Z'],
      [1, '2026-03-10T09:00:00.000Z'],
    ],
    [
      'a cover running on into one’s own turn is one stretch',
      '2026-03-16T10:00:00Z',
      [2, 'coverage', '2026-03-16T09:00:00.000Z', '2026-03-23T09:00:00.000Z'],
      [3, '2026-03-30T09:00:00.000Z'],
    ],
    [
      'nobody: since the last holder let go, until the next takes it',
      '2026-03-25T00:00:00Z',
      [null, null, '2026-03-23T09:00:00.000Z', '2026-03-30T09:00:00.000Z'],
      [3, '2026-03-30T09:00:00.000Z'],
    ],
    [
      'a stretch reaching past the span has no known end nor next',
      '2026-03-31T00:00:00Z',
      [3, 'rotation', '2026-03-30T09:00:00.000Z', null],
      null,
    ],
  ])('%s', (_, instant, [holder, source, since, until], next) => {
    expect(row(instant)).toEqual([holder, source, since, until, next]);
  });

  test('a stretch laid from the span’s start is someone else’s than the one held before: its start', () => {
    const found = holderAt(shifts, at('2026-03-01T12:00:00Z'), {
      ...span,
      heldAtFrom: { userId: 1, since: at('2026-02-20T09:00:00Z') },
    });
    expect(found.since).toEqual(at('2026-03-01T00:00:00Z'));
  });

  test('no shifts at all: nobody, nothing known', () => {
    expect(holderAt([], at('2026-03-05T00:00:00Z'), span)).toEqual({
      shift: null,
      since: null,
      until: null,
      next: null,
    });
  });
});
