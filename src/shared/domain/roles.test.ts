import { expect, test } from 'vitest';
import { effectiveRoles, hasRole, normalizeRole, primaryRole } from './roles';

test.each([
  [['member'], null, ['on-call']],
  [[], 'member', ['on-call']],
  [null, 'manager', ['manager']],
  [['incident_manager', 'admin', 'bogus'], null, ['admin', 'incident_manager']],
  [[], null, ['on-call']],
])('effectiveRoles(%j, %j) = %j', (roles, role, expected) => {
  expect(effectiveRoles(roles, role)).toEqual(expected);
});

test('normalizeRole reads legacy member as on-call and refuses unknown roles', () => {
  expect(normalizeRole('member')).toBe('on-call');
  expect(normalizeRole('root')).toBeNull();
});

test('primaryRole is the most privileged; admin implies manager and incident manager', () => {
  expect(primaryRole(['on-call', 'manager'])).toBe('manager');
  expect(hasRole(['admin'], 'manager')).toBe(true);
  expect(hasRole(['admin'], 'incident_manager')).toBe(true);
  expect(hasRole(['admin'], 'on-call')).toBe(false);
  expect(hasRole(['manager'], 'incident_manager')).toBe(false);
});
