import type { Role } from '@shared/domain/roles';
import { describe, expect, test } from 'vitest';
import { type InternalNavItem, isNavItemActive, type NavItem, navFor } from './navigation';

const labels = (items: readonly NavItem[]) => items.map((i) => i.label);
const rotationsChildren = (roles: Role[]) =>
  labels(
    navFor({ roles, demoInbox: false }).main.find((i) => i.to === '/rotations')?.children ?? [],
  );

const SPEC_FIVE = ['Dashboard', 'Rotations', 'On-Call Team', 'Audit Log', 'Calendar'];

describe('navFor', () => {
  test.each<[string, Role[], string[]]>([
    ['signed out', [], SPEC_FIVE],
    ['on-call', ['on-call'], [...SPEC_FIVE, 'Incidents', 'Time off']],
    ['manager', ['manager'], [...SPEC_FIVE, 'Incidents', 'Time off']],
    ['incident manager', ['incident_manager'], [...SPEC_FIVE, 'Incidents', 'Time off']],
    ['admin', ['admin'], [...SPEC_FIVE, 'Incidents', 'Time off']],
  ])('%s: the main links start with the specification’s five, in its order', (_, roles, main) => {
    expect(labels(navFor({ roles, demoInbox: false }).main)).toEqual(main);
  });

  test('one entry for incidents: no Pages link, and Incidents stands for /pages too', () => {
    const { main } = navFor({ roles: ['on-call'], demoInbox: false });
    expect(labels(main)).not.toContain('Pages');
    expect(main.find((i) => i.label === 'Incidents')?.also).toEqual(['/pages']);
  });

  test.each<[string, Role[], string[]]>([
    ['on-call', ['on-call'], []],
    ['manager', ['manager'], ['Escalation Policies', 'Integrations']],
    ['incident manager', ['incident_manager'], ['Escalation Policies', 'Integrations']],
    ['admin', ['admin'], ['Escalation Policies', 'Integrations']],
    ['on-call and manager', ['manager', 'on-call'], ['Escalation Policies', 'Integrations']],
  ])('%s: under Rotations %j', (_, roles, children) => {
    expect(rotationsChildren(roles)).toEqual(children);
  });

  test.each<[string, Role[], string[]]>([
    ['on-call', ['on-call'], []],
    ['manager', ['manager'], []],
    ['incident manager', ['incident_manager'], []],
    ['admin', ['admin'], ['User Management', 'Settings', 'Debug Tools', 'Notifications']],
  ])('%s: the Admin group is %j', (_, roles, admin) => {
    expect(labels(navFor({ roles, demoInbox: false }).admin)).toEqual(admin);
  });

  test('escalation policies are no longer an Admin link: administrators find them under Rotations', () => {
    expect(labels(navFor({ roles: ['admin'], demoInbox: false }).admin)).not.toContain(
      'Escalation Policies',
    );
  });

  test('the demo inbox comes last, only in demo mode', () => {
    expect(labels(navFor({ roles: ['on-call'], demoInbox: true }).main).at(-1)).toBe('Inbox');
    expect(labels(navFor({ roles: ['on-call'], demoInbox: false }).main)).not.toContain('Inbox');
  });

  test('the Support group is the specification’s, for everyone', () => {
    expect(labels(navFor({ roles: [], demoInbox: false }).support)).toEqual([
      'Help Center',
      'User Roles',
      'Handoff Process',
      'Paging On-Call',
      'Notification Help',
      'Users Forum',
      'Report a Bug',
    ]);
  });
});

describe('isNavItemActive', () => {
  const { main, support } = navFor({ roles: ['admin'], demoInbox: false });
  const entry = (label: string): InternalNavItem => {
    const all = [...main, ...main.flatMap((i) => i.children ?? []), ...support];
    const found = all.find((i) => i.label === label);
    if (found?.kind !== 'internal') throw new Error(label);
    return found;
  };

  test.each<[string, string, boolean]>([
    ['Dashboard', '/', true],
    ['Dashboard', '/rotations', false],
    ['Rotations', '/rotations', true],
    ['Rotations', '/rotations/12', true],
    ['Rotations', '/rotations-archive', false],
    ['Rotations', '/escalation-policies', false],
    ['Escalation Policies', '/escalation-policies/3', true],
    ['Integrations', '/integrations', true],
    ['Incidents', '/incidents', true],
    ['Incidents', '/incidents/41', true],
    ['Incidents', '/pages', true],
    ['Incidents', '/pages/ack/abc', true],
    ['Time off', '/time-off', true],
    ['Calendar', '/time-off', false],
    ['Help Center', '/help', true],
    ['Help Center', '/help/user-roles', false],
    ['User Roles', '/help/user-roles', true],
  ])('%s at %s: %s', (label, pathname, active) => {
    expect(isNavItemActive(entry(label), pathname)).toBe(active);
  });
});
