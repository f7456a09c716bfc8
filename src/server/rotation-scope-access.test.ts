import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  exempt,
  SCOPED_PREFIXES,
  type ScopedFixture,
  type ScopedRoute,
  scoped,
} from '../../tests/access/rotation-scoped';
import { createTestApp, type TestApp } from '../../tests/setup/test-app';
import type { User } from '../shared/contracts/users';
import {
  alertKeys,
  alerts,
  auditEvents,
  changeEvents,
  coverageRequests,
  destinations,
  escalationPolicies,
  handoffs,
  integrations,
  notifications,
  pages,
  rotationMembers,
  rotations,
  scheduleEntries,
  shiftNotices,
} from './db/schema';
import { insertIntegration, insertRotation } from './seed/factories';

/**
 * Managers act only on the rotations they manage (decision 233): every rotation-scoped write of
 * tests/access/rotation-scoped.ts, called on a real rotation of team C by manager A, who neither
 * created it nor belongs to it, is 403 in the one error shape and changes nothing; called by C's
 * manager it is neither 401 nor 403. A route under a scoped prefix missing from both the table
 * and the exempt list fails.
 */

let t: TestApp;
let admin: User;
let teamCManager: User;
let managerA: User;
let olivia: User;
let noah: User;
let sam: User;

beforeAll(async () => {
  t = await createTestApp();
  ({
    admin,
    manager: teamCManager,
    otherManager: managerA,
    olivia,
    noah,
    sam,
  } = await t.cast({ admin: {}, manager: {}, otherManager: {}, olivia: {}, noah: {}, sam: {} }));
});
afterAll(() => t.close());

const key = (r: { method: string; route: string }) => `${r.method} ${r.route}`;

/** teamC makes one rotation of team C, created by C's manager, with what hangs off it. */
async function teamC(): Promise<ScopedFixture> {
  const db = t.database.db;
  const rotation = await insertRotation(db, {
    name: 'Team C',
    memberIds: [olivia.id, noah.id],
    holderId: olivia.id,
    createdById: teamCManager.id,
    now: t.clock.now(),
  });
  const memberRows = await db
    .select({ id: rotationMembers.id, order: rotationMembers.order })
    .from(rotationMembers)
    .where(eq(rotationMembers.rotationId, rotation.id))
    .orderBy(asc(rotationMembers.order));
  const { integration } = await insertIntegration(db, t.cipher, {
    rotationId: rotation.id,
    createdById: teamCManager.id,
  });
  const created = async (url: string, body: unknown) => {
    const res = await t.call(admin, 'POST', url, body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  const otherPolicyId = await created('/api/escalation-policies', {
    name: 'Pages nobody of theirs',
    repeat: 0,
    steps: [{ delayMinutes: 5, targets: [{ type: 'user', id: managerA.id }] }],
  });
  const slack = (scope: Record<string, number>, events: string[]) => ({
    kind: 'slack',
    url: 'https://hooks.slack.com/services/T0/B0/team-c',
    events,
    ...scope,
  });
  const destinationId = await created(
    '/api/destinations',
    slack({ rotationId: rotation.id }, ['handoff']),
  );
  const integrationDestinationId = await created(
    '/api/destinations',
    slack({ integrationId: integration.id }, ['incident.raised']),
  );
  return {
    rotationId: rotation.id,
    holderId: olivia.id,
    memberId: noah.id,
    outsiderId: sam.id,
    strangerId: managerA.id,
    memberRows,
    policyId: rotation.escalationPolicyId,
    otherPolicyId,
    integrationId: integration.id,
    destinationId,
    integrationDestinationId,
  };
}

/** Everything a write to a rotation or what hangs off it could change, as stored. */
async function snapshot(): Promise<string> {
  const db = t.database.db;
  const tables = {
    rotations,
    rotationMembers,
    scheduleEntries,
    handoffs,
    coverageRequests,
    pages,
    escalationPolicies,
    integrations,
    alerts,
    alertKeys,
    destinations,
    notifications,
    auditEvents,
    changeEvents,
    shiftNotices,
  };
  const rows: Record<string, unknown[]> = {};
  for (const [name, table] of Object.entries(tables)) {
    rows[name] = (await db.select().from(table)).map((r) => JSON.stringify(r)).sort();
  }
  return JSON.stringify(rows);
}

describe.each(scoped.map((entry) => [key(entry), entry.what, entry] as const))(
  '%s (%s)',
  (_route, _what, entry: ScopedRoute) => {
    test('a manager who does not manage the rotation gets 403 and changes nothing; its manager may', async () => {
      const fixture = await teamC();
      const { url, body } = entry.call(fixture);
      const before = await snapshot();
      const refused = await t.call(managerA, entry.method, url, body);
      expect(refused.statusCode, refused.body).toBe(403);
      const error = refused.json();
      expect(typeof error.message).toBe('string');
      expect(typeof error.code).toBe('string');
      expect(await snapshot()).toBe(before);

      const allowed = await t.call(teamCManager, entry.method, url, body);
      expect([401, 403], allowed.body).not.toContain(allowed.statusCode);
      expect(allowed.statusCode, allowed.body).toBeLessThan(500);
    });
  },
);

test('every route under a rotation-scoped prefix is in the table or exempt, with a reason', () => {
  const registered = t.app.routeList
    .filter((r) => SCOPED_PREFIXES.some((prefix) => r.url.startsWith(prefix)))
    .map((r) => key({ method: r.method, route: r.url }));
  const listed = new Set(scoped.map(key));
  const missing = registered.filter((r) => !listed.has(r) && !(r in exempt));
  expect(missing, 'add these to tests/access/rotation-scoped.ts').toEqual([]);
  // No stale entries: each names a route the app has, and no route is both scoped and exempt.
  const all = new Set(t.app.routeList.map((r) => key({ method: r.method, route: r.url })));
  expect([...listed, ...Object.keys(exempt)].filter((r) => !all.has(r))).toEqual([]);
  expect([...listed].filter((r) => r in exempt)).toEqual([]);
  for (const reason of Object.values(exempt)) expect(reason.length).toBeGreaterThan(10);
});
