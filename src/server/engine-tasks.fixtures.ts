import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/setup/test-app';
import type { Rotation } from '../shared/contracts/rotations';
import type { User } from '../shared/contracts/users';
import { handoffs, notifications, rotations } from './db/schema';
import type { EngineDeps } from './engine/engine-task';
import { runEngineTick } from './engine-tasks';

/*
 * What the whole-tick suites share. Each suite calls setUpEngineApp() once, at its top: its own
 * app and database, with Ana, Ben, Cal and Dee. Files in one worker share this module (decision
 * 230), so `t`, `deps` and the people are set afresh by each file's beforeAll.
 */

export const MINUTE = 60_000;

/** the suite's app and the engine's dependencies on it, set by setUpEngineApp's beforeAll */
export let t: TestApp;
export let deps: EngineDeps;
/** on call, Ana, Ben and Cal; Dee is a manager */
export let ana: User;
export let ben: User;
export let cal: User;
export let dee: User;

/** setUpEngineApp builds the suite's app and its people before the tests and closes it after. */
export function setUpEngineApp() {
  beforeAll(async () => {
    // Monday 2 November 2026, 12:00 UTC (07:00 in New York).
    t = await createTestApp();
    deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
    ana = await t.createUser({ name: 'Ana Alvarez', roles: ['on-call'] });
    ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
    cal = await t.createUser({ name: 'Cal Chen', roles: ['on-call'] });
    dee = await t.createUser({ name: 'Dee Diaz', roles: ['manager'] });
  });
  afterAll(() => t.close());
}

export const tick = () => runEngineTick(deps, t.clock.now());
export const at = (iso: string) => new Date(iso);

export async function rotationRow(id: number) {
  const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, id));
  return row;
}
export async function history(rotationId: number) {
  return t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, rotationId))
    .orderBy(asc(handoffs.occurredAt), asc(handoffs.id));
}
/** sent returns the notifications queued for one rotation's events, in order: "kind → first name". */
export async function sent(rotationId: number) {
  const rows = await t.database.db
    .select({
      kind: notifications.kind,
      userId: notifications.userId,
      key: notifications.dedupeKey,
    })
    .from(notifications)
    .orderBy(asc(notifications.id));
  const ownHandoffs = new Set((await history(rotationId)).map((h) => h.id));
  const names = new Map([ana, ben, cal, dee].map((u) => [u.id, u.name.split(' ')[0]]));
  return rows
    .filter(
      (r) =>
        r.key.startsWith(`handoff-flow:${rotationId}:`) ||
        r.key.startsWith(`schedule-notice:${rotationId}:`) ||
        ownHandoffs.has(Number(/^handoff:(\d+):/.exec(r.key)?.[1])),
    )
    .map((r) => `${r.kind} → ${names.get(r.userId ?? 0) ?? r.userId}`);
}
export async function clearNotifications() {
  await t.database.db.delete(notifications);
}
export async function getRotation(user: User, id: number): Promise<Rotation> {
  const res = await t.app.inject({
    url: `/api/rotations/${id}`,
    headers: { cookie: await t.cookieFor(user) },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}
