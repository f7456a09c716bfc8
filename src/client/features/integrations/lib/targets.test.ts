import type { EscalationPolicy } from '@shared/contracts/escalation-policies';
import type { Rotation } from '@shared/contracts/rotations';
import type { Role } from '@shared/domain/roles';
import { describe, expect, test } from 'vitest';
import { integrationTargets } from './targets';

// Only what the rule reads: the rotation's id, name, creator and members.
const rotation = (id: number, name: string, createdById: number | null, members: number[]) =>
  ({
    id,
    name,
    createdById,
    members: members.map((userId) => ({ userId })),
  }) as unknown as Rotation;
const policy = (id: number, name: string, rotationIds: number[]) =>
  ({
    id,
    name,
    rotations: rotationIds.map((r) => ({ id: r, name: `R${r}` })),
  }) as unknown as EscalationPolicy;

const MANAGER = 7;
const rotations = [
  rotation(1, 'Payments', MANAGER, []),
  rotation(2, 'Database', 99, [MANAGER, 5]),
  rotation(3, 'Search', 99, [5]),
];
const policies = [
  policy(10, 'Payments policy', [1]),
  policy(11, 'Shared policy', [1, 3]),
  policy(12, 'Unused policy', []),
  // follows a rotation the viewer cannot see
  policy(13, 'Hidden rotation policy', [404]),
];

const targets = (roles: Role[]) =>
  integrationTargets({ id: MANAGER, roles }, rotations, policies).map((t) => `${t.kind}:${t.name}`);

describe('integrationTargets', () => {
  test('a manager: the rotations they created or are in, and the policies all of whose rotations they manage', () => {
    expect(targets(['manager'])).toEqual([
      'rotation:Database',
      'rotation:Payments',
      'policy:Payments policy',
    ]);
  });

  test('an administrator: every rotation and every policy, by name', () => {
    expect(targets(['admin'])).toEqual([
      'rotation:Database',
      'rotation:Payments',
      'rotation:Search',
      'policy:Hidden rotation policy',
      'policy:Payments policy',
      'policy:Shared policy',
      'policy:Unused policy',
    ]);
  });

  test.each<Role[]>([['on-call'], ['incident_manager']])('%s: nowhere', (role) => {
    expect(targets([role])).toEqual([]);
  });
});
