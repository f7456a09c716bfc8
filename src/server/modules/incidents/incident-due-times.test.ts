import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import type { Clock } from '../../core/clock';
import { pages } from '../../db/schema';
import { startEngine } from '../../engine/run-tick';
import { followNewPolicy, insertRotation, stepsReaching } from '../../seed/factories';
import { incidentStepDueAt, incidentTimersTask } from './incident-escalation-task';
import { nextIncidentDueAt } from './incident-repository';
import { pageRotation } from './rotation-page';

/**
 * The engine wakes when an incident's step falls due (decision 275), not at its next tick: the
 * escalation task says when its next step is due, and a commit that starts or moves a step rings
 * the engine's doorbell (migration 0034). Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

const MINUTE = 60_000;
let t: TestApp;
let manager: User;
let ana: User;
let ben: User;

beforeAll(async () => {
  t = await createTestApp();
  manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
  ana = await t.createUser({ name: 'Ana Alvarez' });
  ben = await t.createUser({ name: 'Ben Brooks' });
});
afterAll(() => t.close());

/** An incident on a rotation Ana holds, whose policy reaches Ana, then Ben after a minute. */
async function raiseIncident() {
  const rotation = await insertRotation(t.database.db, {
    memberIds: [ana.id, ben.id],
    holderId: ana.id,
    createdById: manager.id,
    now: t.clock.now(),
  });
  await followNewPolicy(t.database.db, rotation.id, stepsReaching([ana, ben]), {
    name: `Policy of ${rotation.name}`,
    createdById: manager.id,
    now: t.clock.now(),
  });
  const deps = { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config };
  await pageRotation(deps, manager, rotation.id, {
    message: 'Checkout is failing',
    urgency: 'high',
  });
  const [row] = await t.database.db
    .select()
    .from(pages)
    .where(eq(pages.rotationId, rotation.id))
    .orderBy(desc(pages.id))
    .limit(1);
  return row;
}

const rowOf = async (id: number) =>
  (await t.database.db.select().from(pages).where(eq(pages.id, id)))[0];

const moveStep = (id: number, stepStartedAt: Date) =>
  t.database.db.update(pages).set({ stepStartedAt }).where(eq(pages.id, id));

test('the next step is due a step delay after the step began; none once it is past or the incident is closed', async () => {
  const incident = await raiseIncident();
  const began = incident.stepStartedAt;
  expect(await nextIncidentDueAt(t.database.db, began)).toEqual(new Date(began.getTime() + MINUTE));
  // Due at `now` is the tick's own work, not the next wake.
  expect(await nextIncidentDueAt(t.database.db, new Date(began.getTime() + MINUTE))).toBeNull();
  await t.database.db.update(pages).set({ status: 'resolved' }).where(eq(pages.id, incident.id));
  expect(await nextIncidentDueAt(t.database.db, began)).toBeNull();
});

test('the engine wakes when a step falls due, told by the doorbell at commit, and runs the escalation task alone', async () => {
  const incident = await raiseIncident();
  // Out of the wall clock's way while the engine starts: its first tick finds nothing due.
  await moveStep(incident.id, new Date(Date.now() + 3_600_000));
  const wall: Clock = { now: () => new Date() };
  // a task that keeps no timers: it runs each interval only, never on a step's wake
  let sweeps = 0;
  const sweep = async () => {
    sweeps += 1;
  };
  const engine = startEngine(
    {
      database: t.database,
      cipher: t.cipher,
      clock: wall,
      // the interval far beyond the test: only a due time, and the doorbell that moves it, wake it
      config: { ...t.config, engineIntervalMs: 600_000 },
    },
    [
      { name: 'incident escalation', run: incidentTimersTask, nextDueAt: incidentStepDueAt },
      { name: 'sweep', run: sweep },
    ],
    { listen: t.database.listen },
  );
  try {
    await engine.listening;
    await engine.runOnce();
    expect((await rowOf(incident.id)).stepIndex).toBe(0);
    // The step is now due 700 ms from now: the commit rings, and the engine sleeps until then.
    const dueAt = Date.now() + 700;
    await moveStep(incident.id, new Date(dueAt - MINUTE));
    await vi.waitFor(async () => expect((await rowOf(incident.id)).stepIndex).toBe(1), {
      timeout: 10_000,
      interval: 20,
    });
    // Taken when due, not before, and well inside the ten-minute interval.
    const stepped = await rowOf(incident.id);
    expect(stepped.stepStartedAt.getTime()).toBeGreaterThanOrEqual(dueAt);
    expect(stepped.stepStartedAt.getTime()).toBeLessThan(dueAt + 5_000);
    // the tick at start and the one above; the step's wake ran the escalation task alone
    expect(sweeps).toBe(2);
  } finally {
    await engine.stop();
  }
});
