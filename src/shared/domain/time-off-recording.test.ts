import { describe, expect, test } from 'vitest';
import {
  type AwayWindow,
  canManageTimeOff,
  scheduleCollisions,
  TIME_OFF_MESSAGES,
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
});
