import { describe, expect, test } from 'vitest';
import {
  gapsOf,
  nextScheduleTransition,
  type ProjectedShift,
  parseLocalTime,
  projectFixedTurns,
  type ShiftPattern,
  scheduledShifts,
  scheduleTransitions,
  turnSpansAt,
} from './shifts';

// The edges of shifts.ts that its main tests (shifts.test.ts) leave open (issue 36, mutation
// testing): local times that are not 'HH:MM', the turn spans around a boundary, the projection's
// clipping and bound, gaps joined, and schedule windows at their edges and out of order.

const at = (iso: string) => new Date(iso);
const dailyUtc: ShiftPattern = {
  cadence: 'daily',
  timeZone: 'UTC',
  handoffTime: '09:00',
  handoffWeekday: 1,
};
const weeklyUtc: ShiftPattern = { ...dailyUtc, cadence: 'weekly' };

describe('parseLocalTime', () => {
  test('reads HH:MM', () => {
    expect(parseLocalTime('07:45')).toEqual({ hour: 7, minute: 45 });
  });
  test.each(['9:00', 'x09:00', '09:00x', '09:00:00', '', '0900'])('refuses %j', (text) => {
    expect(() => parseLocalTime(text)).toThrow(`Invalid local time ${text}`);
  });
});

describe('turnSpansAt', () => {
  test('the shift ending at the pending boundary began at the boundary before it', () => {
    expect(turnSpansAt(weeklyUtc, at('2026-01-12T09:00:00Z'))).toEqual({
      ending: { start: at('2026-01-05T09:00:00Z'), end: at('2026-01-12T09:00:00Z') },
      shift: { start: at('2026-01-12T09:00:00Z'), end: at('2026-01-19T09:00:00Z') },
    });
  });
  test('a boundary handled by hand: the spans move one boundary on', () => {
    expect(turnSpansAt(dailyUtc, at('2026-01-12T09:00:00Z'), true)).toEqual({
      ending: { start: at('2026-01-12T09:00:00Z'), end: at('2026-01-13T09:00:00Z') },
      shift: { start: at('2026-01-13T09:00:00Z'), end: at('2026-01-14T09:00:00Z') },
    });
  });
});

describe('projectFixedTurns at its edges', () => {
  const input = {
    pattern: dailyUtc,
    memberIds: [1, 2],
    holderId: 1,
    nextBoundary: at('2026-01-12T09:00:00Z'),
  };
  test('from the pending boundary itself: no empty shift for the holder before it', () => {
    const shifts = projectFixedTurns(input, at('2026-01-12T09:00:00Z'), at('2026-01-13T09:00:00Z'));
    expect(shifts).toEqual([
      {
        userId: 2,
        start: at('2026-01-12T09:00:00Z'),
        end: at('2026-01-13T09:00:00Z'),
        ownerId: 2,
        kind: 'turn',
      },
    ]);
  });
  test('an empty window [t, t) has no shift', () => {
    const t = at('2026-01-12T03:00:00Z');
    expect(projectFixedTurns(input, t, t)).toEqual([]);
  });
  test('a window ending at a boundary has no shift starting there', () => {
    const shifts = projectFixedTurns(input, at('2026-01-12T03:00:00Z'), at('2026-01-13T09:00:00Z'));
    expect(shifts.map((s) => [s.userId, s.start.toISOString()])).toEqual([
      [1, '2026-01-12T03:00:00.000Z'],
      [2, '2026-01-12T09:00:00.000Z'],
    ]);
  });
  test('bounded at 4,000 boundaries after the pending one', () => {
    const shifts = projectFixedTurns(input, at('2026-01-12T03:00:00Z'), at('2040-01-01T00:00:00Z'));
    expect(shifts).toHaveLength(4001);
    expect(shifts.at(-1)?.start).toEqual(
      new Date(Date.parse('2026-01-12T09:00:00Z') + 3999 * 86_400_000),
    );
  });
});

describe('gapsOf', () => {
  const shift = (start: string, end: string, kind: ProjectedShift['kind']): ProjectedShift => ({
    userId: 1,
    start: at(start),
    end: at(end),
    ownerId: 1,
    kind,
  });
  test('only gaps, back to back ones joined, apart ones kept apart', () => {
    const shifts = [
      shift('2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', 'gap'),
      shift('2026-01-02T00:00:00Z', '2026-01-03T00:00:00Z', 'turn'),
      shift('2026-01-03T00:00:00Z', '2026-01-04T00:00:00Z', 'gap'),
      shift('2026-01-04T00:00:00Z', '2026-01-05T00:00:00Z', 'cover'),
      shift('2026-01-05T00:00:00Z', '2026-01-06T00:00:00Z', 'gap'),
      shift('2026-01-06T00:00:00Z', '2026-01-07T00:00:00Z', 'gap'),
      shift('2026-01-07T00:00:00Z', '2026-01-08T00:00:00Z', 'gap'),
    ];
    expect(gapsOf(shifts)).toEqual([
      { start: at('2026-01-01T00:00:00Z'), end: at('2026-01-02T00:00:00Z') },
      { start: at('2026-01-03T00:00:00Z'), end: at('2026-01-04T00:00:00Z') },
      { start: at('2026-01-05T00:00:00Z'), end: at('2026-01-08T00:00:00Z') },
    ]);
  });
});

describe('schedule windows at their edges', () => {
  // Out of order on purpose.
  const entries = [
    { userId: 3, start: at('2026-01-05T00:00:00Z'), end: at('2026-01-06T00:00:00Z') },
    { userId: 1, start: at('2026-01-01T00:00:00Z'), end: at('2026-01-02T00:00:00Z') },
    { userId: 2, start: at('2026-01-02T00:00:00Z'), end: at('2026-01-03T00:00:00Z') },
  ];
  test('scheduleTransitions: within [from, to], both ends included, oldest first', () => {
    const out = scheduleTransitions(
      entries,
      at('2026-01-02T00:00:00Z'),
      at('2026-01-05T00:00:00Z'),
    );
    expect(out).toEqual([
      { at: at('2026-01-02T00:00:00Z'), userId: 2 },
      { at: at('2026-01-03T00:00:00Z'), userId: null },
      { at: at('2026-01-05T00:00:00Z'), userId: 3 },
    ]);
  });
  test('scheduleTransitions: nothing outside the window', () => {
    expect(
      scheduleTransitions(entries, at('2026-01-03T12:00:00Z'), at('2026-01-04T12:00:00Z')),
    ).toEqual([]);
    expect(
      scheduleTransitions(entries, at('2026-01-06T00:00:01Z'), at('2026-01-09T00:00:00Z')),
    ).toEqual([]);
  });
  test('nextScheduleTransition: the earliest start or end strictly after', () => {
    expect(nextScheduleTransition(entries, at('2025-12-01T00:00:00Z'))).toEqual(
      at('2026-01-01T00:00:00Z'),
    );
    expect(nextScheduleTransition(entries, at('2026-01-02T00:00:00Z'))).toEqual(
      at('2026-01-03T00:00:00Z'),
    );
    expect(nextScheduleTransition(entries, at('2026-01-06T00:00:00Z'))).toBeNull();
  });
  test('scheduledShifts: overlapping [from, to) only, earliest first', () => {
    expect(
      scheduledShifts(entries, at('2026-01-02T00:00:00Z'), at('2026-01-05T00:00:00Z')).map(
        (s) => s.userId,
      ),
    ).toEqual([2]);
    expect(
      scheduledShifts(entries, at('2026-01-01T12:00:00Z'), at('2026-01-05T00:00:01Z')).map(
        (s) => s.userId,
      ),
    ).toEqual([1, 2, 3]);
    expect(
      scheduledShifts(entries, at('2026-01-03T00:00:00Z'), at('2026-01-05T00:00:00Z')),
    ).toEqual([]);
  });
});
