import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { selectRows } from '../../db/client';
import { handoffs, rotations } from '../../db/schema';
import { insertRotation } from '../../seed/factories';

/**
 * Simultaneous changes of holder on one rotation. Each request reads the holder, then locks the
 * rotation row and re-checks; only one can win. Runs on PGlite (one connection: statements run
 * one at a time) and, with TEST_DATABASE_URL, on PostgreSQL (a pool of concurrent transactions).
 */
let t: TestApp;
let holder: User;
let others: User[];
const cookies = new Map<number, string>();
// Statements the requests have issued, counted from the query log.
const issued = { sessionReads: 0 };

beforeAll(async () => {
  t = await createTestApp({
    db: {
      onQuery: (query) => {
        if (query.includes('from "sessions"')) issued.sessionReads += 1;
      },
    },
  });
  holder = await t.createUser({ name: 'Hana Holder', roles: ['on-call'] });
  others = [];
  for (let i = 0; i < 20; i++) {
    others.push(await t.createUser({ name: `Member ${i}`, roles: ['on-call'] }));
  }
  for (const user of [holder, ...others]) cookies.set(user.id, await t.cookieFor(user));
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(what: string, check: () => boolean | Promise<boolean>) {
  const deadline = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await sleep(10);
  }
}

async function lockWaiters(): Promise<number> {
  const [{ n }] = await selectRows<{ n: number }>(
    t.database.db,
    sql`select count(*)::int as n from pg_stat_activity
         where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return Number(n);
}

/**
 * raceOnLockedRotation fires `count` requests at once.
 * - PostgreSQL: another transaction holds the rotation row until all requests wait on its lock,
 *   so that every one of them has read the holder before any of them can change it: the worst
 *   case the lock must handle.
 * - PGlite runs a request's statements before those of requests that arrived after it (decision
 *   273): requests fired together run one after the other, each reading the holder the one
 *   before it left. A gate holds the connection until all of them are queued behind it.
 */
async function raceOnLockedRotation(
  rotationId: number,
  fire: () => Promise<LightMyRequestResponse[]>,
  count: number,
): Promise<LightMyRequestResponse[]> {
  const db = t.database.db;
  let pending: Promise<LightMyRequestResponse[]> | undefined;
  if (t.database.engine === 'postgres') {
    await db.transaction(async (tx) => {
      await tx.select().from(rotations).where(eq(rotations.id, rotationId)).for('update');
      pending = fire();
      await waitUntil(`${count} requests wait on the row lock`, async () => {
        return (await lockWaiters()) >= count;
      });
    });
  } else {
    issued.sessionReads = 0;
    await db.transaction(async () => {
      pending = fire();
      await waitUntil(`${count} session reads are queued`, () => issued.sessionReads >= count);
    });
  }
  return (await pending) as LightMyRequestResponse[];
}

async function handoffsOf(rotationId: number) {
  return t.database.db.select().from(handoffs).where(eq(handoffs.rotationId, rotationId));
}

async function holderOf(rotationId: number) {
  const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, rotationId));
  return row.holderUserId;
}

/** expectOneWinner checks one 200 and 409s with a message for the rest; returns the winner's body. */
function expectOneWinner(responses: LightMyRequestResponse[], losingCodes: string[]) {
  const winners = responses.filter((r) => r.statusCode === 200);
  expect(winners).toHaveLength(1);
  for (const loser of responses.filter((r) => r.statusCode !== 200)) {
    expect(loser.statusCode).toBe(409);
    const body = loser.json() as { message: string; code: string };
    expect(body.message.length).toBeGreaterThan(10);
    expect(losingCodes).toContain(body.code);
  }
  return winners[0].json() as { currentOnCallUserId: number };
}

const pass = (rotationId: number, to: User) =>
  t.app.inject({
    method: 'POST',
    url: `/api/rotations/${rotationId}/handoff`,
    payload: { toUserId: to.id, notes: `to ${to.name}` },
    headers: { cookie: cookies.get(holder.id) as string },
  });

const take = (rotationId: number, user: User) =>
  t.app.inject({
    method: 'POST',
    url: `/api/rotations/${rotationId}/take-oncall`,
    headers: { cookie: cookies.get(user.id) as string },
  });

test('twenty simultaneous passes from the holder: one new holder, one handoff record, nineteen refused', async () => {
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id, ...others.map((o) => o.id)],
    holderId: holder.id,
    now: t.clock.now(),
  });
  const responses = await raceOnLockedRotation(
    rotation.id,
    () => Promise.all(others.map((to) => pass(rotation.id, to))),
    others.length,
  );
  const pglite = t.database.engine === 'pglite';
  const winner = expectOneWinner(responses, [pglite ? 'NOT_ON_CALL' : 'BATON_HOLDER_CHANGED']);
  expect(responses.filter((r) => r.statusCode === 409)).toHaveLength(19);
  if (pglite) {
    // The first to arrive is the first served, and the rest find the baton already passed.
    expect(winner.currentOnCallUserId).toBe(others[0].id);
  } else {
    expect(responses.find((r) => r.statusCode === 409)?.json()).toEqual({
      message: 'The baton changed hands while your request was waiting. Refresh and try again.',
      code: 'BATON_HOLDER_CHANGED',
    });
  }
  const newHolder = await holderOf(rotation.id);
  expect(newHolder).toBe(winner.currentOnCallUserId);
  expect(others.map((o) => o.id)).toContain(newHolder);
  const records = await handoffsOf(rotation.id);
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ fromUserId: holder.id, toUserId: newHolder, kind: 'pass' });
});

test('twenty passes fired at once, however they interleave: one holder, one record, the rest 409', async () => {
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id, ...others.map((o) => o.id)],
    holderId: holder.id,
    now: t.clock.now(),
  });
  const responses = await Promise.all(others.map((to) => pass(rotation.id, to)));
  // A request that reads the holder after the winner committed is told it no longer holds it.
  const winner = expectOneWinner(responses, ['BATON_HOLDER_CHANGED', 'NOT_ON_CALL']);
  expect(await holderOf(rotation.id)).toBe(winner.currentOnCallUserId);
  expect(await handoffsOf(rotation.id)).toHaveLength(1);
});

test('twenty members taking on-call at once: one holder, one take record', async () => {
  const rotation = await insertRotation(t.database.db, {
    memberIds: others.map((o) => o.id),
    now: t.clock.now(),
  });
  const responses = await raceOnLockedRotation(
    rotation.id,
    () => Promise.all(others.map((user) => take(rotation.id, user))),
    others.length,
  );
  const pglite = t.database.engine === 'pglite';
  const winner = expectOneWinner(responses, [
    pglite ? 'BATON_ALREADY_HELD' : 'BATON_HOLDER_CHANGED',
  ]);
  if (pglite) expect(winner.currentOnCallUserId).toBe(others[0].id);
  expect(await holderOf(rotation.id)).toBe(winner.currentOnCallUserId);
  const records = await handoffsOf(rotation.id);
  expect(records).toHaveLength(1);
  expect(records[0]).toMatchObject({ fromUserId: null, kind: 'take' });
});
