import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, test, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { DEFAULT_HANDOFF_TIMINGS } from '../../../shared/domain/handoff-flow';
import type { Clock } from '../../core/clock';
import { coverageRequests, rotations } from '../../db/schema';
import { startEngine } from '../../engine/run-tick';
import { insertRotation } from '../../seed/factories';
import {
  nextCoverageDueAt,
  nextFixedFlowAt,
  nextScheduledChangeAt,
} from './handoff-flow-repository';

/**
 * The rotations' clocks wake the engine (decision 278): the fixed rotations' flow, the scheduled
 * and layered rotations' next change and the coverage windows each say when they next have work,
 * and a commit that moves one rings the engine's doorbell (migration 0035). Runs on PGlite, and
 * on PostgreSQL with TEST_DATABASE_URL.
 */

const MINUTE = 60_000;
const t0 = new Date('2026-11-02T12:00:00Z');
const at = (minutes: number) => new Date(t0.getTime() + minutes * MINUTE);
let t: TestApp;
let ana: User;
let ben: User;

beforeAll(async () => {
  t = await createTestApp();
  ana = await t.createUser({ name: 'Ana Alvarez' });
  ben = await t.createUser({ name: 'Ben Brooks' });
});
beforeEach(async () => {
  await t.database.db.delete(rotations);
});
afterAll(() => t.close());

const rotationWith = async (change: Partial<typeof rotations.$inferInsert>) => {
  const row = await insertRotation(t.database.db, {
    memberIds: [ana.id, ben.id],
    holderId: ana.id,
    now: t0,
  });
  if (Object.keys(change).length > 0) {
    await t.database.db.update(rotations).set(change).where(eq(rotations.id, row.id));
  }
  return row.id;
};

test("a fixed rotation's flow is due at its notice, its boundary, its escalation and its automatic transfer", async () => {
  await rotationWith({ nextHandoffAt: at(120) });
  const next = (now: Date) => nextFixedFlowAt(t.database.db, now, DEFAULT_HANDOFF_TIMINGS);
  expect(await next(at(0))).toEqual(at(90)); // the notice, 30 minutes before
  expect(await next(at(90))).toEqual(at(120)); // the boundary
  expect(await next(at(120))).toEqual(at(150)); // the escalation, 30 minutes after
  expect(await next(at(150))).toEqual(at(180)); // the automatic transfer, an hour after
  expect(await next(at(180))).toBeNull();
  // a suspended rotation has no clock; a scheduled one is not a fixed rotation's flow
  await t.database.db.update(rotations).set({ suspended: true });
  expect(await next(at(0))).toBeNull();
  await t.database.db.update(rotations).set({ suspended: false, type: 'scheduled' });
  expect(await next(at(0))).toBeNull();
});

test('a scheduled or layered rotation is due at its next change; the earliest of them answers', async () => {
  await rotationWith({ type: 'scheduled', nextHandoffAt: at(45) });
  await rotationWith({ type: 'scheduled', nextHandoffAt: at(30) });
  await rotationWith({ nextHandoffAt: at(10) }); // fixed: not a scheduled change
  const next = (now: Date) => nextScheduledChangeAt(t.database.db, now);
  expect(await next(at(0))).toEqual(at(30));
  expect(await next(at(30))).toEqual(at(45));
  expect(await next(at(45))).toBeNull();
});

test('a coverage window is due at its start when accepted, and at its end while accepted or running', async () => {
  const rotationId = await rotationWith({});
  const [window] = await t.database.db
    .insert(coverageRequests)
    .values({
      rotationId,
      requesterId: ana.id,
      coveringUserId: ben.id,
      startAt: at(60),
      endAt: at(180),
      status: 'pending',
    })
    .returning();
  const next = (now: Date) => nextCoverageDueAt(t.database.db, now);
  expect(await next(at(0))).toBeNull(); // not accepted yet
  const set = (status: string) =>
    t.database.db
      .update(coverageRequests)
      .set({ status })
      .where(eq(coverageRequests.id, window.id));
  await set('accepted');
  expect(await next(at(0))).toEqual(at(60));
  await set('active');
  expect(await next(at(60))).toEqual(at(180));
  expect(await next(at(180))).toBeNull();
  await set('completed');
  expect(await next(at(0))).toBeNull();
});

test("the engine wakes at a rotation's next change, told by the doorbell when a commit moves it", async () => {
  const rotationId = await rotationWith({ type: 'scheduled', nextHandoffAt: at(0) });
  // Out of the wall clock's way while the engine starts.
  await t.database.db
    .update(rotations)
    .set({ nextHandoffAt: new Date(Date.now() + 3_600_000) })
    .where(eq(rotations.id, rotationId));
  const wall: Clock = { now: () => new Date() };
  const runs: Date[] = [];
  let sweeps = 0;
  const engine = startEngine(
    {
      database: t.database,
      cipher: t.cipher,
      clock: wall,
      // the interval far beyond the test: only a due time, and the doorbell that moves it, wake it
      config: { ...t.config, engineIntervalMs: 600_000 },
    },
    [
      {
        name: 'scheduled rotations',
        run: async (_deps, now) => {
          runs.push(now);
        },
        nextDueAt: (deps, now) => nextScheduledChangeAt(deps.database.db, now),
      },
      {
        name: 'sweep',
        run: async () => {
          sweeps += 1;
        },
      },
    ],
    { listen: t.database.listen },
  );
  try {
    await engine.listening;
    await engine.runOnce(); // the tick at start and this one
    expect(runs).toHaveLength(2);
    // The change is now 700 ms away: the commit rings, and the engine sleeps until then.
    const dueAt = Date.now() + 700;
    await t.database.db
      .update(rotations)
      .set({ nextHandoffAt: new Date(dueAt) })
      .where(eq(rotations.id, rotationId));
    await vi.waitFor(() => expect(runs).toHaveLength(3), { timeout: 10_000, interval: 20 });
    expect(runs[2].getTime()).toBeGreaterThanOrEqual(dueAt);
    expect(runs[2].getTime()).toBeLessThan(dueAt + 5_000);
    // the change's wake ran the rotations' task alone
    expect(sweeps).toBe(2);
  } finally {
    await engine.stop();
  }
});
