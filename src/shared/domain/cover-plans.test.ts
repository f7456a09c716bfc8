import { describe, expect, test } from 'vitest';
import {
  COVER_PLAN_MAX_DAYS_AHEAD,
  COVER_PLAN_MESSAGES,
  type CoverPlanAsk,
  type CoverPlanRotation,
  coverPlanRefusal,
  holdsThroughout,
  notHeldMessage,
  overlapMessage,
  rankCoverCandidates,
} from './cover-plans';
import type { Role } from './roles';
import { ROTATION_MESSAGES, START_TIME_GRACE_MS } from './rotation';

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

describe('coverPlanRefusal: the field at fault and the edges of the window', () => {
  const DAY = 86_400_000;
  const refused = (
    a: Partial<CoverPlanAsk>,
    r: Partial<CoverPlanRotation> = {},
    actor = member(),
  ) => coverPlanRefusal(rotation(r), actor, ask(a), now);
  test.each([
    [
      'arranging for someone not in the rotation',
      refused({ requesterId: 9 }, { actorMayArrange: true }, { id: 1, roles: ['manager'] }),
      {
        code: 'NOT_A_MEMBER',
        message: COVER_PLAN_MESSAGES.requesterNotMember,
        field: 'requesterId',
      },
    ],
    [
      'covering oneself',
      refused({ covering: { id: 1, roles: ['on-call'] } }),
      { code: 'BAD_REQUEST', message: ROTATION_MESSAGES.coverageSelf, field: 'coveringUserId' },
    ],
    [
      'a cover from outside the rotation',
      refused({ covering: { id: 9, roles: ['on-call'] } }),
      { code: 'NOT_A_MEMBER', message: ROTATION_MESSAGES.targetNotMember, field: 'coveringUserId' },
    ],
    [
      'a cover who cannot hold the baton',
      refused({ covering: { id: 2, roles: ['incident_manager'] } }),
      {
        code: 'CANNOT_HOLD_BATON',
        message: ROTATION_MESSAGES.targetCannotHold,
        field: 'coveringUserId',
      },
    ],
    [
      'a start that is no time',
      refused({ startTime: 'soon' }),
      { code: 'VALIDATION_FAILED', message: ROTATION_MESSAGES.startInvalid, field: 'startTime' },
    ],
    [
      'an end that is no time',
      refused({ endTime: 'later' }),
      { code: 'VALIDATION_FAILED', message: ROTATION_MESSAGES.endInvalid, field: 'endTime' },
    ],
    [
      'a start in the past',
      refused({ startTime: '2026-11-04T11:00:00Z' }),
      { code: 'VALIDATION_FAILED', message: ROTATION_MESSAGES.startInPast, field: 'startTime' },
    ],
    [
      'an end at the start',
      refused({ endTime: '2026-11-10T09:00:00Z' }),
      { code: 'VALIDATION_FAILED', message: ROTATION_MESSAGES.endBeforeStart, field: 'endTime' },
    ],
    [
      'an end too far ahead',
      refused({ endTime: '2027-11-10T09:00:00Z' }),
      { code: 'VALIDATION_FAILED', message: COVER_PLAN_MESSAGES.tooFarAhead, field: 'endTime' },
    ],
  ])('%s', (_name, refusal, expected) => {
    expect(refusal).toEqual(expected);
  });

  test('a start just inside the grace, and an end exactly as far ahead as allowed, are fine', () => {
    const graceStart = new Date(now.getTime() - START_TIME_GRACE_MS);
    const farthest = new Date(now.getTime() + COVER_PLAN_MAX_DAYS_AHEAD * DAY);
    expect(refused({ startTime: graceStart, endTime: farthest })).toBeNull();
  });
});

test('the refusals that name who and when', () => {
  expect(notHeldMessage('Ada', true)).toBe(COVER_PLAN_MESSAGES.notHeldBySelf);
  expect(notHeldMessage('Ada', false)).toBe(
    'Ada is not on call for all of this window. Choose a window within their upcoming shifts.',
  );
  expect(notHeldMessage(null, false)).toBe(
    'That person is not on call for all of this window. Choose a window within their upcoming shifts.',
  );
  expect(
    overlapMessage({
      coveringName: 'Bo',
      requesterName: 'Ada',
      from: 'Mon 09:00',
      until: 'Tue 09:00',
    }),
  ).toBe(
    'This window overlaps other cover in this rotation: Bo covers Ada from Mon 09:00 until Tue 09:00.',
  );
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
  test('shifts in any order; one ending at the window’s start adds nothing; a window ending where their shift ends is held', () => {
    const unordered = [
      { userId: 1, start: at('2026-11-11T00:00:00Z'), end: at('2026-11-12T00:00:00Z') },
      { userId: 1, start: at('2026-11-09T00:00:00Z'), end: at('2026-11-10T00:00:00Z') },
      { userId: 1, start: at('2026-11-10T00:00:00Z'), end: at('2026-11-11T00:00:00Z') },
    ];
    expect(
      holdsThroughout(unordered, 1, at('2026-11-09T12:00:00Z'), at('2026-11-12T00:00:00Z')),
    ).toBe(true);
    const touching = [
      { userId: 1, start: at('2026-11-09T00:00:00Z'), end: at('2026-11-10T00:00:00Z') },
      { userId: 1, start: at('2026-11-10T06:00:00Z'), end: at('2026-11-11T00:00:00Z') },
    ];
    expect(
      holdsThroughout(touching, 1, at('2026-11-10T00:00:00Z'), at('2026-11-10T12:00:00Z')),
    ).toBe(false);
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
