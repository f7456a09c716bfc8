import { describe, expect, test } from 'vitest';
import type { Actor, Role } from './roles';
import {
  canPassBaton,
  canReassign,
  canRequestCoverage,
  canTakeOnCall,
  changeTypeRefusal,
  coverageCandidates,
  coverageRefusal,
  isPermutation,
  memberAfter,
  memberIdAfter,
  memberStatus,
  nextMemberOrder,
  nextOnCall,
  pageRefusal,
  passBatonRefusal,
  type RotationState,
  reassignRefusal,
  type ScheduleWindow,
  START_TIME_GRACE_MS,
  scheduleEntryRefusal,
  scheduleStatus,
  schedulesOverlap,
  successorOf,
  takeOnCallRefusal,
} from './rotation';

const NOW = new Date('2026-03-10T12:00:00Z');
const at = (offsetHours: number) => new Date(NOW.getTime() + offsetHours * 3_600_000);
const iso = (offsetHours: number) => at(offsetHours).toISOString();

/** fixed builds a fixed rotation of the given member ids (in that order) and holder. */
const fixed = (
  memberIds: number[],
  holder: number | null = null,
  extra: Partial<RotationState> = {},
): RotationState => ({
  type: 'fixed',
  suspended: false,
  currentOnCallUserId: holder,
  members: memberIds.map((userId, order) => ({ userId, order })),
  ...extra,
});

const onCall = (id: number): Actor => ({ id, roles: ['on-call'] });
const as = (id: number, ...roles: Role[]): Actor => ({ id, roles });

describe('nextOnCall', () => {
  test.each<[string, RotationState, number | null]>([
    ['no members: no one', fixed([]), null],
    ['no holder: the first member', fixed([1, 2, 3]), 1],
    ['the member after the holder', fixed([1, 2, 3], 1), 2],
    ['wraps around after the last member', fixed([1, 2, 3], 3), 1],
    ['one member holding the baton: no one', fixed([7], 7), null],
    ['one member, nobody holds: still no one', fixed([7]), null],
    ['two members: the other one', fixed([4, 9], 9), 4],
    [
      'follows order, not list position',
      {
        ...fixed([]),
        currentOnCallUserId: 5,
        members: [
          { userId: 5, order: 2 },
          { userId: 6, order: 0 },
          { userId: 8, order: 1 },
        ],
      },
      6,
    ],
    ['a holder who is not a member: the first member', fixed([1, 2], 99), 1],
  ])('%s', (_name, rotation, expected) => {
    expect(nextOnCall(rotation, NOW)).toBe(expected);
  });

  const schedule: ScheduleWindow[] = [
    { userId: 1, startTime: iso(-48), endTime: iso(-24) },
    { userId: 2, startTime: iso(-1), endTime: iso(5) },
    { userId: 4, startTime: iso(30), endTime: iso(40) },
    { userId: 3, startTime: iso(5), endTime: iso(30) },
  ];
  test.each<[string, ScheduleWindow[] | undefined, Date, number | null]>([
    ['scheduled: the user of the next entry after now', schedule, NOW, 3],
    ['scheduled: later on, the entry after that', schedule, at(6), 4],
    ['scheduled: an entry starting exactly now is not next', schedule, at(5), 4],
    ['scheduled: nothing upcoming, no one', schedule, at(31), null],
    ['scheduled: no schedule known, no one', undefined, NOW, null],
    ['scheduled: accepts Date values', [{ userId: 8, startTime: at(2), endTime: at(3) }], NOW, 8],
  ])('%s', (_name, entries, now, expected) => {
    const rotation = fixed([1, 2, 3, 4], 2, { type: 'scheduled', schedule: entries });
    expect(nextOnCall(rotation, now)).toBe(expected);
  });
});

describe('memberAfter and memberIdAfter', () => {
  // The rule: the member after the holder in order, wrapping around; with no holder, the
  // first member; with one member, no one (decision 120).
  test.each<[number[], number | null, number | null]>([
    [[1, 2, 3], 1, 2],
    [[1, 2, 3], 2, 3],
    [[1, 2, 3], 3, 1],
    [[1, 2, 3], null, 1],
    [[1, 2, 3], 99, 1],
    [[4, 9], 9, 4],
    [[1], 1, null],
    [[1], null, null],
    [[1], 99, null],
    [[], null, null],
  ])('%j after %s → %s', (ids, userId, expected) => {
    expect(memberIdAfter(ids, userId)).toBe(expected);
    expect(memberAfter(fixed(ids).members, userId)).toBe(expected);
  });

  test('memberAfter follows the order field, not list position', () => {
    const members = [
      { userId: 5, order: 2 },
      { userId: 6, order: 0 },
      { userId: 8, order: 1 },
    ];
    expect(memberAfter(members, 6)).toBe(8);
    expect(memberAfter(members, 5)).toBe(6);
    expect(memberAfter(members, null)).toBe(6);
  });
});

describe('memberStatus', () => {
  const rotation = { currentOnCallUserId: 1, nextOnCall: { id: 2 } };
  test.each([
    [1, 'current'],
    [2, 'next'],
    [3, 'in_rotation'],
  ])('user %i is %s', (userId, expected) => {
    expect(memberStatus(rotation, userId)).toBe(expected);
  });
  test('nobody holds and nobody is next: everyone is in rotation', () => {
    expect(memberStatus({ currentOnCallUserId: null, nextOnCall: null }, 1)).toBe('in_rotation');
  });
});

describe('take on-call', () => {
  test.each<[string, RotationState, Actor, string | null]>([
    ['a member when no one holds the baton', fixed([1, 2]), onCall(1), null],
    ['a manager member', fixed([1, 2]), as(1, 'manager'), null],
    ['an admin member (counts as manager)', fixed([1, 2]), as(1, 'admin'), null],
    ['someone already holds it', fixed([1, 2], 2), onCall(1), 'BATON_ALREADY_HELD'],
    ['the caller already holds it', fixed([1, 2], 1), onCall(1), 'BATON_ALREADY_HELD'],
    ['not a member', fixed([1, 2]), onCall(3), 'NOT_A_MEMBER'],
    ['an incident manager never holds', fixed([1, 2]), as(1, 'incident_manager'), 'FORBIDDEN'],
    [
      'an incident manager who is also on-call may',
      fixed([1, 2]),
      as(1, 'incident_manager', 'on-call'),
      null,
    ],
    [
      'a suspended rotation',
      fixed([1, 2], null, { suspended: true }),
      onCall(1),
      'ROTATION_SUSPENDED',
    ],
  ])('%s', (_name, rotation, actor, code) => {
    expect(takeOnCallRefusal(rotation, actor)?.code ?? null).toBe(code);
    expect(canTakeOnCall(rotation, actor)).toBe(code === null);
  });
});

describe('pass the baton', () => {
  test.each<
    [string, RotationState, Actor, { id: number; roles?: Role[] } | undefined, string | null]
  >([
    ['the holder to another member', fixed([1, 2], 1), onCall(1), { id: 2 }, null],
    ['the holder, no receiver chosen yet', fixed([1, 2], 1), onCall(1), undefined, null],
    ['not the holder', fixed([1, 2], 2), onCall(1), { id: 2 }, 'NOT_ON_CALL'],
    ['nobody holds the baton', fixed([1, 2]), onCall(1), { id: 2 }, 'NOT_ON_CALL'],
    ['to themselves', fixed([1, 2], 1), onCall(1), { id: 1 }, 'BAD_REQUEST'],
    ['to a non-member', fixed([1, 2], 1), onCall(1), { id: 3 }, 'NOT_A_MEMBER'],
    [
      'to a member who cannot hold the baton',
      fixed([1, 2], 1),
      onCall(1),
      { id: 2, roles: ['incident_manager'] },
      'CANNOT_HOLD_BATON',
    ],
    ['to a manager member', fixed([1, 2], 1), onCall(1), { id: 2, roles: ['manager'] }, null],
    [
      'an incident manager (somehow the holder)',
      fixed([1, 2], 1),
      as(1, 'incident_manager'),
      { id: 2 },
      'FORBIDDEN',
    ],
    [
      'a suspended rotation',
      fixed([1, 2], 1, { suspended: true }),
      onCall(1),
      { id: 2 },
      'ROTATION_SUSPENDED',
    ],
  ])('%s', (_name, rotation, actor, receiver, code) => {
    expect(passBatonRefusal(rotation, actor, receiver)?.code ?? null).toBe(code);
    expect(canPassBaton(rotation, actor, receiver)).toBe(code === null);
  });
});

describe('reassign', () => {
  test.each<
    [string, RotationState, Actor, { id: number; roles?: Role[] } | undefined, string | null]
  >([
    [
      'a manager to a member other than the holder',
      fixed([1, 2, 3], 1),
      as(9, 'manager'),
      { id: 2 },
      null,
    ],
    ['an admin', fixed([1, 2, 3], 1), as(9, 'admin'), { id: 3 }, null],
    ['when nobody holds the baton', fixed([1, 2]), as(9, 'manager'), { id: 2 }, null],
    ['to the holder', fixed([1, 2], 1), as(9, 'manager'), { id: 1 }, 'CONFLICT'],
    ['to a non-member', fixed([1, 2], 1), as(9, 'manager'), { id: 5 }, 'NOT_A_MEMBER'],
    [
      'to a member who cannot hold',
      fixed([1, 2], 1),
      as(9, 'manager'),
      { id: 2, roles: ['incident_manager'] },
      'CANNOT_HOLD_BATON',
    ],
    ['an on-call member', fixed([1, 2], 1), onCall(2), { id: 2 }, 'FORBIDDEN'],
    ['an incident manager', fixed([1, 2], 1), as(9, 'incident_manager'), { id: 2 }, 'FORBIDDEN'],
    [
      'a suspended rotation',
      fixed([1, 2], 1, { suspended: true }),
      as(9, 'manager'),
      { id: 2 },
      'ROTATION_SUSPENDED',
    ],
  ])('%s', (_name, rotation, actor, receiver, code) => {
    expect(reassignRefusal(rotation, actor, receiver)?.code ?? null).toBe(code);
    expect(canReassign(rotation, actor, receiver)).toBe(code === null);
  });
});

describe('coverage', () => {
  const ask = (coveringId: number, start = iso(1), end = iso(10), roles?: Role[]) => ({
    coveringUser: { id: coveringId, roles },
    startTime: start,
    endTime: end,
  });
  const grace = START_TIME_GRACE_MS / 3_600_000;
  test.each<[string, RotationState, Actor, ReturnType<typeof ask>, string | null, string?]>([
    ['the holder asks another member', fixed([1, 2], 1), onCall(1), ask(2), null],
    ['starting now', fixed([1, 2], 1), onCall(1), ask(2, iso(0)), null],
    [
      'starting a moment ago (within the grace)',
      fixed([1, 2], 1),
      onCall(1),
      ask(2, iso(-grace / 2)),
      null,
    ],
    [
      'not the holder',
      fixed([1, 2], 2),
      onCall(1),
      ask(2),
      'NOT_ON_CALL',
      'You must be on-call to request coverage',
    ],
    ['covering themselves', fixed([1, 2], 1), onCall(1), ask(1), 'BAD_REQUEST'],
    ['a non-member covers', fixed([1, 2], 1), onCall(1), ask(3), 'NOT_A_MEMBER'],
    [
      'an incident manager covers',
      fixed([1, 2], 1),
      onCall(1),
      ask(2, iso(1), iso(2), ['incident_manager']),
      'CANNOT_HOLD_BATON',
    ],
    [
      'starting in the past',
      fixed([1, 2], 1),
      onCall(1),
      ask(2, iso(-1)),
      'VALIDATION_FAILED',
      'Start time cannot be in the past',
    ],
    [
      'ending before it starts',
      fixed([1, 2], 1),
      onCall(1),
      ask(2, iso(2), iso(1)),
      'VALIDATION_FAILED',
      'End time must be after start time',
    ],
    ['an unparsable start', fixed([1, 2], 1), onCall(1), ask(2, 'soon'), 'VALIDATION_FAILED'],
    [
      'a suspended rotation',
      fixed([1, 2], 1, { suspended: true }),
      onCall(1),
      ask(2),
      'ROTATION_SUSPENDED',
    ],
  ])('%s', (_name, rotation, actor, request, code, message) => {
    const refusal = coverageRefusal(rotation, actor, request, NOW);
    expect(refusal?.code ?? null).toBe(code);
    if (message) expect(refusal?.message).toBe(message);
  });

  test('canRequestCoverage: only the holder of an active rotation', () => {
    expect(canRequestCoverage(fixed([1, 2], 1), onCall(1))).toBe(true);
    expect(canRequestCoverage(fixed([1, 2], 1), onCall(2))).toBe(false);
    expect(canRequestCoverage(fixed([1, 2], 1, { suspended: true }), onCall(1))).toBe(false);
  });

  test('coverageCandidates: the other members, in order', () => {
    const members = [
      { userId: 3, order: 1 },
      { userId: 1, order: 2 },
      { userId: 2, order: 0 },
    ];
    expect(coverageCandidates(members, 1).map((m) => m.userId)).toEqual([2, 3]);
  });
});

describe('scheduleStatus', () => {
  test.each<[string, string, string, string]>([
    ['Current', iso(-1), iso(1), 'now inside the window'],
    ['Current', iso(0), iso(1), 'starting exactly now'],
    ['Past', iso(-2), iso(-1), 'ended before now'],
    ['Past', iso(-2), iso(0), 'ending exactly now'],
    ['Upcoming', iso(1), iso(2), 'starting later'],
    ['Unknown', 'not a date', iso(2), 'an unparsable start'],
    ['Unknown', iso(1), '', 'an empty end'],
    ['Unknown', iso(2), iso(1), 'ending before it starts'],
  ])('%s: %s → %s (%s)', (expected, start, end) => {
    expect(scheduleStatus({ startTime: start, endTime: end }, NOW)).toBe(expected);
  });
});

describe('schedulesOverlap', () => {
  const w = (s: number, e: number) => ({ startTime: iso(s), endTime: iso(e) });
  test.each<[string, ReturnType<typeof w>, ReturnType<typeof w>, boolean]>([
    ['disjoint', w(0, 1), w(2, 3), false],
    ['touching ends', w(0, 1), w(1, 2), false],
    ['partial overlap', w(0, 2), w(1, 3), true],
    ['one inside the other', w(0, 10), w(2, 3), true],
    ['identical', w(0, 1), w(0, 1), true],
  ])('%s', (_name, a, b, expected) => {
    expect(schedulesOverlap(a, b)).toBe(expected);
    expect(schedulesOverlap(b, a)).toBe(expected);
  });
});

describe('scheduleEntryRefusal', () => {
  const rotation = fixed([1, 2, 3], 1);
  const existing: ScheduleWindow[] = [
    { userId: 1, startTime: iso(10), endTime: iso(20) },
    { userId: 2, startTime: iso(30), endTime: iso(40) },
  ];
  const entry = (userId: number, s: number, e: number, roles?: Role[]) => ({
    userId,
    startTime: iso(s),
    endTime: iso(e),
    roles,
  });
  test.each<[string, ReturnType<typeof entry>, string | null]>([
    ['a free window', entry(3, 20, 30), null],
    ['starting now', entry(3, 0, 5), null],
    ['overlapping an entry', entry(3, 15, 25), 'SCHEDULE_OVERLAP'],
    ['covering an entry', entry(3, 5, 50), 'SCHEDULE_OVERLAP'],
    ['in the past', entry(3, -5, 5), 'VALIDATION_FAILED'],
    ['end before start', entry(3, 5, 4), 'VALIDATION_FAILED'],
    ['not a member', entry(9, 1, 2), 'NOT_A_MEMBER'],
    [
      'a member who cannot hold the baton',
      entry(3, 1, 2, ['incident_manager']),
      'CANNOT_HOLD_BATON',
    ],
  ])('%s', (_name, candidate, code) => {
    expect(scheduleEntryRefusal(rotation, candidate, existing, NOW)?.code ?? null).toBe(code);
  });
});

describe('changeTypeRefusal', () => {
  test.each<['fixed' | 'scheduled', number, string | null]>([
    ['scheduled', 0, 'SCHEDULE_REQUIRED'],
    ['scheduled', 1, null],
    ['fixed', 0, null],
  ])('to %s with %i entries → %s', (type, count, code) => {
    const refusal = changeTypeRefusal(type, count);
    expect(refusal?.code ?? null).toBe(code);
    if (code) expect(refusal?.message).toContain('without at least one schedule entry');
  });
});

describe('isPermutation', () => {
  const ids = [10, 11, 12];
  test.each<[string, { id: number; order: number }[], boolean]>([
    [
      'every member once, orders 0..2',
      [
        { id: 12, order: 0 },
        { id: 10, order: 1 },
        { id: 11, order: 2 },
      ],
      true,
    ],
    [
      'a member missing',
      [
        { id: 12, order: 0 },
        { id: 10, order: 1 },
      ],
      false,
    ],
    [
      'a stranger instead of a member',
      [
        { id: 12, order: 0 },
        { id: 10, order: 1 },
        { id: 99, order: 2 },
      ],
      false,
    ],
    [
      'a member twice',
      [
        { id: 12, order: 0 },
        { id: 12, order: 1 },
        { id: 11, order: 2 },
      ],
      false,
    ],
    [
      'an order twice',
      [
        { id: 12, order: 0 },
        { id: 10, order: 0 },
        { id: 11, order: 2 },
      ],
      false,
    ],
    [
      'orders with a gap',
      [
        { id: 12, order: 0 },
        { id: 10, order: 1 },
        { id: 11, order: 3 },
      ],
      false,
    ],
    ['empty list for no members', [], false],
  ])('%s → %s', (_name, proposed, expected) => {
    expect(isPermutation(ids, proposed)).toBe(expected);
  });
  test('an empty rotation accepts only an empty list', () => {
    expect(isPermutation([], [])).toBe(true);
  });
});

describe('nextMemberOrder', () => {
  test.each<[number[], number]>([
    [[], 0],
    [[0], 1],
    [[0, 1, 2], 3],
    [[0, 5], 6],
  ])('%j → %i', (orders, expected) => {
    expect(nextMemberOrder(orders.map((order, i) => ({ userId: i, order })))).toBe(expected);
  });
});

describe('pageRefusal', () => {
  test.each<[string, RotationState, string | null]>([
    ['a rotation with a holder', fixed([1], 1), null],
    ['no holder', fixed([1]), 'NO_ONE_ON_CALL'],
    ['suspended', fixed([1], 1, { suspended: true }), 'ROTATION_SUSPENDED'],
  ])('%s', (_name, rotation, code) => {
    expect(pageRefusal(rotation)?.code ?? null).toBe(code);
  });
});

describe('successorOf', () => {
  const m = (userId: number, order: number, ...roles: Role[]) => ({ userId, order, roles });
  test.each<[string, ReturnType<typeof m>[], number, number | null]>([
    ['the next member', [m(1, 0, 'on-call'), m(2, 1, 'on-call'), m(3, 2, 'on-call')], 1, 2],
    ['wraps around', [m(1, 0, 'on-call'), m(2, 1, 'on-call'), m(3, 2, 'on-call')], 3, 1],
    [
      'skips a member who cannot hold the baton',
      [m(1, 0, 'on-call'), m(2, 1, 'incident_manager'), m(3, 2, 'manager')],
      1,
      3,
    ],
    ['the only member: no one', [m(1, 0, 'on-call')], 1, null],
    [
      'someone not a member: the first who may hold it, the first member included',
      [m(1, 0, 'on-call'), m(2, 1, 'on-call')],
      9,
      1,
    ],
    [
      'someone not a member, the first unable to hold it: the next',
      [m(1, 0, 'incident_manager'), m(2, 1, 'on-call')],
      9,
      2,
    ],
    ['someone not a member of an empty rotation: no one', [], 9, null],
    ['nobody eligible: no one', [m(1, 0, 'on-call'), m(2, 1, 'incident_manager')], 1, null],
  ])('%s', (_name, members, userId, expected) => {
    expect(successorOf(members, userId)).toBe(expected);
  });
});
