import { describe, expect, test } from 'vitest';
import { describeHandoff, neutralizeCsvCell } from './audit';
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
