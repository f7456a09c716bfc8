import { describe, expect, test } from 'vitest';
import { canPageRotation, type ManagedRotationFacts } from './permissions-rotation';
import type { Role } from './roles';

const ME = 7;
const created: ManagedRotationFacts = { createdById: ME, memberUserIds: [1, 2] };
const member: ManagedRotationFacts = { createdById: 99, memberUserIds: [1, ME] };
const other: ManagedRotationFacts = { createdById: 99, memberUserIds: [1, 2] };
const orphan: ManagedRotationFacts = { createdById: null, memberUserIds: [] };

describe('canPageRotation', () => {
  test.each<[string, Role[], ManagedRotationFacts, boolean]>([
    ['admin, any rotation', ['admin'], other, true],
    ['admin, a rotation without creator or members', ['admin'], orphan, true],
    ['incident manager, any rotation', ['incident_manager'], other, true],
    ['manager, a rotation they created', ['manager'], created, true],
    ['manager, a rotation they belong to', ['manager'], member, true],
    ['manager, someone else’s rotation', ['manager'], other, false],
    ['manager, a rotation whose creator was deleted', ['manager'], orphan, false],
    ['on-call, a rotation they belong to', ['on-call'], member, false],
    ['on-call and manager, someone else’s rotation', ['on-call', 'manager'], other, false],
    [
      'incident manager and manager, someone else’s rotation',
      ['manager', 'incident_manager'],
      other,
      true,
    ],
    ['no roles', [], created, false],
  ])('%s: %s', (_label, roles, rotation, expected) => {
    expect(canPageRotation({ roles, userId: ME }, rotation)).toBe(expected);
  });
});
