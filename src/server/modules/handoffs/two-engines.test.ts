import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { expectedAutoHandoffs, monthOfShiftsSeeds } from '../../../../tests/setup/month-of-shifts';
import {
  createTestApp,
  openSecondInstance,
  type SecondInstance,
  type TestApp,
} from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import {
  nextHandoffAt,
  type ShiftPattern,
  scheduleTransitions,
  type TimeWindow,
} from '../../../shared/domain/shifts';
import type { Database } from '../../db/client';
import { handoffs, notifications, rotations, scheduleEntries } from '../../db/schema';
import type { EngineDeps } from '../../engine/engine-task';
import { runTasks } from '../../engine/run-tick';
import { ENGINE_TASKS } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';

/**
 * Two engines run side by side over a simulated month that crosses the daylight-saving changes of
 * Sydney (4 October), London (25 October) and New York (1 November), with a two-day outage in
 * the middle; the handoff history they write together must be exactly what the shared shift
 * functions say. On PostgreSQL (TEST_DATABASE_URL) each engine has its own connection pool to
 * the one database; on PGlite the two share the one embedded database.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = new Date('2026-09-28T00:00:00Z');
const END = new Date('2026-11-06T00:00:00Z');
const OUTAGE = { from: new Date('2026-10-14T06:00:00Z'), to: new Date('2026-10-16T11:00:00Z') };
const STEP = 29 * MINUTE;
/**
 * The tasks that write handoffs and their notices, in the engine's order. The others (incidents,
 * time off, destinations, sweeps) have nothing to do here and their own tests; run on each of the
 * month's 3,800 engine ticks they were half of this file's time.
 */
const HANDOFF_TASKS = ENGINE_TASKS.filter((task) =>
  [
    'coverage windows',
    'fixed rotations',
    'scheduled rotations',
    'scheduled notices',
    'acknowledgements',
  ].includes(task.name),
);

let t: TestApp;
let secondInstance: SecondInstance;
let second: Database;
let people: User[];

beforeAll(async () => {
  t = await createTestApp();
  secondInstance = await openSecondInstance(t);
  second = secondInstance.database;
  people = [];
  for (const name of ['Uma', 'Vik', 'Wes', 'Xia', 'Yan']) {
    people.push(await t.createUser({ name: `${name} Tester`, roles: ['on-call'] }));
  }
}, 120_000);
afterAll(async () => {
  await secondInstance.close();
  await t.close();
});

interface FixedCase {
  id: number;
  pattern: ShiftPattern;
  memberIds: number[];
  holderId: number | null;
  firstBoundary: Date;
}

test('two engines over a month: every boundary handed off once, as the shift functions say', async () => {
  expect(HANDOFF_TASKS).toHaveLength(5);
  t.clock.set(START);
  const [uma, vik, , , yan] = people.map((p) => p.id);
  const fixedSeeds = monthOfShiftsSeeds(people.map((p) => p.id));
  const fixed: FixedCase[] = [];
  for (const [i, seed] of fixedSeeds.entries()) {
    const row = await insertRotation(t.database.db, {
      name: `Month fixed ${i + 1}`,
      ...seed.pattern,
      memberIds: seed.memberIds,
      holderId: seed.holderId,
      holderSince: START,
      now: START,
    });
    fixed.push({ id: row.id, ...seed, firstBoundary: row.nextHandoffAt as Date });
  }
  const suspended = await insertRotation(t.database.db, {
    name: 'Month suspended',
    cadence: 'daily',
    memberIds: [uma, vik],
    holderId: uma,
    suspended: true,
    now: START,
  });

  const scheduled = await insertRotation(t.database.db, {
    name: 'Month scheduled',
    type: 'scheduled',
    memberIds: [vik, yan],
    now: START,
  });
  const entries: TimeWindow[] = [];
  // Weekdays 08:00–20:00 UTC alternate between Vik and Yan; nights and weekends are gaps; one
  // entry runs into the outage.
  for (let day = 0; day < 38; day++) {
    const date = new Date(START.getTime() + day * 24 * HOUR);
    if (date.getUTCDay() === 0 || date.getUTCDay() === 6) continue;
    entries.push({
      userId: day % 2 === 0 ? vik : yan,
      start: new Date(date.getTime() + 8 * HOUR),
      end: new Date(date.getTime() + 20 * HOUR),
    });
  }
  await t.database.db.insert(scheduleEntries).values(
    entries.map((e) => ({
      rotationId: scheduled.id,
      userId: e.userId,
      startAt: e.start,
      endAt: e.end,
    })),
  );
  await t.database.db
    .update(rotations)
    .set({ nextHandoffAt: entries[0].start })
    .where(eq(rotations.id, scheduled.id));

  const engines: EngineDeps[] = [
    { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
    { config: t.config, database: second, cipher: t.cipher, clock: t.clock },
  ];
  let lastTick = START;
  for (let now = START.getTime(); now < END.getTime(); now += STEP) {
    if (now >= OUTAGE.from.getTime() && now < OUTAGE.to.getTime()) continue;
    t.clock.set(new Date(now));
    await Promise.all(engines.map((deps) => runTasks(deps, new Date(now), HANDOFF_TASKS)));
    lastTick = new Date(now);
  }

  const t_ = t.config.handoffTimings;
  const recorded = await t.database.db
    .select()
    .from(handoffs)
    .orderBy(asc(handoffs.rotationId), asc(handoffs.occurredAt), asc(handoffs.id));
  const actual = recorded.map((h) => [
    h.rotationId,
    h.kind,
    h.fromUserId,
    h.toUserId,
    h.occurredAt.toISOString(),
  ]);

  const expected: unknown[][] = [];
  for (const f of fixed) {
    const walk = expectedAutoHandoffs(f, lastTick, t_.autoTransferAfterMs);
    expected.push(...walk.rows);
    // The shift functions agree with the stored holder and next boundary.
    const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, f.id));
    expect(row.holderUserId).toBe(walk.holder);
    expect(row.nextHandoffAt).toEqual(nextHandoffAt(f.pattern, walk.lastBoundary));
  }
  let holder: number | null = null;
  for (const change of scheduleTransitions(entries, entries[0].start, lastTick)) {
    if (change.userId === holder) continue;
    expected.push([scheduled.id, 'schedule', holder, change.userId, change.at.toISOString()]);
    holder = change.userId;
  }
  expected.sort((a, b) => (a[0] as number) - (b[0] as number));

  expect(actual).toEqual(expected);
  expect(actual.length).toBeGreaterThan(100);
  expect(recorded.filter((h) => h.rotationId === suspended.id)).toEqual([]);
  // The DST boundaries were handed off at their local times.
  expect(actual).toContainEqual([
    fixed[2].id,
    'auto',
    expect.any(Number),
    expect.any(Number),
    '2026-10-03T17:00:00.000Z',
  ]);
  expect(actual).toContainEqual([
    fixed[3].id,
    'auto',
    expect.any(Number),
    expect.any(Number),
    '2026-11-01T06:30:00.000Z',
  ]);

  // Each automatic handoff outside the outage told both people once; nothing was sent twice.
  const sent = await t.database.db.select().from(notifications);
  const keys = sent.map((n) => n.dedupeKey);
  expect(new Set(keys).size).toBe(keys.length);
  const upAfter = new Date(OUTAGE.to.getTime() + STEP);
  for (const h of recorded.filter((r) => r.kind === 'auto' && r.occurredAt > upAfter)) {
    expect(
      sent.filter((n) => n.dedupeKey.startsWith(`handoff:${h.id}:`)).length,
      `handoff ${h.id}`,
    ).toBe(2);
  }
  // When the engines came back, no stale notices: nothing was sent for a boundary whose
  // automatic handoff fell in the outage.
  const afterOutage = sent.filter(
    (s) => s.dedupeKey.startsWith('handoff-flow:') && s.createdAt >= OUTAGE.to,
  );
  expect(afterOutage.length).toBeGreaterThan(0);
  for (const n of afterOutage) {
    const boundary = new Date(n.dedupeKey.split(':').slice(2, 5).join(':'));
    expect(boundary.getTime() + t_.autoTransferAfterMs, n.dedupeKey).toBeGreaterThan(
      OUTAGE.to.getTime(),
    );
  }
}, 600_000);
