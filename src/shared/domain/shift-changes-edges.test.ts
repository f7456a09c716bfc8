import { describe, expect, test } from 'vitest';
import {
  changedShifts,
  isCurrentChange,
  mergeShiftChanges,
  type PersonShift,
  SHIFT_CHANGE_DELAY_MS,
  SHIFT_CHANGE_HORIZON_MS,
  SHIFT_CHANGE_TAIL_MS,
  type ShiftChange,
  type ShiftSpan,
  shiftChangeSentence,
  withCover,
} from './shift-changes';

// The edges of shift-changes.ts that shift-changes.test.ts leaves open (issue 36, mutation
// testing): the horizon's and the tail's edges, input out of order, how gone and come shifts pair
// when notices merge, what still matters, who covers, and a move that keeps only its start time.

const at = (iso: string) => new Date(iso);
const DAY = 86_400_000;
const shift = (userId: number, start: Date | string, end: Date | string): PersonShift => ({
  userId,
  start: new Date(start),
  end: new Date(end),
});
const span = (start: Date | string, end: Date | string): ShiftSpan => ({
  start: new Date(start),
  end: new Date(end),
});
const plus = (d: Date, days: number) => new Date(d.getTime() + days * DAY);

test('the quiet window is two minutes (decision 262)', () => {
  expect(SHIFT_CHANGE_DELAY_MS).toBe(120_000);
});

describe('changedShifts at the horizon’s and the tail’s edges', () => {
  const takenAt = at('2026-11-27T21:00:00Z');
  const now = new Date(takenAt.getTime() + 2 * 60_000);
  const until = new Date(takenAt.getTime() + SHIFT_CHANGE_HORIZON_MS);
  const tailEnd = new Date(until.getTime() + SHIFT_CHANGE_TAIL_MS);
  const a = shift(1, '2026-12-10T00:00:00Z', '2026-12-11T00:00:00Z');
  const changes = (before: PersonShift[], after: PersonShift[]) =>
    Object.fromEntries(changedShifts(before, takenAt, after, now));

  test('a shift starting at the horizon, or ending at now, is outside what is compared', () => {
    expect(changes([shift(1, until, plus(until, 1))], [])).toEqual({});
    expect(changes([shift(1, plus(now, -1), now)], [])).toEqual({});
  });
  test('a shift pushed to the horizon’s edge moved; pushed past the tail, it was removed', () => {
    expect(changes([a], [shift(1, until, plus(until, 1))])).toEqual({
      1: [{ kind: 'moved', before: span(a.start, a.end), after: span(until, plus(until, 1)) }],
    });
    expect(changes([a], [shift(1, tailEnd, plus(tailEnd, 1))])).toEqual({
      1: [{ kind: 'removed', before: span(a.start, a.end) }],
    });
  });
  test('one shift fewer inside the horizon, none in the tail: removed, not moved', () => {
    const a2 = shift(1, '2026-12-05T00:00:00Z', '2026-12-06T00:00:00Z');
    const b = shift(1, '2026-12-20T00:00:00Z', '2026-12-21T00:00:00Z');
    expect(changes([a2, a], [b])).toEqual({
      1: [
        { kind: 'moved', before: span(a2.start, a2.end), after: span(b.start, b.end) },
        { kind: 'removed', before: span(a.start, a.end) },
      ],
    });
  });
  test('a shift pulled in from the tail moved', () => {
    expect(changes([shift(1, until, plus(until, 1))], [a])).toEqual({
      1: [{ kind: 'moved', before: span(until, plus(until, 1)), after: span(a.start, a.end) }],
    });
  });
  test('shifts out of order pair in time order; people in id order', () => {
    const before = [
      shift(1, '2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'),
      shift(1, '2026-12-05T00:00:00Z', '2026-12-06T00:00:00Z'),
    ];
    const after = [
      shift(1, '2026-12-15T00:00:00Z', '2026-12-16T00:00:00Z'),
      shift(1, '2026-12-10T00:00:00Z', '2026-12-11T00:00:00Z'),
      shift(3, '2026-12-20T00:00:00Z', '2026-12-21T00:00:00Z'),
      shift(2, '2026-12-22T00:00:00Z', '2026-12-23T00:00:00Z'),
    ];
    const out = changedShifts(before, takenAt, after, now);
    expect([...out.keys()]).toEqual([1, 2, 3]);
    expect(out.get(1)).toEqual([
      {
        kind: 'moved',
        before: span('2026-12-01T00:00:00Z', '2026-12-02T00:00:00Z'),
        after: span('2026-12-10T00:00:00Z', '2026-12-11T00:00:00Z'),
      },
      {
        kind: 'moved',
        before: span('2026-12-05T00:00:00Z', '2026-12-06T00:00:00Z'),
        after: span('2026-12-15T00:00:00Z', '2026-12-16T00:00:00Z'),
      },
    ]);
  });
});

describe('mergeShiftChanges pairs what went and what came', () => {
  const now = at('2026-12-01T00:00:00Z');
  const d = (day: number, hour = 0) => new Date(Date.UTC(2026, 11, day, hour));
  const s = (from: number, to: number, fromHour = 0, toHour = 0) =>
    span(d(from, fromHour), d(to, toHour));

  test('what went, from both notices, in time order', () => {
    const older: ShiftChange[] = [{ kind: 'moved', before: s(10, 11), after: s(20, 21) }];
    const newer: ShiftChange[] = [{ kind: 'removed', before: s(2, 3) }];
    expect(mergeShiftChanges(older, newer, now)).toEqual([
      { kind: 'moved', before: s(2, 3), after: s(20, 21) },
      { kind: 'removed', before: s(10, 11) },
    ]);
  });
  test('what came, from both notices, in time order', () => {
    const older: ShiftChange[] = [{ kind: 'added', after: s(20, 21) }];
    const newer: ShiftChange[] = [{ kind: 'moved', before: s(2, 3), after: s(12, 13) }];
    expect(mergeShiftChanges(older, newer, now)).toEqual([
      { kind: 'moved', before: s(2, 3), after: s(12, 13) },
      { kind: 'added', after: s(20, 21) },
    ]);
  });
  test('a shift overlapping pairs first; touching is not overlapping', () => {
    const newer = (after: ShiftSpan): ShiftChange[] => [
      { kind: 'removed', before: s(2, 3) },
      { kind: 'moved', before: s(5, 6), after },
    ];
    expect(mergeShiftChanges([], newer(s(5, 6, 12, 12)), now)).toEqual([
      { kind: 'removed', before: s(2, 3) },
      { kind: 'moved', before: s(5, 6), after: s(5, 6, 12, 12) },
    ]);
    for (const after of [s(4, 5), s(6, 7)]) {
      expect(mergeShiftChanges([], newer(after), now)).toEqual([
        { kind: 'moved', before: s(2, 3), after },
        { kind: 'removed', before: s(5, 6) },
      ]);
    }
  });
  test('a move counts from the earlier of its two shifts', () => {
    const newer: ShiftChange[] = [
      { kind: 'moved', before: s(10, 11), after: s(3, 4) },
      { kind: 'added', after: s(6, 7) },
    ];
    expect(mergeShiftChanges([], newer, now)).toEqual([
      { kind: 'moved', before: s(10, 11), after: s(3, 4) },
      { kind: 'added', after: s(6, 7) },
    ]);
  });
  test('a shift ending at now is left out', () => {
    expect(mergeShiftChanges([], [{ kind: 'removed', before: span(d(0), now) }], now)).toEqual([]);
  });
});

describe('isCurrentChange', () => {
  const now = at('2026-12-01T00:00:00Z');
  test('a removed shift not ended yet, or a move whose old shift goes on', () => {
    expect(
      isCurrentChange({ kind: 'removed', before: span(plus(now, -1), plus(now, 1)) }, now),
    ).toBe(true);
    expect(
      isCurrentChange(
        {
          kind: 'moved',
          before: span(plus(now, -1), plus(now, 1)),
          after: span(plus(now, -3), plus(now, -2)),
        },
        now,
      ),
    ).toBe(true);
  });
});

test('withCover: others overlapping the removed shift, not its owner nor shifts touching it', () => {
  const removed: ShiftChange = {
    kind: 'removed',
    before: span('2026-12-10T00:00:00Z', '2026-12-11T00:00:00Z'),
  };
  const after = [
    shift(1, '2026-12-10T06:00:00Z', '2026-12-10T12:00:00Z'),
    shift(2, '2026-12-11T00:00:00Z', '2026-12-12T00:00:00Z'),
    shift(3, '2026-12-12T00:00:00Z', '2026-12-13T00:00:00Z'),
    shift(5, '2026-12-09T00:00:00Z', '2026-12-10T00:00:00Z'),
    shift(4, '2026-12-10T12:00:00Z', '2026-12-11T00:00:00Z'),
  ];
  expect(withCover([removed], after, 1)).toEqual([{ ...removed, coveredBy: [4] }]);
});

test('a move keeping its start time but not its end time shows the times', () => {
  expect(
    shiftChangeSentence(
      {
        kind: 'moved',
        before: span('2026-12-07T08:00:00Z', '2026-12-08T08:00:00Z'),
        after: span('2026-12-09T08:00:00Z', '2026-12-10T12:00:00Z'),
      },
      'Payments primary',
      'UTC',
      at('2026-11-27T21:00:00Z'),
    ),
  ).toBe(
    'Your shift Mon Dec 7, 8:00 AM – Tue Dec 8, 8:00 AM (UTC) in Payments primary moved to Wed Dec 9, 8:00 AM – Thu Dec 10, 12:00 PM.',
  );
});
