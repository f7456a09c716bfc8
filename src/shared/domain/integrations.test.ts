import { describe, expect, test } from 'vitest';
import {
  canViewDestination,
  canViewIntegration,
  type DestinationFacts,
  type IntegrationFacts,
  integrationEndpoints,
  managesDestination,
  managesIntegration,
  mayManageSomeDestination,
  mayManageSomeIntegration,
} from './integrations';
import type { ManagedRotationFacts } from './permissions-rotation';
import type { Role } from './roles';

const ME = 7;
const created: ManagedRotationFacts = { createdById: ME, memberUserIds: [1, 2] };
const member: ManagedRotationFacts = { createdById: 99, memberUserIds: [1, ME] };
const other: ManagedRotationFacts = { createdById: 99, memberUserIds: [1, 2] };

const onRotation = (rotation: ManagedRotationFacts): IntegrationFacts => ({ rotation });
const onPolicy = (rotations: ManagedRotationFacts[], createdById: number | null = 99) => ({
  policy: { createdById, rotations },
});

describe('canViewIntegration', () => {
  test.each<[string, Role[], IntegrationFacts, boolean]>([
    ['admin, any rotation’s', ['admin'], onRotation(other), true],
    ['manager, someone else’s rotation’s', ['manager'], onRotation(other), true],
    ['incident manager, any policy’s', ['incident_manager'], onPolicy([other]), true],
    ['on-call, their rotation’s', ['on-call'], onRotation(member), true],
    ['on-call, another rotation’s', ['on-call'], onRotation(other), false],
    ['on-call, a policy their rotation follows', ['on-call'], onPolicy([other, member]), true],
    ['on-call, a policy only others follow', ['on-call'], onPolicy([other]), false],
    ['on-call, a policy nobody follows', ['on-call'], onPolicy([], ME), false],
    ['no roles, their rotation’s', [], onRotation(member), true],
  ])('%s: %s', (_label, roles, facts, expected) => {
    expect(canViewIntegration({ roles, id: ME }, facts)).toBe(expected);
  });
});

describe('managesIntegration', () => {
  test.each<[string, Role[], IntegrationFacts, boolean]>([
    ['admin, any rotation’s', ['admin'], onRotation(other), true],
    ['admin, a policy nobody follows', ['admin'], onPolicy([]), true],
    ['manager, a rotation they created', ['manager'], onRotation(created), true],
    ['manager, a rotation they belong to', ['manager'], onRotation(member), true],
    ['manager, someone else’s rotation', ['manager'], onRotation(other), false],
    ['manager, a policy of rotations they manage', ['manager'], onPolicy([created, member]), true],
    ['manager, a policy shared with another team', ['manager'], onPolicy([created, other]), false],
    ['manager, a policy nobody follows, made by them', ['manager'], onPolicy([], ME), true],
    ['manager, a policy nobody follows, made by another', ['manager'], onPolicy([]), false],
    ['incident manager, any rotation’s', ['incident_manager'], onRotation(created), false],
    ['on-call, their own rotation’s', ['on-call'], onRotation(created), false],
    ['on-call and manager, their rotation’s', ['on-call', 'manager'], onRotation(member), true],
  ])('%s: %s', (_label, roles, facts, expected) => {
    expect(managesIntegration({ roles, id: ME }, facts)).toBe(expected);
  });

  test.each<[Role[], boolean]>([
    [['admin'], true],
    [['manager'], true],
    [['incident_manager'], false],
    [['on-call'], false],
    [['on-call', 'manager'], true],
  ])('%j may manage some integration: %s', (roles, expected) => {
    expect(mayManageSomeIntegration({ roles })).toBe(expected);
  });
});

const ofRotation = (rotation: ManagedRotationFacts): DestinationFacts => ({
  owner: 'rotation',
  rotation,
});
const ofPolicy = (rotations: ManagedRotationFacts[], createdById: number | null = 99) =>
  ({ owner: 'policy', policy: { createdById, rotations } }) as const;
const ofIntegration = (facts: IntegrationFacts): DestinationFacts => ({
  owner: 'integration',
  integration: facts,
});

describe('canViewDestination', () => {
  test.each<[string, Role[], DestinationFacts, boolean]>([
    ['admin, any rotation’s', ['admin'], ofRotation(other), true],
    ['manager, someone else’s rotation’s', ['manager'], ofRotation(other), true],
    ['incident manager, any rotation’s', ['incident_manager'], ofRotation(other), true],
    ['on-call, their rotation’s', ['on-call'], ofRotation(member), true],
    ['on-call, another rotation’s', ['on-call'], ofRotation(other), false],
    ['on-call, a policy their rotation follows', ['on-call'], ofPolicy([other, member]), true],
    ['on-call, a policy only others follow', ['on-call'], ofPolicy([other]), false],
    ['manager, any policy’s', ['manager'], ofPolicy([other]), true],
    [
      'on-call, their rotation’s integration’s',
      ['on-call'],
      ofIntegration(onRotation(member)),
      true,
    ],
    ['on-call, another’s integration’s', ['on-call'], ofIntegration(onRotation(other)), false],
    [
      'on-call, a policy integration’s they follow',
      ['on-call'],
      ofIntegration(onPolicy([member])),
      true,
    ],
  ])('%s: %s', (_label, roles, facts, expected) => {
    expect(canViewDestination({ roles, id: ME }, facts)).toBe(expected);
  });
});

describe('managesDestination', () => {
  test.each<[string, Role[], DestinationFacts, boolean]>([
    ['admin, any rotation’s', ['admin'], ofRotation(other), true],
    ['admin, any policy’s', ['admin'], ofPolicy([other]), true],
    ['manager, a rotation they created', ['manager'], ofRotation(created), true],
    ['manager, a rotation they belong to', ['manager'], ofRotation(member), true],
    ['manager, someone else’s rotation', ['manager'], ofRotation(other), false],
    ['manager, a policy of rotations they manage', ['manager'], ofPolicy([created, member]), true],
    ['manager, a policy shared with another team', ['manager'], ofPolicy([created, other]), false],
    ['manager, a policy nobody follows, made by them', ['manager'], ofPolicy([], ME), true],
    [
      'manager, their rotation’s integration’s',
      ['manager'],
      ofIntegration(onRotation(member)),
      true,
    ],
    ['manager, another’s integration’s', ['manager'], ofIntegration(onRotation(other)), false],
    ['incident manager, any rotation’s', ['incident_manager'], ofRotation(created), false],
    ['on-call, their own rotation’s', ['on-call'], ofRotation(created), false],
  ])('%s: %s', (_label, roles, facts, expected) => {
    expect(managesDestination({ roles, id: ME }, facts)).toBe(expected);
  });

  test.each<[Role[], boolean]>([
    [['admin'], true],
    [['manager'], true],
    [['incident_manager'], false],
    [['on-call'], false],
  ])('%j may manage some destination: %s', (roles, expected) => {
    expect(mayManageSomeDestination({ roles })).toBe(expected);
  });
});

describe('integrationEndpoints', () => {
  test('the fixed paths under the public URL; email while intake listens', () => {
    expect(integrationEndpoints('https://baton.example.com', 2525)).toEqual({
      pagerduty: 'https://baton.example.com/api/alerts/pagerduty/v2/enqueue',
      opsgenie: 'https://baton.example.com/api/alerts/opsgenie/',
      alertmanager: 'https://baton.example.com/api/alerts/alertmanager',
      grafana: 'https://baton.example.com/api/alerts/grafana',
      generic: 'https://baton.example.com/api/alerts/generic',
      emailDomain: 'baton.example.com',
      emailPort: 2525,
    });
  });

  test('a base under a path and with a port keeps them; no email while intake is off', () => {
    const endpoints = integrationEndpoints('http://localhost:3000/baton/', null);
    expect(endpoints.pagerduty).toBe('http://localhost:3000/baton/api/alerts/pagerduty/v2/enqueue');
    expect(endpoints.opsgenie).toBe('http://localhost:3000/baton/api/alerts/opsgenie/');
    expect(endpoints).toMatchObject({ emailDomain: null, emailPort: null });
    expect(integrationEndpoints('http://localhost:3000', 25).emailDomain).toBe('localhost');
  });
});
