import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { EscalationPolicySchema } from '../../../shared/contracts/escalation-policies';
import type { User } from '../../../shared/contracts/users';
import type { OpenOptions } from '../../db/client';
import { insertRotation, type RotationSeed } from '../../seed/factories';

/*
 * The escalation policy suites' shared set-up: one app with the cast, the clock at noon before
 * each test, and writers of rotations and policies. Each suite calls
 * `setUpEscalationPolicySuite()` once; its hooks set the bindings below (an import sees them as
 * they are now), since the files of a worker share this module (decision 230).
 */

export let t: TestApp;
export const people = {} as Record<
  'admin' | 'manager' | 'otherManager' | 'priya' | 'noah' | 'sam' | 'iris' | 'outsider',
  User
>;

/** setUpEscalationPolicySuite registers its hooks: the app, telling `onQuery` each query. */
export function setUpEscalationPolicySuite(onQuery?: OpenOptions['onQuery']) {
  beforeAll(async () => {
    t = await createTestApp({ db: { onQuery } });
    Object.assign(
      people,
      await t.cast({
        admin: {},
        manager: {},
        otherManager: {},
        priya: {
          name: 'Priya Shah',
          roles: ['on-call'],
          phone: '+15551234567',
          notificationPreference: 'both',
        },
        noah: {},
        sam: {},
        iris: {},
        outsider: {},
      }),
    );
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.set('2026-11-02T12:00:00Z');
  });
}

export function rotation(seed: RotationSeed = {}) {
  return insertRotation(t.database.db, { now: t.clock.now(), ...seed });
}

export const oneStep = (targets: { type: string; id: number }[], delayMinutes = 5) => ({
  delayMinutes,
  targets,
});

export async function create(user: User, body: unknown) {
  const res = await t.call(user, 'POST', '/api/escalation-policies', body);
  expect(res.statusCode, res.body).toBe(201);
  return EscalationPolicySchema.parse(res.json());
}
