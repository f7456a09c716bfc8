import { describe, expect, test } from 'vitest';
import { type Action, can, PERMISSIONS } from './permissions';
import { effectiveRoles, type Role } from './roles';

describe('can', () => {
  test.each<[Role[], Action, boolean]>([
    [['admin'], 'rotation.delete', true],
    [['manager'], 'rotation.delete', false],
    [['admin'], 'baton.hold', true],
    [['manager'], 'baton.hold', true],
    [['on-call'], 'baton.hold', true],
    [['incident_manager'], 'baton.hold', false],
    [['incident_manager'], 'page.send', true],
    [['on-call'], 'page.send', false],
    [['admin'], 'page.send', true],
    [['manager'], 'member.reorder', true],
    [['on-call'], 'member.reorder', false],
    [['manager'], 'users.manage', false],
    [['manager'], 'audit.viewAdmin', false],
    [['incident_manager', 'on-call'], 'baton.hold', true],
  ])('%j may %s: %s', (roles, action, expected) => {
    expect(can(roles, action)).toBe(expected);
  });

  test('legacy member is read as on-call', () => {
    expect(can(effectiveRoles(['member']), 'baton.hold')).toBe(true);
    expect(can(effectiveRoles([], 'member'), 'rotation.create')).toBe(false);
  });

  test('admins may do everything', () => {
    for (const action of Object.keys(PERMISSIONS) as Action[])
      expect(can(['admin'], action)).toBe(true);
  });
});
