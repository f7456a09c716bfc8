import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { OnCallTeamEntry } from '../../../shared/contracts/on-call-team';
import { rotations, users } from '../../db/schema';
import { insertRotation } from '../../seed/factories';

let t: TestApp;
let queries: string[] = [];
beforeAll(async () => {
  t = await createTestApp({ db: { onQuery: (q) => queries.push(q) } });
});
afterAll(() => t.close());

async function team(cookie: string): Promise<OnCallTeamEntry[]> {
  const res = await t.app.inject({ url: '/api/on-call-team', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

test('GET /api/on-call-team lists everyone with their rotation assignments, sorted by name', async () => {
  const viewer = await t.createUser({ name: 'Vera Viewer', roles: ['incident_manager'] });
  const active = await t.createUser({
    name: 'Adam Active',
    timezone: 'Asia/Tokyo',
    notificationPreference: 'both',
  });
  const paused = await t.createUser({ name: 'Paula Paused' });
  const idle = await t.createUser({ name: 'Ivan Idle' });
  const alpha = await insertRotation(t.database.db, {
    name: 'Alpha Team',
    memberIds: [active.id, paused.id],
  });
  const beta = await insertRotation(t.database.db, { name: 'Beta Team', memberIds: [active.id] });
  const frozen = await insertRotation(t.database.db, {
    name: 'Frozen Team',
    suspended: true,
    memberIds: [paused.id, active.id],
  });
  await t.database.db
    .update(users)
    .set({ role: 'member', roles: ['member'] })
    .where(eq(users.id, idle.id));

  const entries = await team(await t.cookieFor(viewer));
  expect(entries.map((e) => e.name)).toEqual([
    'Adam Active',
    'Ivan Idle',
    'Paula Paused',
    'Vera Viewer',
  ]);
  const byId = new Map(entries.map((e) => [e.id, e]));
  expect(byId.get(active.id)).toEqual({
    id: active.id,
    name: 'Adam Active',
    email: active.email,
    notificationPreference: 'both',
    timezone: 'Asia/Tokyo',
    rotationCount: 3,
    activeRotationCount: 2,
    isInActiveRotation: true,
    rotationAssignments: [
      { rotationId: alpha.id, rotationName: 'Alpha Team', isSuspended: false },
      { rotationId: beta.id, rotationName: 'Beta Team', isSuspended: false },
      { rotationId: frozen.id, rotationName: 'Frozen Team', isSuspended: true },
    ],
  });
  expect(byId.get(paused.id)).toMatchObject({
    rotationCount: 2,
    activeRotationCount: 1,
    isInActiveRotation: true,
  });
  expect(byId.get(idle.id)).toMatchObject({
    rotationCount: 0,
    activeRotationCount: 0,
    isInActiveRotation: false,
    rotationAssignments: [],
    notificationPreference: 'email',
    timezone: 'UTC',
  });

  // Suspending Alpha leaves Paula only in suspended rotations.
  await t.database.db
    .update(users)
    .set({ timezone: 'Europe/Paris' })
    .where(eq(users.id, paused.id));
  await t.database.db.update(rotations).set({ suspended: true }).where(eq(rotations.id, alpha.id));
  const after = new Map((await team(await t.cookieFor(viewer))).map((e) => [e.id, e]));
  expect(after.get(paused.id)).toMatchObject({
    rotationCount: 2,
    activeRotationCount: 0,
    isInActiveRotation: false,
    timezone: 'Europe/Paris',
  });
});

test('GET /api/on-call-team answers in a fixed number of queries whatever the team size', async () => {
  const viewer = await t.createUser({ roles: ['on-call'] });
  const cookie = await t.cookieFor(viewer);
  const count = async () => {
    await team(cookie);
    queries = [];
    await team(cookie);
    return queries.length;
  };
  const before = await count();
  const more = await Promise.all(Array.from({ length: 15 }, () => t.createUser()));
  await insertRotation(t.database.db, { memberIds: more.map((u) => u.id) });
  await insertRotation(t.database.db, { memberIds: more.slice(0, 5).map((u) => u.id) });
  expect(await count()).toBe(before);
});

test('GET /api/on-call-team needs a signed-in user', async () => {
  const res = await t.app.inject({ url: '/api/on-call-team' });
  expect(res.statusCode).toBe(401);
});
