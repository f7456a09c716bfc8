import { describe, expect, test } from 'vitest';
import {
  type CoverPlanAsk,
  type CoverPlanRotation,
  coverPlanRefusal,
  holdsThroughout,
  rankCoverCandidates,
} from './cover-plans';
import type { Role } from './roles';

const at = (iso: string) => new Date(iso);
const now = at('2026-11-04T12:00:00Z');
const rotation = (over: Partial<CoverPlanRotation> = {}): CoverPlanRotation => ({
  suspended: false,
  memberIds: [1, 2, 3],
  actorMayArrange: false,
  ...over,
});
const ask = (over: Partial<CoverPlanAsk> = {}): CoverPlanAsk => ({
  requesterId: 1,
  covering: { id: 2, roles: ['on-call'] },
  startTime: '2026-11-10T09:00:00Z',
  endTime: '2026-11-11T09:00:00Z',
  ...over,
});
const member = (roles: Role[] = ['on-call']) => ({ id: 1, roles });

describe('coverPlanRefusal', () => {
  test.each([
    ['a member asks another member', rotation(), member(), ask(), null],
    [
      'a start within the grace of now still counts',
      rotation(),
      member(),
      ask({ startTime: '2026-11-04T11:57:00Z' }),
      null,
    ],
    ['an incident manager may not', rotation(), member(['incident_manager']), ask(), 'FORBIDDEN'],
    [
      'an on-call member may not arrange for someone else',
      rotation(),
      member(),
      ask({ requesterId: 3 }),
      'FORBIDDEN',
    ],
    [
      'a manager of the rotation may',
      rotation({ actorMayArrange: true }),
      member(['manager']),
      ask({ requesterId: 3 }),
      null,
    ],
    ['a suspended rotation', rotation({ suspended: true }), member(), ask(), 'ROTATION_SUSPENDED'],
    ['not a member', rotation({ memberIds: [2, 3] }), member(), ask(), 'NOT_A_MEMBER'],
    [
      'covering oneself',
      rotation(),
      member(),
      ask({ covering: { id: 1, roles: ['on-call'] } }),
      'BAD_REQUEST',
    ],
    [
      'a covering user outside the rotation',
      rotation(),
      member(),
      ask({ covering: { id: 9, roles: ['on-call'] } }),
      'NOT_A_MEMBER',
    ],
    [
      'a covering user who cannot hold the baton',
      rotation(),
      member(),
      ask({ covering: { id: 2, roles: ['incident_manager'] } }),
      'CANNOT_HOLD_BATON',
    ],
    [
      'a window in the past',
      rotation(),
      member(),
      ask({ startTime: '2026-11-03T09:00:00Z' }),
      'VALIDATION_FAILED',
    ],
    [
      'an end before the start',
      rotation(),
      member(),
      ask({ endTime: '2026-11-10T08:00:00Z' }),
      'VALIDATION_FAILED',
    ],
    [
      'more than a year ahead',
      rotation(),
      member(),
      ask({ endTime: '2027-11-10T09:00:00Z' }),
      'VALIDATION_FAILED',
    ],
  ] as const)('%s', (_name, r, actor, a, code) => {
    expect(coverPlanRefusal(r, actor, a, now)?.code ?? null).toBe(code);
  });
});

describe('holdsThroughout', () => {
  const shifts = [
    { userId: 1, start: at('2026-11-09T09:00:00Z'), end: at('2026-11-12T09:00:00Z') },
    { userId: 2, start: at('2026-11-12T09:00:00Z'), end: at('2026-11-12T17:00:00Z') },
    { userId: 1, start: at('2026-11-12T17:00:00Z'), end: at('2026-11-16T09:00:00Z') },
  ];
  test.each([
    ['inside one shift', '2026-11-10T09:00:00Z', '2026-11-11T09:00:00Z', true],
    [
      'the whole first shift, touching its ends',
      '2026-11-09T09:00:00Z',
      '2026-11-12T09:00:00Z',
      true,
    ],
    ['across someone else’s stretch', '2026-11-11T09:00:00Z', '2026-11-13T09:00:00Z', false],
    ['starting before their shift', '2026-11-09T08:00:00Z', '2026-11-10T09:00:00Z', false],
    ['past their last shift', '2026-11-15T09:00:00Z', '2026-11-17T09:00:00Z', false],
  ])('%s', (_name, start, end, expected) => {
    expect(holdsThroughout(shifts, 1, at(start), at(end))).toBe(expected);
  });
  test('back-to-back shifts of the same person count as one', () => {
    const split = [
      { userId: 1, start: at('2026-11-10T00:00:00Z'), end: at('2026-11-11T00:00:00Z') },
      { userId: 1, start: at('2026-11-11T00:00:00Z'), end: at('2026-11-12T00:00:00Z') },
    ];
    expect(holdsThroughout(split, 1, at('2026-11-10T12:00:00Z'), at('2026-11-11T12:00:00Z'))).toBe(
      true,
    );
  });
});

test('rankCoverCandidates offers those available first, then the fewest hours, then by name', () => {
  const ranked = rankCoverCandidates([
    { userId: 1, name: 'Zoe', onCallHours: 10, onTimeOff: false },
    { userId: 2, name: 'Abe', onCallHours: 0, onTimeOff: true },
    { userId: 3, name: 'Bea', onCallHours: 10, onTimeOff: false },
    { userId: 4, name: 'Cy', onCallHours: 2, onTimeOff: false },
  ]);
  expect(ranked.map((c) => c.name)).toEqual(['Cy', 'Bea', 'Zoe', 'Abe']);
});
