import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import type { User } from '../../shared/contracts/users';
import { handoffs, rotations } from '../db/schema';
import { insertRotation } from '../seed/factories';

// PostgreSQL only (row locks between connections): runs with TEST_DATABASE_URL set.
// A request that waits for a row lock another connection holds gives up after DB_LOCK_TIMEOUT_MS
// and answers 503 with Retry-After in the app's error shape, writing nothing (decision 168).

const LOCK_MS = 400;
let t: TestApp;
let holder: User;
let next: User;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp({
    db: { timeouts: { lockMs: LOCK_MS, statementMs: 10_000, idleInTransactionMs: 10_000 } },
  });
  holder = await t.createUser({ name: 'Priya Shah', roles: ['on-call'] });
  next = await t.createUser({ name: 'Noah Nakamura', roles: ['on-call'] });
  cookie = await t.cookieFor(holder);
});
afterAll(() => t.close());

const pass = (rotationId: number, notes: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/rotations/${rotationId}/handoff`,
    payload: { toUserId: next.id, notes },
    headers: { cookie, origin: 'http://localhost:80' },
  });

test('a pass that waits on a row lock held elsewhere answers 503 with Retry-After after the lock time-out, and writes nothing', async () => {
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id, next.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  let waited = 0;
  const answer = await t.database.db.transaction(async (tx) => {
    // Another connection of the pool holds the rotation's row, as a paused instance would.
    await tx.execute(sql`select id from rotations where id = ${rotation.id} for update`);
    const started = performance.now();
    const res = await pass(rotation.id, 'blocked by a held lock');
    waited = performance.now() - started;
    return res;
  });
  expect(answer.statusCode).toBe(503);
  expect(answer.headers['retry-after']).toBe('5');
  expect(answer.json()).toEqual({
    message: 'The database is busy. Try again shortly.',
    code: 'SERVICE_UNAVAILABLE',
  });
  // It gave up at the lock time-out, not at once and not much later.
  expect(waited).toBeGreaterThanOrEqual(LOCK_MS - 20);
  expect(waited).toBeLessThan(LOCK_MS + 2_500);
  expect(
    await t.database.db.select().from(handoffs).where(eq(handoffs.rotationId, rotation.id)),
  ).toHaveLength(0);
  const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, rotation.id));
  expect(row.holderUserId).toBe(holder.id);

  // Once the lock is gone, the same request succeeds: repeating it after Retry-After is safe.
  const again = await pass(rotation.id, 'after the lock was released');
  expect(again.statusCode).toBe(200);
  expect(again.json().currentOnCallUserId).toBe(next.id);
});

test('reads do not wait on the held row lock', async () => {
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id, next.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  await t.database.db.transaction(async (tx) => {
    await tx.execute(sql`select id from rotations where id = ${rotation.id} for update`);
    const res = await t.app.inject({ url: `/api/rotations/${rotation.id}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
  });
});
