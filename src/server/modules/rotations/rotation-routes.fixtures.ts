import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import type { OpenOptions } from '../../db/client';
import { auditEvents, handoffs } from '../../db/schema';
import { insertRotation, type RotationSeed } from '../../seed/factories';

/*
 * What the rotation route suites share. Each suite calls setUpRotationApp() once, at its top: its
 * own app and database, with the cast below. Files in one worker share this module (decision
 * 230), so `t` and `people` are set afresh by each file's beforeAll and name that file's app.
 */

/** the suite's app, set by setUpRotationApp's beforeAll */
export let t: TestApp;

export const HOUR = 3_600_000;

/** the suite's users, created by setUpRotationApp's beforeAll */
export const people = {} as Record<
  | 'admin'
  | 'manager'
  | 'otherManager'
  | 'olivia'
  | 'noah'
  | 'priya'
  | 'sam'
  | 'iris'
  | 'irisOnCall'
  | 'outsider',
  User
>;

/**
 * setUpRotationApp builds the suite's app (with `db`'s options) and its people before the tests,
 * sets the clock to Monday 2 November 2026, 12:00 UTC, before each, and closes the app after.
 */
export function setUpRotationApp(db: OpenOptions = {}) {
  beforeAll(async () => {
    t = await createTestApp({ db });
    Object.assign(
      people,
      await t.cast({
        admin: {},
        manager: { timezone: 'Europe/London' },
        otherManager: {},
        olivia: { phone: '+1555' },
        noah: {},
        priya: {},
        sam: {},
        iris: {},
      }),
    );
    people.irisOnCall = await t.createUser({
      name: 'Ivan Both',
      roles: ['incident_manager', 'on-call'],
    });
    people.outsider = (await t.cast({ outsider: {} })).outsider;
  });
  afterAll(() => t.close());
  beforeEach(() => {
    t.clock.set('2026-11-02T12:00:00Z');
  });
}

/** rotation inserts a rotation with the given members (in order) through the shared factory. */
export function rotation(seed: RotationSeed = {}) {
  return insertRotation(t.database.db, { now: t.clock.now(), ...seed });
}

export const ids = (...users: User[]) => users.map((u) => u.id);

export async function handoffsOf(rotationId: number) {
  return t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, rotationId))
    .orderBy(desc(handoffs.id));
}

export async function auditOf(rotationId: number) {
  return t.database.db
    .select()
    .from(auditEvents)
    .where(
      and(eq(auditEvents.targetType, 'rotation'), eq(auditEvents.targetId, String(rotationId))),
    )
    .orderBy(auditEvents.id);
}
