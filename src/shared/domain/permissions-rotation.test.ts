import { describe, expect, test } from 'vitest';
import {
  canArrangeCover,
  canManageRotation,
  canPageRotation,
  canReadPolicy,
  type ManagedRotationFacts,
  managesPolicy,
  type PolicyFacts,
} from './permissions-rotation';
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
    expect(canPageRotation({ roles, id: ME }, rotation)).toBe(expected);
  });
});

const policy = (
  rotations: ManagedRotationFacts[],
  createdById: number | null = 99,
): PolicyFacts => ({
  createdById,
  rotations,
});

describe('canReadPolicy', () => {
  test.each<[string, Role[], PolicyFacts, boolean]>([
    ['admin, any policy', ['admin'], policy([other]), true],
    ['manager, another team’s policy', ['manager'], policy([other]), true],
    ['incident manager, any policy', ['incident_manager'], policy([other]), true],
    ['on-call, their rotation’s policy', ['on-call'], policy([member]), true],
    ['on-call, a policy shared with their rotation', ['on-call'], policy([other, member]), true],
    ['on-call, another rotation’s policy', ['on-call'], policy([other]), false],
    ['on-call, an unused policy they created', ['on-call'], policy([], ME), false],
    ['no roles, a rotation they are not in', [], policy([other]), false],
  ])('%s', (_label, roles, facts, expected) => {
    expect(canReadPolicy({ roles, id: ME }, facts)).toBe(expected);
  });
});

describe('managesPolicy', () => {
  test.each<[string, Role[], PolicyFacts, boolean]>([
    ['admin, any policy', ['admin'], policy([other, orphan]), true],
    ['admin, an unused policy someone else made', ['admin'], policy([], 99), true],
    ['manager, their created rotation’s policy', ['manager'], policy([created]), true],
    [
      'manager, a policy of two rotations they manage',
      ['manager'],
      policy([created, member]),
      true,
    ],
    ['manager, a policy shared with another team', ['manager'], policy([created, other]), false],
    ['manager, another team’s policy', ['manager'], policy([other]), false],
    ['manager, an unused policy they created', ['manager'], policy([], ME), true],
    ['manager, an unused policy someone else created', ['manager'], policy([], 99), false],
    ['incident manager, any policy', ['incident_manager'], policy([member]), false],
    ['on-call, their rotation’s policy', ['on-call'], policy([member]), false],
  ])('%s', (_label, roles, facts, expected) => {
    expect(managesPolicy({ roles, id: ME }, facts)).toBe(expected);
  });
});

describe('canArrangeCover', () => {
  test.each<[string, Role[], ManagedRotationFacts, boolean]>([
    ['admin, any rotation', ['admin'], other, true],
    ['manager, a rotation they created', ['manager'], created, true],
    ['manager, a rotation they are a member of', ['manager'], member, true],
    ['manager, another team’s rotation', ['manager'], other, false],
    ['on-call, their own rotation', ['on-call'], member, false],
    ['incident manager, any rotation', ['incident_manager'], member, false],
  ])('%s', (_label, roles, facts, expected) => {
    expect(canArrangeCover({ roles, id: ME }, facts)).toBe(expected);
  });
});

describe('canManageRotation', () => {
  test.each<[string, Role[], ManagedRotationFacts, boolean]>([
    ['admin, any rotation', ['admin'], other, true],
    ['admin, a rotation without creator or members', ['admin'], orphan, true],
    ['manager, a rotation they created', ['manager'], created, true],
    ['manager, a rotation they are a member of', ['manager'], member, true],
    ['manager, another team’s rotation', ['manager'], other, false],
    ['manager, a rotation whose creator was deleted', ['manager'], orphan, false],
    ['on-call and manager, another team’s rotation', ['on-call', 'manager'], other, false],
    ['on-call, their own rotation', ['on-call'], member, false],
    ['on-call, a rotation they created', ['on-call'], created, false],
    ['incident manager, any rotation', ['incident_manager'], member, false],
    ['no roles, a rotation they created', [], created, false],
  ])('%s', (_label, roles, facts, expected) => {
    expect(canManageRotation({ roles, id: ME }, facts)).toBe(expected);
  });
});
