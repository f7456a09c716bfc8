import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp, withOwnOrigin } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { buildApp } from '../../app';
import type { Database, Db } from '../../db/client';
import { handoffs, rotations } from '../../db/schema';
import type { EngineDeps } from '../../engine/engine-task';
import { runEngineTick } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';

/**
 * A manual pass racing the automatic transfer at boundary + 60 min (decision 051): under the
 * rotation's row lock whichever commits first wins. Either the pass wins (the engine then finds
 * the boundary handled and moves nothing) or it is refused with 409 because the holder changed;
 * the boundary is handed over exactly once. The two worst interleavings are forced through a
 * gate on `transaction`; then many free rounds. PGlite runs statements one at a time; with
 * TEST_DATABASE_URL the free rounds race for real on PostgreSQL's pool.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const FREE_ROUNDS = 30;

let t: TestApp;
let ana: User;
let ben: User;
let cal: User;
let anaCookie: string;
let round = 0;

/** Called (once) at the next `transaction` of a gated database, which waits for it first. */
type Gate = { before?: () => Promise<void> };

/** gated wraps a database so that its next transaction first waits for `gate.before`. */
function gated(database: Database, gate: Gate): Database {
  const db = new Proxy(database.db, {
    get(target, prop) {
      if (prop === 'transaction') {
        return async (...args: Parameters<Db['transaction']>) => {
          const before = gate.before;
          gate.before = undefined;
          if (before) await before();
          return target.transaction(...args);
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { ...database, db };
}

const engineGate: Gate = {};
const appGate: Gate = {};
let engineDeps: EngineDeps;
let gatedApp: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp();
  ana = await t.createUser({ name: 'Ana Alvarez', roles: ['on-call'] });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['on-call'] });
  const base = { config: t.config, cipher: t.cipher, clock: t.clock };
  engineDeps = { ...base, database: gated(t.database, engineGate) };
  gatedApp = await buildApp({ ...base, database: gated(t.database, appGate), logger: false });
  await gatedApp.ready();
  withOwnOrigin(gatedApp);
});
afterAll(async () => {
  await gatedApp.close();
  await t.close();
});

/**
 * newRound makes a daily rotation held by Ana whose 09:00 boundary (its own day) passed an hour
 * ago, so the automatic transfer to Ben, next in order, is due now; answers it and the time.
 */
async function newRound() {
  const day = new Date(Date.UTC(2026, 10, 3 + round++));
  const boundary = new Date(day.getTime() + 9 * HOUR);
  const rotation = await insertRotation(t.database.db, {
    name: `Race ${round}`,
    cadence: 'daily',
    timeZone: 'UTC',
    handoffTime: '09:00',
    memberIds: [ana.id, ben.id, cal.id],
    holderId: ana.id,
    holderSince: new Date(boundary.getTime() - 24 * HOUR),
    now: new Date(boundary.getTime() - 2 * HOUR),
  });
  expect(rotation.nextHandoffAt).toEqual(boundary);
  const autoAt = new Date(boundary.getTime() + 60 * MINUTE);
  t.clock.set(autoAt);
  // Each round is a day later: a fresh session, whatever the session lifetime.
  anaCookie = await t.cookieFor(ana);
  return { rotationId: rotation.id, boundary, autoAt };
}

/** passToCal is Ana passing the baton to Cal (the engine would hand it to Ben). */
const passToCal = (app: FastifyInstance, rotationId: number) =>
  app.inject({
    method: 'POST',
    url: `/api/rotations/${rotationId}/handoff`,
    headers: { cookie: anaCookie },
    payload: { toUserId: cal.id, notes: 'racing the engine' },
  });

/**
 * outcomeOf checks the round: exactly one handoff for the boundary, and it is the pass that
 * answered 200 or the automatic transfer while the pass answered 409; the boundary is handled.
 * Answers who won. Takes the rotation out of later rounds' ticks.
 */
async function outcomeOf(
  r: { rotationId: number; boundary: Date; autoAt: Date },
  pass: LightMyRequestResponse,
): Promise<'pass' | 'auto'> {
  // A tick after the race finds nothing more to do for this boundary.
  await runEngineTick(engineDeps, r.autoAt);
  const records = await t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, r.rotationId));
  const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, r.rotationId));
  expect(records).toHaveLength(1);
  const [record] = records;
  expect(row.nextHandoffAt).toEqual(new Date(r.boundary.getTime() + 24 * HOUR));
  await t.database.db
    .update(rotations)
    .set({ suspended: true })
    .where(eq(rotations.id, r.rotationId));
  if (pass.statusCode === 200) {
    expect(record).toMatchObject({ kind: 'pass', fromUserId: ana.id, toUserId: cal.id });
    expect(row.holderUserId).toBe(cal.id);
    return 'pass';
  }
  expect(pass.statusCode).toBe(409);
  // Read before the transfer committed: the holder changed; read after it: not on call.
  expect(['BATON_HOLDER_CHANGED', 'NOT_ON_CALL']).toContain(pass.json().code);
  expect(record).toMatchObject({
    kind: 'auto',
    status: 'escalated',
    fromUserId: ana.id,
    toUserId: ben.id,
    effectKey: `auto:${r.rotationId}:${r.boundary.toISOString()}`,
  });
  expect(row.holderUserId).toBe(ben.id);
  return 'auto';
}

test('the engine has found the rotation due when the pass commits: it re-reads under the lock and moves nothing', async () => {
  const r = await newRound();
  let pass: LightMyRequestResponse | undefined;
  engineGate.before = async () => {
    pass = await passToCal(t.app, r.rotationId);
  };
  await runEngineTick(engineDeps, r.autoAt);
  expect(pass?.statusCode).toBe(200);
  expect(await outcomeOf(r, pass as LightMyRequestResponse)).toBe('pass');
});

test('the pass has read the holder when the transfer commits: it answers 409 BATON_HOLDER_CHANGED', async () => {
  const r = await newRound();
  appGate.before = () => runEngineTick(engineDeps, r.autoAt);
  const pass = await passToCal(gatedApp, r.rotationId);
  expect(pass.json()).toEqual({
    message: 'The baton changed hands while your request was waiting. Refresh and try again.',
    code: 'BATON_HOLDER_CHANGED',
  });
  expect(await outcomeOf(r, pass)).toBe('auto');
});

/** turns waits a few turns of the event loop. */
async function turns(n: number) {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

test('a pass and the engine tick started together, many rounds: one handoff for the boundary each time', async () => {
  for (let i = 0; i < FREE_ROUNDS; i++) {
    const r = await newRound();
    // From the engine well ahead to the pass well ahead, one event-loop turn at a time.
    const stagger = i - FREE_ROUNDS / 2;
    const [pass] = await Promise.all([
      turns(Math.max(0, stagger)).then(() => passToCal(t.app, r.rotationId)),
      turns(Math.max(0, -stagger)).then(() => runEngineTick(engineDeps, r.autoAt)),
    ]);
    await outcomeOf(r, pass);
  }
});
