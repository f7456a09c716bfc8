import { describe, expect, test } from 'vitest';
import {
  type AwayWindow,
  canManageTimeOff,
  scheduleCollisions,
  TIME_OFF_LONGEST_DAYS,
  TIME_OFF_MESSAGES,
  timeOffImpact,
  timeOffRefusal,
} from './time-off';

/** Recording time off (issue 18, decision 217): the refusals, who may, and schedule collisions. */

const at = (iso: string) => new Date(iso);
const away = (userId: number, start: string, end: string): AwayWindow => ({
  userId,
  start: at(start),
  end: at(end),
});

describe('recording time off', () => {
  const now = at('2026-01-05T10:00:00Z');
  const span = (start: string, end: string) => ({ start: at(start), end: at(end) });
  test.each([
    ['a week ahead', '2026-01-12T00:00:00Z', '2026-01-19T00:00:00Z', null],
    ['already begun, ending ahead', '2026-01-01T00:00:00Z', '2026-01-06T00:00:00Z', null],
    [
      'end before start',
      '2026-01-12T00:00:00Z',
      '2026-01-11T00:00:00Z',
      TIME_OFF_MESSAGES.endBeforeStart,
    ],
    [
      'end equal to start',
      '2026-01-12T00:00:00Z',
      '2026-01-12T00:00:00Z',
      TIME_OFF_MESSAGES.endBeforeStart,
    ],
    ['over already', '2026-01-01T00:00:00Z', '2026-01-05T09:00:00Z', TIME_OFF_MESSAGES.inThePast],
    [
      'longer than a year',
      '2026-01-12T00:00:00Z',
      '2027-01-14T00:00:00Z',
      TIME_OFF_MESSAGES.tooLong,
    ],
  ])('%s', (_name, start, end, message) => {
    expect(timeOffRefusal(span(start, end), [], now)?.message ?? null).toBe(message);
  });

  test('each refusal names its code and the end time as the field at fault', () => {
    const refused = (start: string, end: string) => timeOffRefusal(span(start, end), [], now);
    const atFault = { code: 'VALIDATION_FAILED', field: 'endTime' };
    expect(refused('2026-01-12T00:00:00Z', '2026-01-11T00:00:00Z')).toMatchObject(atFault);
    expect(refused('2026-01-01T00:00:00Z', '2026-01-05T09:00:00Z')).toMatchObject(atFault);
    expect(refused('2026-01-12T00:00:00Z', '2027-01-14T00:00:00Z')).toMatchObject(atFault);
  });

  test('ending at this very moment is over already; exactly the longest stretch is allowed', () => {
    expect(timeOffRefusal(span('2026-01-01T00:00:00Z', now.toISOString()), [], now)?.message).toBe(
      TIME_OFF_MESSAGES.inThePast,
    );
    const start = at('2026-01-12T00:00:00Z');
    const longest = new Date(start.getTime() + TIME_OFF_LONGEST_DAYS * 86_400_000);
    expect(timeOffRefusal({ start, end: longest }, [], now)).toBeNull();
    expect(
      timeOffRefusal({ start, end: new Date(longest.getTime() + 60_000) }, [], now)?.message,
    ).toBe(TIME_OFF_MESSAGES.tooLong);
  });

  test('an entry ending where the new one starts does not clash; one starting where it ends neither', () => {
    const existing = [span('2026-01-20T00:00:00Z', '2026-01-25T00:00:00Z')];
    expect(
      timeOffRefusal(span('2026-01-12T00:00:00Z', '2026-01-20T00:00:00Z'), existing, now),
    ).toBeNull();
    expect(
      timeOffRefusal(span('2026-01-19T00:00:00Z', '2026-01-21T00:00:00Z'), existing, now)?.code,
    ).toBe('CONFLICT');
  });

  test('overlapping one’s own entry is refused, naming it; touching ends are fine', () => {
    const existing = [span('2026-01-12T00:00:00Z', '2026-01-19T00:00:00Z')];
    expect(
      timeOffRefusal(span('2026-01-18T00:00:00Z', '2026-01-20T00:00:00Z'), existing, now),
    ).toEqual({
      code: 'CONFLICT',
      message: TIME_OFF_MESSAGES.overlaps('2026-01-12T00:00:00.000Z', '2026-01-19T00:00:00.000Z'),
      field: 'startTime',
    });
    expect(
      timeOffRefusal(span('2026-01-19T00:00:00Z', '2026-01-20T00:00:00Z'), existing, now),
    ).toBeNull();
  });

  test.each([
    ['themself', { id: 5, isAdmin: false, isManager: false }, false, true],
    ['an administrator', { id: 1, isAdmin: true, isManager: true }, false, true],
    ['a manager of one of their rotations', { id: 2, isAdmin: false, isManager: true }, true, true],
    ['a manager of none of them', { id: 2, isAdmin: false, isManager: true }, false, false],
    ['a teammate', { id: 3, isAdmin: false, isManager: false }, true, false],
  ])('%s may manage it: %s', (_name, actor, manages, expected) => {
    expect(canManageTimeOff(actor, 5, manages)).toBe(expected);
  });

  test('a schedule entry whose person is away for part of it collides', () => {
    const entries = [
      { id: 1, userId: 1, start: at('2026-01-12T00:00:00Z'), end: at('2026-01-13T00:00:00Z') },
      { id: 2, userId: 2, start: at('2026-01-12T00:00:00Z'), end: at('2026-01-13T00:00:00Z') },
      { id: 3, userId: 1, start: at('2026-01-20T00:00:00Z'), end: at('2026-01-21T00:00:00Z') },
    ];
    const found = scheduleCollisions(entries, [
      away(1, '2026-01-12T12:00:00Z', '2026-01-20T00:00:00Z'),
    ]);
    expect(found.map((c) => c.entry.id)).toEqual([1]);
  });

  test('a collision names the earliest of the person’s time off in the entry; touching ends do not collide', () => {
    const entry = { userId: 1, start: at('2026-01-12T00:00:00Z'), end: at('2026-01-19T00:00:00Z') };
    const later = away(1, '2026-01-16T00:00:00Z', '2026-01-17T00:00:00Z');
    const earlier = away(1, '2026-01-13T00:00:00Z', '2026-01-14T00:00:00Z');
    const someoneElse = away(2, '2026-01-12T00:00:00Z', '2026-01-13T00:00:00Z');
    const after = away(1, '2026-01-19T00:00:00Z', '2026-01-20T00:00:00Z');
    expect(scheduleCollisions([entry], [after, later, someoneElse, earlier])).toEqual([
      { entry, timeOff: earlier },
    ]);
    expect(scheduleCollisions([entry], [after])).toEqual([]);
  });
});

describe('timeOffImpact', () => {
  const held = (userId: number, start: string, end: string) => ({
    userId,
    start: at(start),
    end: at(end),
  });
  const moves = (
    before: ReturnType<typeof held>[],
    after: ReturnType<typeof held>[],
  ): [number, number | null, string, string][] =>
    timeOffImpact(before, after).map((m) => [
      m.fromUserId,
      m.toUserId,
      m.start.toISOString(),
      m.end.toISOString(),
    ]);

  test('nothing changes: no moves', () => {
    const same = [held(1, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')];
    expect(moves(same, same)).toEqual([]);
    expect(moves([], [])).toEqual([]);
  });

  test('a shift given to someone else, and one left to nobody, each with its stretch', () => {
    const before = [
      held(1, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z'),
      held(2, '2026-01-19T09:00:00Z', '2026-01-26T09:00:00Z'),
      held(3, '2026-01-26T09:00:00Z', '2026-02-02T09:00:00Z'),
    ];
    const after = [
      held(1, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z'),
      held(3, '2026-01-19T09:00:00Z', '2026-01-26T09:00:00Z'),
      held(3, '2026-01-26T09:00:00Z', '2026-01-30T09:00:00Z'),
    ];
    expect(moves(before, after)).toEqual([
      [2, 3, '2026-01-19T09:00:00.000Z', '2026-01-26T09:00:00.000Z'],
      [3, null, '2026-01-30T09:00:00.000Z', '2026-02-02T09:00:00.000Z'],
    ]);
  });

  test('back-to-back stretches of the same change are one; a different change starts another', () => {
    const before = [
      held(1, '2026-01-12T09:00:00Z', '2026-01-13T09:00:00Z'),
      held(1, '2026-01-13T09:00:00Z', '2026-01-14T09:00:00Z'),
      held(1, '2026-01-14T09:00:00Z', '2026-01-15T09:00:00Z'),
      held(2, '2026-01-15T09:00:00Z', '2026-01-16T09:00:00Z'),
    ];
    const after = [
      held(2, '2026-01-12T09:00:00Z', '2026-01-13T09:00:00Z'),
      held(2, '2026-01-13T09:00:00Z', '2026-01-14T09:00:00Z'),
      held(3, '2026-01-14T09:00:00Z', '2026-01-15T09:00:00Z'),
      held(3, '2026-01-15T09:00:00Z', '2026-01-16T09:00:00Z'),
    ];
    expect(moves(before, after)).toEqual([
      [1, 2, '2026-01-12T09:00:00.000Z', '2026-01-14T09:00:00.000Z'],
      [1, 3, '2026-01-14T09:00:00.000Z', '2026-01-15T09:00:00.000Z'],
      [2, 3, '2026-01-15T09:00:00.000Z', '2026-01-16T09:00:00.000Z'],
    ]);
  });

  test('the same change after a stretch that does not move is a move of its own', () => {
    const before = [
      held(1, '2026-01-12T09:00:00Z', '2026-01-13T09:00:00Z'),
      held(2, '2026-01-13T09:00:00Z', '2026-01-14T09:00:00Z'),
      held(1, '2026-01-14T09:00:00Z', '2026-01-15T09:00:00Z'),
    ];
    const after = [
      held(3, '2026-01-12T09:00:00Z', '2026-01-13T09:00:00Z'),
      held(2, '2026-01-13T09:00:00Z', '2026-01-14T09:00:00Z'),
      held(3, '2026-01-14T09:00:00Z', '2026-01-15T09:00:00Z'),
    ];
    expect(moves(before, after)).toEqual([
      [1, 3, '2026-01-12T09:00:00.000Z', '2026-01-13T09:00:00.000Z'],
      [1, 3, '2026-01-14T09:00:00.000Z', '2026-01-15T09:00:00.000Z'],
    ]);
  });

  test('a stretch nobody held before is no move; stretches in any order, cut where either side changes', () => {
    const before = [
      held(2, '2026-01-14T00:00:00Z', '2026-01-16T00:00:00Z'),
      held(1, '2026-01-12T00:00:00Z', '2026-01-13T00:00:00Z'),
    ];
    const after = [
      held(1, '2026-01-12T00:00:00Z', '2026-01-13T00:00:00Z'),
      held(4, '2026-01-13T00:00:00Z', '2026-01-15T00:00:00Z'),
      held(2, '2026-01-15T00:00:00Z', '2026-01-16T00:00:00Z'),
    ];
    expect(moves(before, after)).toEqual([
      [2, 4, '2026-01-14T00:00:00.000Z', '2026-01-15T00:00:00.000Z'],
    ]);
  });
});
