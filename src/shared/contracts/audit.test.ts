import { describe, expect, test } from 'vitest';
import { adminActionLabel, adminDetailEntries, describeHandoff, neutralizeCsvCell } from './audit';
import { rotationStatusLabel } from './on-call-team';

const person = (name: string) => ({ id: 1, name, email: 'x@example.com' });
const ada = person('Ada');
const ben = person('Ben');

describe('describeHandoff', () => {
  test.each([
    ['success', 'pass', 'Baton passed successfully from Ada to Ben', 'Success'],
    ['acknowledged', 'pass', 'Ben acknowledged new on-call duty', 'Acknowledged'],
    ['missed', 'pass', 'Ben missed handoff acknowledgment', 'Missed'],
    ['escalated', 'auto', 'Handoff to Ben was escalated', 'Escalated'],
    ['handed-over', 'pass', 'Handoff from Ada to Ben', 'handed-over'],
  ])('%s', (status, kind, text, badge) => {
    expect(describeHandoff({ status, kind, fromUser: ada, toUser: ben })).toEqual({ text, badge });
  });

  test('a taken baton comes from no one; a deleted account is an unknown user', () => {
    expect(
      describeHandoff({ status: 'success', kind: 'take', fromUser: null, toUser: ben }).text,
    ).toBe('Baton passed successfully from no one to Ben');
    expect(
      describeHandoff({ status: 'missed', kind: 'pass', fromUser: ada, toUser: null }).text,
    ).toBe('Unknown user missed handoff acknowledgment');
  });
});

describe('neutralizeCsvCell', () => {
  test.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j gives %j', (input, output) => {
    expect(neutralizeCsvCell(input)).toBe(output);
  });
});

describe('rotationStatusLabel', () => {
  test.each([
    [0, 0, false, 'Not Assigned'],
    [3, 2, true, 'Active (2)'],
    [2, 0, false, 'Suspended'],
  ])('%i rotations, %i active', (rotationCount, activeRotationCount, isInActiveRotation, label) => {
    expect(rotationStatusLabel({ rotationCount, activeRotationCount, isInActiveRotation })).toBe(
      label,
    );
  });
});

describe('adminActionLabel', () => {
  test.each([
    ['user.invited', 'Invited a user'],
    ['page.escalated', 'Escalated a page'],
    ['system.checked', 'System checked'],
    ['', ''],
  ])('%j reads %j', (action, label) => {
    expect(adminActionLabel(action)).toBe(label);
  });
});

describe('adminDetailEntries', () => {
  test('lists every detail whole, names instead of ids, instants marked', () => {
    const entries = adminDetailEntries({
      userId: 4,
      userName: 'Ada',
      userIds: [4, 5],
      userNames: ['Ada', 'Ben'],
      order: 2,
      startTime: '2026-03-01T08:00:00.000Z',
      reason: 'x'.repeat(300),
      note: '',
      empty: null,
      fields: ['name', 'cadence'],
      nested: { a: 1 },
      orphanId: 9,
    });
    expect(entries).toEqual([
      { key: 'userName', label: 'user name', value: 'Ada', instant: false },
      { key: 'userNames', label: 'user names', value: 'Ada, Ben', instant: false },
      { key: 'order', label: 'order', value: '2', instant: false },
      {
        key: 'startTime',
        label: 'start time',
        value: '2026-03-01T08:00:00.000Z',
        instant: true,
      },
      { key: 'reason', label: 'reason', value: 'x'.repeat(300), instant: false },
      { key: 'fields', label: 'fields', value: 'name, cadence', instant: false },
      { key: 'nested', label: 'nested', value: '{"a":1}', instant: false },
      { key: 'orphanId', label: 'orphan id', value: '9', instant: false },
    ]);
  });

  test('a date without a time or a bad instant is plain text', () => {
    expect(
      adminDetailEntries({ day: '2026-03-01', bad: '2026-13-45T99:00:00Z' }).map((e) => e.instant),
    ).toEqual([false, false]);
  });
});
