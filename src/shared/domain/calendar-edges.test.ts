import { describe, expect, test } from 'vitest';
import {
  type CalendarShift,
  gridBounds,
  historyShifts,
  holderAt,
  mergeShifts,
  monthGrid,
  overlayCoverage,
  type RotationCalendarInput,
  rotationGaps,
  rotationShifts,
  shiftsBetween,
} from './calendar';
import { DEFAULT_HANDOFF_TIMINGS as t } from './handoff-flow';

/** The calendar at the edges of its spans, windows and stretches (issue 36: mutation testing). */

const at = (iso: string) => new Date(iso);
const rows = (shifts: { userId: number; start: Date; end: Date; source?: string }[]) =>
  shifts.map((s) => [s.userId, s.start.toISOString(), s.end.toISOString(), s.source]);

describe('the calendar at its edges', () => {
  const shift = (userId: number, start: string, end: string, source: CalendarShift['source']) => ({
    userId,
    start: at(start),
    end: at(end),
    source,
  });

  test('a month grid spans its first day’s local midnight to the midnight after its last', () => {
    expect(gridBounds(monthGrid(2026, 3), 'America/New_York')).toEqual({
      from: at('2026-03-01T05:00:00Z'),
      to: at('2026-04-05T04:00:00Z'),
    });
  });

  test('history: a change at the span’s start begins it; one at or after its end is not read', () => {
    const shifts = historyShifts(
      [
        { at: at('2026-03-01T00:00:00Z'), toUserId: 2, kind: 'pass' },
        { at: at('2026-03-02T00:00:00Z'), toUserId: 3, kind: 'pass' },
        { at: at('2026-03-02T00:00:00Z'), toUserId: 4, kind: 'pass' },
        { at: at('2026-03-04T00:00:00Z'), toUserId: 1, kind: 'pass' },
        { at: at('2026-03-05T00:00:00Z'), toUserId: 3, kind: 'pass' },
      ],
      { userId: 1, kind: 'take' },
      at('2026-03-01T00:00:00Z'),
      at('2026-03-04T00:00:00Z'),
    );
    expect(rows(shifts)).toEqual([
      [2, '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z', 'history'],
      [4, '2026-03-02T00:00:00.000Z', '2026-03-04T00:00:00.000Z', 'history'],
    ]);
  });

  test('coverage: a shift inside a window is gone, one from its start or to its end leaves nothing empty', () => {
    const window = {
      userId: 9,
      start: at('2026-03-02T00:00:00Z'),
      end: at('2026-03-04T00:00:00Z'),
    };
    const shifts = overlayCoverage(
      [
        shift(1, '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z', 'rotation'),
        shift(2, '2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z', 'rotation'),
        shift(3, '2026-03-04T00:00:00Z', '2026-03-05T00:00:00Z', 'rotation'),
      ],
      [window],
    );
    expect(rows(shifts)).toEqual([
      [9, '2026-03-02T00:00:00.000Z', '2026-03-04T00:00:00.000Z', 'coverage'],
      [3, '2026-03-04T00:00:00.000Z', '2026-03-05T00:00:00.000Z', 'rotation'],
    ]);
    expect('coveredUserId' in shifts[0]).toBe(false);
  });

  test('coverage: of two windows that overlap, the later-starting one holds the overlap, in any order given', () => {
    const shifts = overlayCoverage(
      [shift(1, '2026-03-01T00:00:00Z', '2026-03-08T00:00:00Z', 'rotation')],
      [
        { userId: 3, start: at('2026-03-03T00:00:00Z'), end: at('2026-03-05T00:00:00Z') },
        { userId: 2, start: at('2026-03-02T00:00:00Z'), end: at('2026-03-04T00:00:00Z') },
      ],
    );
    expect(rows(shifts)).toEqual([
      [1, '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z', 'rotation'],
      [2, '2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z', 'coverage'],
      [3, '2026-03-03T00:00:00.000Z', '2026-03-05T00:00:00.000Z', 'coverage'],
      [1, '2026-03-05T00:00:00.000Z', '2026-03-08T00:00:00.000Z', 'rotation'],
    ]);
  });

  test('merging: in time order; apart when not back to back, and a cover never joins the turn after it', () => {
    const merged = mergeShifts([
      shift(1, '2026-03-05T00:00:00Z', '2026-03-06T00:00:00Z', 'rotation'),
      shift(1, '2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z', 'coverage'),
      shift(1, '2026-03-04T00:00:00Z', '2026-03-05T00:00:00Z', 'rotation'),
      shift(1, '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', 'rotation'),
    ]);
    expect(rows(merged)).toEqual([
      [1, '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z', 'rotation'],
      [1, '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z', 'coverage'],
      [1, '2026-03-04T00:00:00.000Z', '2026-03-06T00:00:00.000Z', 'rotation'],
    ]);
  });

  test('a day’s shifts: one ending at its start or starting at its end is not in it', () => {
    const day = { start: at('2026-03-02T00:00:00Z'), end: at('2026-03-03T00:00:00Z') };
    const shifts = [
      shift(1, '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', 'rotation'),
      shift(2, '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z', 'rotation'),
      shift(3, '2026-03-03T00:00:00Z', '2026-03-04T00:00:00Z', 'rotation'),
    ];
    expect(shiftsBetween(shifts, day.start, day.end).map((s) => s.userId)).toEqual([2]);
  });
});

describe('rotationShifts at its edges', () => {
  const daily: RotationCalendarInput = {
    type: 'fixed',
    suspended: false,
    pattern: { cadence: 'daily', timeZone: 'UTC', handoffTime: '09:00', handoffWeekday: 0 },
    memberIds: [1, 2, 3],
    holderId: 1,
    nextBoundary: at('2026-03-05T09:00:00Z'),
    lastHandoffAt: at('2026-03-04T09:00:00Z'),
    entries: [],
    coverage: [],
    holderAtFrom: { userId: 1, kind: 'auto' },
    changes: [],
  };
  const now = at('2026-03-04T12:00:00Z');
  const to = at('2026-03-08T09:00:00Z');
  const users = (shifts: CalendarShift[]) => rows(shifts).map((r) => r.slice(0, 3));

  test('a running window: the rotation goes on underneath it from the requester', () => {
    const covering: RotationCalendarInput = {
      ...daily,
      holderId: 3,
      coverage: [{ userId: 3, requesterId: 1, start: now, end: at('2026-03-06T00:00:00Z') }],
    };
    expect(users(rotationShifts(covering, now, to, now, t))).toEqual([
      [3, '2026-03-04T12:00:00.000Z', '2026-03-06T00:00:00.000Z'],
      [2, '2026-03-06T00:00:00.000Z', '2026-03-06T09:00:00.000Z'],
      [3, '2026-03-06T09:00:00.000Z', '2026-03-07T09:00:00.000Z'],
      [1, '2026-03-07T09:00:00.000Z', '2026-03-08T09:00:00.000Z'],
    ]);
  });

  test('whose turn the holder’s shift is decides the turns after it (decision 256)', () => {
    expect(users(rotationShifts({ ...daily, turnUserId: 2 }, now, to, now, t))).toEqual([
      [1, '2026-03-04T12:00:00.000Z', '2026-03-05T09:00:00.000Z'],
      [3, '2026-03-05T09:00:00.000Z', '2026-03-06T09:00:00.000Z'],
      [1, '2026-03-06T09:00:00.000Z', '2026-03-07T09:00:00.000Z'],
      [2, '2026-03-07T09:00:00.000Z', '2026-03-08T09:00:00.000Z'],
    ]);
  });

  test('the turns go round time off: a cover for that shift alone, then the order goes on (decision 256)', () => {
    const timeOff = [
      { userId: 2, start: at('2026-03-05T10:00:00Z'), end: at('2026-03-05T11:00:00Z') },
    ];
    expect(users(rotationShifts({ ...daily, timeOff }, now, to, now, t))).toEqual([
      [1, '2026-03-04T12:00:00.000Z', '2026-03-05T09:00:00.000Z'],
      [3, '2026-03-05T09:00:00.000Z', '2026-03-07T09:00:00.000Z'],
      [1, '2026-03-07T09:00:00.000Z', '2026-03-08T09:00:00.000Z'],
    ]);
  });

  test('a fixed rotation with no boundary pending has no future; a suspended one none either', () => {
    expect(rotationShifts({ ...daily, nextBoundary: null }, now, to, now, t)).toEqual([]);
    expect(rotationShifts({ ...daily, suspended: true }, now, to, now, t)).toEqual([]);
  });

  test('an ended window shows from the history only; one after the span not at all', () => {
    const from = at('2026-03-04T00:00:00Z');
    const shifts = rotationShifts(
      {
        ...daily,
        coverage: [
          { userId: 2, requesterId: 1, start: at('2026-03-04T01:00:00Z'), end: now },
          { userId: 3, requesterId: 1, start: to, end: at('2026-03-09T00:00:00Z') },
        ],
      },
      from,
      to,
      now,
      t,
    );
    expect(users(shifts)).toEqual([
      [1, '2026-03-04T00:00:00.000Z', '2026-03-05T09:00:00.000Z'],
      [2, '2026-03-05T09:00:00.000Z', '2026-03-06T09:00:00.000Z'],
      [3, '2026-03-06T09:00:00.000Z', '2026-03-07T09:00:00.000Z'],
      [1, '2026-03-07T09:00:00.000Z', '2026-03-08T09:00:00.000Z'],
    ]);
  });

  test('a scheduled rotation from now: the holder until the next change, from the schedule', () => {
    const scheduled: RotationCalendarInput = {
      ...daily,
      type: 'scheduled',
      holderId: 2,
      entries: [{ userId: 1, start: at('2026-03-05T00:00:00Z'), end: at('2026-03-06T00:00:00Z') }],
    };
    expect(rows(rotationShifts(scheduled, now, to, now, t))).toEqual([
      [2, '2026-03-04T12:00:00.000Z', '2026-03-05T00:00:00.000Z', 'schedule'],
      [1, '2026-03-05T00:00:00.000Z', '2026-03-06T00:00:00.000Z', 'schedule'],
    ]);
    expect(rows(rotationShifts({ ...scheduled, holderId: null }, now, to, now, t))).toEqual([
      [1, '2026-03-05T00:00:00.000Z', '2026-03-06T00:00:00.000Z', 'schedule'],
    ]);
  });

  test('a scheduled entry running past the next change is laid from that change on', () => {
    const scheduled: RotationCalendarInput = {
      ...daily,
      type: 'scheduled',
      holderId: 2,
      entries: [
        { userId: 1, start: at('2026-03-04T00:00:00Z'), end: at('2026-03-07T00:00:00Z') },
        { userId: 3, start: at('2026-03-05T00:00:00Z'), end: at('2026-03-06T00:00:00Z') },
      ],
    };
    expect(users(rotationShifts(scheduled, now, to, now, t))[0]).toEqual([
      2,
      '2026-03-04T12:00:00.000Z',
      '2026-03-05T00:00:00.000Z',
    ]);
    expect(
      rotationShifts(scheduled, now, to, now, t).every((s) => s.start.getTime() >= now.getTime()),
    ).toBe(true);
  });
});

describe('rotationGaps', () => {
  const daily: RotationCalendarInput = {
    type: 'fixed',
    suspended: false,
    pattern: { cadence: 'daily', timeZone: 'UTC', handoffTime: '09:00', handoffWeekday: 0 },
    memberIds: [1, 2],
    holderId: 1,
    nextBoundary: at('2026-03-05T09:00:00Z'),
    lastHandoffAt: at('2026-03-04T09:00:00Z'),
    entries: [],
    coverage: [],
    holderAtFrom: { userId: 1, kind: 'auto' },
    changes: [],
    // both away for the shift of 6 March: nobody available
    timeOff: [
      { userId: 1, start: at('2026-03-06T10:00:00Z'), end: at('2026-03-06T12:00:00Z') },
      { userId: 2, start: at('2026-03-06T10:00:00Z'), end: at('2026-03-06T12:00:00Z') },
    ],
  };
  const now = at('2026-03-04T12:00:00Z');
  const to = at('2026-03-10T00:00:00Z');
  const spans = (gaps: { start: Date; end: Date }[]) =>
    gaps.map((g) => [g.start.toISOString(), g.end.toISOString()]);

  test('a fixed rotation: the whole shift nobody available holds', () => {
    expect(spans(rotationGaps(daily, now, to, now, t))).toEqual([
      ['2026-03-06T09:00:00.000Z', '2026-03-07T09:00:00.000Z'],
    ]);
  });

  test('a fixed rotation: a gap that begins before `to` comes back whole, past `to`', () => {
    expect(spans(rotationGaps(daily, now, at('2026-03-06T12:00:00Z'), now, t))).toEqual([
      ['2026-03-06T09:00:00.000Z', '2026-03-07T09:00:00.000Z'],
    ]);
  });

  test('a coverage window over a gap takes its part out of it', () => {
    const coverage = [
      {
        userId: 3,
        requesterId: 1,
        start: at('2026-03-06T12:00:00Z'),
        end: at('2026-03-06T18:00:00Z'),
      },
      {
        userId: 3,
        requesterId: 1,
        start: at('2026-03-08T00:00:00Z'),
        end: at('2026-03-09T00:00:00Z'),
      },
    ];
    expect(spans(rotationGaps({ ...daily, coverage }, now, to, now, t))).toEqual([
      ['2026-03-06T09:00:00.000Z', '2026-03-06T12:00:00.000Z'],
      ['2026-03-06T18:00:00.000Z', '2026-03-07T09:00:00.000Z'],
    ]);
    const whole = [
      {
        userId: 3,
        requesterId: 1,
        start: at('2026-03-06T09:00:00Z'),
        end: at('2026-03-07T09:00:00Z'),
      },
    ];
    expect(rotationGaps({ ...daily, coverage: whole }, now, to, now, t)).toEqual([]);
  });

  test('from now on only, a gap reaching past the span whole; none in a span already past, nor for scheduled or suspended rotations', () => {
    const awayNow = [
      { userId: 1, start: at('2026-03-04T00:00:00Z'), end: at('2026-03-04T18:00:00Z') },
      { userId: 2, start: at('2026-03-04T00:00:00Z'), end: at('2026-03-04T18:00:00Z') },
    ];
    expect(
      spans(rotationGaps({ ...daily, timeOff: awayNow }, at('2026-03-01T00:00:00Z'), to, now, t)),
    ).toEqual([['2026-03-04T12:00:00.000Z', '2026-03-05T09:00:00.000Z']]);
    expect(
      spans(rotationGaps(daily, at('2026-03-01T00:00:00Z'), at('2026-03-06T10:00:00Z'), now, t)),
    ).toEqual([['2026-03-06T09:00:00.000Z', '2026-03-07T09:00:00.000Z']]);
    expect(rotationGaps(daily, at('2026-03-01T00:00:00Z'), now, now, t)).toEqual([]);
    expect(rotationGaps({ ...daily, type: 'scheduled' }, now, to, now, t)).toEqual([]);
    expect(rotationGaps({ ...daily, suspended: true }, now, to, now, t)).toEqual([]);
    expect(rotationGaps({ ...daily, nextBoundary: null }, now, to, now, t)).toEqual([]);
  });

  test('a layered rotation: where its stretches’ people are away, touching ones joined (decision 247)', () => {
    const layered: RotationCalendarInput = {
      ...daily,
      layered: true,
      entries: [
        { userId: 1, start: at('2026-03-05T00:00:00Z'), end: at('2026-03-05T12:00:00Z') },
        { userId: 2, start: at('2026-03-05T12:00:00Z'), end: at('2026-03-06T00:00:00Z') },
        { userId: 1, start: at('2026-03-06T00:00:00Z'), end: at('2026-03-06T12:00:00Z') },
        { userId: 2, start: at('2026-03-06T12:00:00Z'), end: at('2026-03-07T00:00:00Z') },
      ],
      timeOff: [
        { userId: 2, start: at('2026-03-06T18:00:00Z'), end: at('2026-03-08T00:00:00Z') },
        { userId: 1, start: at('2026-03-05T06:00:00Z'), end: at('2026-03-05T20:00:00Z') },
        { userId: 2, start: at('2026-03-05T10:00:00Z'), end: at('2026-03-05T14:00:00Z') },
        { userId: 3, start: at('2026-03-05T00:00:00Z'), end: at('2026-03-09T00:00:00Z') },
      ],
    };
    expect(spans(rotationGaps(layered, now, to, now, t))).toEqual([
      ['2026-03-05T06:00:00.000Z', '2026-03-05T14:00:00.000Z'],
      ['2026-03-06T18:00:00.000Z', '2026-03-07T00:00:00.000Z'],
    ]);
    expect(spans(rotationGaps({ ...layered, timeOff: undefined }, now, to, now, t))).toEqual([]);
    expect(
      spans(
        rotationGaps(
          layered,
          at('2026-03-05T08:00:00Z'),
          at('2026-03-05T13:00:00Z'),
          at('2026-03-05T08:00:00Z'),
          t,
        ),
      ),
    ).toEqual([['2026-03-05T08:00:00.000Z', '2026-03-05T13:00:00.000Z']]);
  });
});

describe('holderAt at its edges', () => {
  const shift = (userId: number, start: string, end: string) => ({
    userId,
    start: at(start),
    end: at(end),
    source: 'rotation' as const,
  });
  const shifts: CalendarShift[] = [
    shift(1, '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z'),
    shift(1, '2026-03-02T00:00:00Z', '2026-03-03T00:00:00Z'),
    shift(1, '2026-03-04T00:00:00Z', '2026-03-05T00:00:00Z'),
    shift(2, '2026-03-05T00:00:00Z', '2026-03-06T00:00:00Z'),
  ];
  const span = {
    from: at('2026-03-01T00:00:00Z'),
    to: at('2026-03-06T00:00:00Z'),
    heldAtFrom: null,
  };

  test('inside a later piece of one person’s stretch: since its first piece', () => {
    const found = holderAt(shifts, at('2026-03-02T12:00:00Z'), span);
    expect([found.since, found.until]).toEqual([
      at('2026-03-01T00:00:00Z'),
      at('2026-03-03T00:00:00Z'),
    ]);
  });

  test('the same person after a gap is a stretch of its own', () => {
    const found = holderAt(shifts, at('2026-03-04T12:00:00Z'), span);
    expect([found.since, found.until]).toEqual([
      at('2026-03-04T00:00:00Z'),
      at('2026-03-05T00:00:00Z'),
    ]);
  });

  test('the instant a holder lets go: nobody since then', () => {
    const found = holderAt(shifts, at('2026-03-03T00:00:00Z'), span);
    expect([found.shift, found.since, found.until]).toEqual([
      null,
      at('2026-03-03T00:00:00Z'),
      at('2026-03-04T00:00:00Z'),
    ]);
  });

  test('a stretch ending at the span’s end has no known end; a next from the span’s end is not known', () => {
    expect(holderAt(shifts, at('2026-03-05T12:00:00Z'), span).until).toBeNull();
    const found = holderAt(shifts, at('2026-03-04T12:00:00Z'), {
      ...span,
      to: at('2026-03-05T00:00:00Z'),
    });
    expect([found.until, found.next]).toEqual([null, null]);
    const cut = holderAt(shifts.slice(0, 3), at('2026-03-02T12:00:00Z'), {
      ...span,
      to: at('2026-03-04T00:00:00Z'),
    });
    expect([cut.until, cut.next]).toEqual([at('2026-03-03T00:00:00Z'), null]);
  });
});
