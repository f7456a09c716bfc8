import { describe, expect, test } from 'vitest';
import type { Actor, Role } from './roles';
import {
  canHoldBaton,
  changeTypeRefusal,
  coverageRefusal,
  isPermutation,
  MEMBER_STATUS_LABELS,
  nextOnCall,
  nextTurn,
  passBatonRefusal,
  ROTATION_MESSAGES,
  type RotationState,
  reassignRefusal,
  START_TIME_GRACE_MS,
  scheduleEntryRefusal,
  scheduleStatus,
  successorOf,
  takeOnCallRefusal,
  turnAfterHandChange,
  turnOwnerOf,
} from './rotation';

// The edges of rotation.ts that rotation.test.ts leaves open (issue 36, mutation testing): each
// refusal with its code, message and field, the window's edges, reorders that are not
// permutations, and the turn rules with one or two members.

const NOW = new Date('2026-03-10T12:00:00Z');
const at = (offsetHours: number) => new Date(NOW.getTime() + offsetHours * 3_600_000);
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
const NO_HOLD: Role[] = ['incident_manager'];
const shift = { start: at(1), end: at(25) };

test('an incident manager alone cannot hold the baton (the role these tests refuse)', () => {
  expect(canHoldBaton(NO_HOLD)).toBe(false);
});

describe('refusals name their field', () => {
  const rotation = fixed([1, 2, 3], 1);
  test('taking the baton one already holds', () => {
    expect(takeOnCallRefusal(rotation, onCall(1))).toEqual({
      code: 'BATON_ALREADY_HELD',
      message: ROTATION_MESSAGES.youAlreadyHold,
    });
  });
  test('passing: to oneself, to a non-member, to someone who cannot hold it', () => {
    expect(passBatonRefusal(rotation, onCall(1), { id: 1 })).toEqual({
      code: 'BAD_REQUEST',
      message: ROTATION_MESSAGES.passToSelf,
      field: 'toUserId',
    });
    expect(passBatonRefusal(rotation, onCall(1), { id: 9 })).toEqual({
      code: 'NOT_A_MEMBER',
      message: ROTATION_MESSAGES.targetNotMember,
      field: 'toUserId',
    });
    expect(passBatonRefusal(rotation, onCall(1), { id: 2, roles: NO_HOLD })).toEqual({
      code: 'CANNOT_HOLD_BATON',
      message: ROTATION_MESSAGES.targetCannotHold,
      field: 'toUserId',
    });
  });
  test('reassigning: no receiver yet is allowed, the holder is a conflict', () => {
    expect(reassignRefusal(rotation, as(5, 'manager'))).toBeNull();
    expect(reassignRefusal(rotation, as(5, 'manager'), { id: 1 })).toEqual({
      code: 'CONFLICT',
      message: ROTATION_MESSAGES.reassignToHolder,
      field: 'toUserId',
    });
  });
  test('coverage: the asker’s roles, oneself, the coverer, the window', () => {
    const ask = (coveringUser: { id: number; roles?: Role[] }, start: Date, end: Date) => ({
      coveringUser,
      startTime: start,
      endTime: end,
    });
    expect(coverageRefusal(rotation, as(1, ...NO_HOLD), ask({ id: 2 }, at(1), at(2)), NOW)).toEqual(
      {
        code: 'FORBIDDEN',
        message: ROTATION_MESSAGES.cannotHold,
      },
    );
    expect(coverageRefusal(rotation, onCall(1), ask({ id: 1 }, at(1), at(2)), NOW)).toEqual({
      code: 'BAD_REQUEST',
      message: ROTATION_MESSAGES.coverageSelf,
      field: 'coveringUserId',
    });
    expect(coverageRefusal(rotation, onCall(1), ask({ id: 9 }, at(1), at(2)), NOW)).toEqual({
      code: 'NOT_A_MEMBER',
      message: ROTATION_MESSAGES.targetNotMember,
      field: 'coveringUserId',
    });
    const window = (startTime: string | Date, endTime: string | Date) =>
      coverageRefusal(rotation, onCall(1), { coveringUser: { id: 2 }, startTime, endTime }, NOW);
    expect(window('soon', at(2))).toEqual({
      code: 'VALIDATION_FAILED',
      message: ROTATION_MESSAGES.startInvalid,
      field: 'startTime',
    });
    expect(window(at(1), 'later')).toEqual({
      code: 'VALIDATION_FAILED',
      message: ROTATION_MESSAGES.endInvalid,
      field: 'endTime',
    });
    const graceEdge = new Date(NOW.getTime() - START_TIME_GRACE_MS);
    expect(window(graceEdge, at(2))).toBeNull();
    expect(window(new Date(graceEdge.getTime() - 1), at(2))).toEqual({
      code: 'VALIDATION_FAILED',
      message: ROTATION_MESSAGES.startInPast,
      field: 'startTime',
    });
    expect(window(at(1), at(1))).toEqual({
      code: 'VALIDATION_FAILED',
      message: ROTATION_MESSAGES.endBeforeStart,
      field: 'endTime',
    });
  });
  test('schedule entries: the member, their roles, any occurrence overlapping', () => {
    const scheduled = fixed([1, 2], null, { type: 'scheduled' });
    const entry = { userId: 2, startTime: at(1), endTime: at(2) };
    expect(scheduleEntryRefusal(scheduled, { ...entry, userId: 9 }, [], NOW)).toEqual({
      code: 'NOT_A_MEMBER',
      message: ROTATION_MESSAGES.targetNotMember,
      field: 'userId',
    });
    expect(scheduleEntryRefusal(scheduled, { ...entry, roles: NO_HOLD }, [], NOW)).toEqual({
      code: 'CANNOT_HOLD_BATON',
      message: ROTATION_MESSAGES.targetCannotHold,
      field: 'userId',
    });
    const existing = [{ userId: 1, startTime: at(30), endTime: at(31) }];
    const occurrences = [
      { userId: 2, startTime: at(1), endTime: at(2) },
      { userId: 2, startTime: at(25), endTime: at(26) },
      { userId: 2, startTime: at(30), endTime: at(31) },
    ];
    expect(scheduleEntryRefusal(scheduled, { ...entry, occurrences }, existing, NOW)).toEqual({
      code: 'SCHEDULE_OVERLAP',
      message: ROTATION_MESSAGES.scheduleOverlap,
      field: 'startTime',
    });
    expect(
      scheduleEntryRefusal(
        scheduled,
        { ...entry, occurrences: occurrences.slice(0, 2) },
        existing,
        NOW,
      ),
    ).toBeNull();
  });
});

test('changing to a scheduled rotation without an entry: the type is at fault', () => {
  expect(changeTypeRefusal('scheduled', 0)).toEqual({
    code: 'SCHEDULE_REQUIRED',
    message: ROTATION_MESSAGES.scheduleRequired,
    field: 'type',
  });
});

test('scheduleStatus: an entry ending as it starts is Unknown', () => {
  expect(scheduleStatus({ startTime: at(1), endTime: at(1) }, NOW)).toBe('Unknown');
});

test('the member status labels', () => {
  expect(MEMBER_STATUS_LABELS).toEqual({
    current: 'Currently On-Call',
    next: 'Next On-Call',
    in_rotation: 'In Rotation',
  });
});

describe('isPermutation refuses', () => {
  test.each([
    [
      'one id too many',
      [1, 2],
      [
        { id: 1, order: 0 },
        { id: 2, order: 1 },
        { id: 3, order: 2 },
      ],
    ],
    [
      'an order twice',
      [1, 2],
      [
        { id: 1, order: 0 },
        { id: 2, order: 0 },
      ],
    ],
    [
      'an order past the end',
      [1, 2],
      [
        { id: 1, order: 0 },
        { id: 2, order: 2 },
      ],
    ],
    [
      'a negative order',
      [1, 2],
      [
        { id: 1, order: -1 },
        { id: 2, order: 0 },
      ],
    ],
    [
      'an order not whole',
      [1, 2],
      [
        { id: 1, order: 0.5 },
        { id: 2, order: 0 },
      ],
    ],
  ])('%s', (_name, memberIds, proposed) => {
    expect(isPermutation(memberIds, proposed)).toBe(false);
  });
});

test('successorOf skips a member who cannot hold the baton', () => {
  const members = [
    { userId: 1, order: 0, roles: ['on-call'] as Role[] },
    { userId: 2, order: 1, roles: NO_HOLD },
    { userId: 3, order: 2, roles: ['on-call'] as Role[] },
  ];
  expect(successorOf(members, 1)).toBe(3);
});

describe('turn rules with few members', () => {
  test('turnOwnerOf: the stored owner only while a member, else the holder', () => {
    expect(turnOwnerOf([1, 2], 2, 1)).toBe(2);
    expect(turnOwnerOf([1, 2], 5, 1)).toBe(1);
    expect(turnOwnerOf([1, 2], null, 1)).toBe(1);
  });
  test('nextTurn: a sole member keeps the baton, a gap only when away', () => {
    const sole = { memberIds: [1], holderId: 1, ownerId: 1, shift };
    expect(nextTurn({ ...sole, timeOff: [] })).toEqual({ holderId: 1, ownerId: 1, kind: 'turn' });
    expect(nextTurn({ ...sole, timeOff: [{ userId: 1, ...shift }] })).toEqual({
      holderId: 1,
      ownerId: 1,
      kind: 'gap',
    });
    expect(nextTurn({ ...sole, holderId: null, ownerId: null, timeOff: [] })).toEqual({
      holderId: null,
      ownerId: null,
      kind: 'turn',
    });
  });
  test('turnAfterHandChange: passing to the cover the rule names keeps the owner, two members too', () => {
    const input = {
      memberIds: [1, 2],
      holderId: 1,
      turnUserId: 1,
      receiverId: 2,
      shift,
      handlesBoundary: false,
      timeOff: [{ userId: 1, ...shift }],
    };
    expect(turnAfterHandChange(input)).toBe(1);
    expect(turnAfterHandChange({ ...input, timeOff: [] })).toBe(2);
  });
  test('nextOnCall with a turn: a sole member is never next; of two, the other', () => {
    const turn = { shift, turnUserId: null, timeOff: [] };
    expect(nextOnCall(fixed([7], 7, { turn }), NOW)).toBeNull();
    expect(nextOnCall(fixed([4, 9], 9, { turn }), NOW)).toBe(4);
  });
  test('nextOnCall of a schedule: the earliest entry starting after now, in any order', () => {
    const scheduled = fixed([1, 2, 3], null, {
      type: 'scheduled',
      schedule: [
        { userId: 3, startTime: at(5), endTime: at(6) },
        { userId: 2, startTime: at(2), endTime: at(3) },
        { userId: 1, startTime: at(-1), endTime: at(1) },
        { userId: 3, startTime: at(8), endTime: at(9) },
      ],
    });
    expect(nextOnCall(scheduled, NOW)).toBe(2);
  });
});
