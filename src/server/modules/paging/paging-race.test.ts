import { desc, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { notifications, pages } from '../../db/schema';
import { AppError } from '../../http/errors';
import { insertRotation } from '../../seed/factories';
import { runIncidentTimers as runPageTimers } from '../incidents/incident-escalation-task';
import type { IncidentDeps } from '../incidents/incident-facts';
import { pageRotation } from '../incidents/rotation-page';
import { acknowledgePage } from './page-actions';

/**
 * The acknowledgement and the clock's step for the same page, fired at the same moment, on a
 * fresh page each time. Both lock the page row and re-check it, so exactly one of them acts and
 * no step is sent for a page acknowledged before the step committed. (On PostgreSQL the two
 * transactions really run side by side; PGlite runs one connection and serializes them.)
 */
/**
 * On PostgreSQL the two transactions really overlap: 200 rounds. PGlite's one connection runs them
 * one after the other, so its rounds only vary which goes first: 50 see both orders many times
 * (the fault suite's page-races runs the race between processes too).
 */
const ROUNDS = process.env.TEST_DATABASE_URL ? 200 : 50;
/** 200 rounds take 9–13 s on PostgreSQL here, and over 30 s on a busy machine (no time is asserted). */
const RACE_TIMEOUT_MS = 120_000;
const MINUTE = 60_000;

let t: TestApp;
let deps: IncidentDeps & { config: TestApp['config'] };
let manager: User;
let holder: User;
let next: User;
let rotationId: number;

beforeAll(async () => {
  t = await createTestApp();
  deps = { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config };
  manager = await t.createUser({ roles: ['manager'] });
  holder = await t.createUser({ name: 'Holly Holder' });
  next = await t.createUser({ name: 'Nate Next' });
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id, next.id],
    holderId: holder.id,
    createdById: manager.id,
  });
  rotationId = rotation.id;
});
afterAll(() => t.close());

async function freshPage(round: number) {
  t.clock.set(new Date(Date.UTC(2027, 0, 1) + round * 3 * 3_600_000));
  await pageRotation(deps, manager, rotationId, { message: `Round ${round}`, urgency: 'high' });
  const [row] = await t.database.db
    .select()
    .from(pages)
    .where(eq(pages.rotationId, rotationId))
    .orderBy(desc(pages.id))
    .limit(1);
  return row;
}

const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'acknowledged' as const,
    (err: unknown) => {
      if (err instanceof AppError && err.status === 403) return 'refused' as const;
      throw err;
    },
  );

async function stepNotifications(pageId: number, step: 'escalation' | 'reminder') {
  return t.database.db
    .select()
    .from(notifications)
    .where(like(notifications.dedupeKey, `page:${pageId}:step:${step === 'reminder' ? 1 : 2}:%`));
}

async function closeRound(pageId: number) {
  // Out of the clock's way for the next rounds.
  await t.database.db.update(pages).set({ status: 'resolved' }).where(eq(pages.id, pageId));
}

test(`acknowledgement versus automatic escalation at 30 minutes: exactly one wins (${ROUNDS} rounds)`, {
  timeout: RACE_TIMEOUT_MS,
}, async () => {
  const tally = { acknowledged: 0, escalated: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const page = await freshPage(round);
    // The default policy's reminder at 15 minutes first; the escalation is its next step.
    await runPageTimers(deps, new Date(page.createdAt.getTime() + 15 * MINUTE));
    const due = new Date(page.createdAt.getTime() + 30 * MINUTE);
    t.clock.set(due);
    const [ack, timers] = await Promise.all([
      outcome(acknowledgePage(deps, holder, page.id)),
      runPageTimers(deps, due),
    ]);
    const [after] = await t.database.db.select().from(pages).where(eq(pages.id, page.id));
    const escalations = await stepNotifications(page.id, 'escalation');
    if (ack === 'acknowledged') {
      // The acknowledgement committed first: the step found the page acknowledged and sent nothing.
      expect(after).toMatchObject({ status: 'acknowledged', targetUserId: holder.id });
      expect(timers.escalated).toBe(0);
      expect(escalations).toEqual([]);
      tally.acknowledged += 1;
    } else {
      // The escalation committed first: the page moved on, so the first holder can no longer ack.
      expect(after).toMatchObject({ status: 'escalated', targetUserId: next.id });
      expect(after.acknowledgedAt).toBeNull();
      expect(timers.escalated).toBe(1);
      expect(escalations.map((n) => n.userId).sort()).toEqual([manager.id, next.id].sort());
      tally.escalated += 1;
    }
    await closeRound(page.id);
  }
  expect(tally.acknowledged + tally.escalated).toBe(ROUNDS);
});

test(`acknowledgement versus the 15-minute reminder: no reminder after the acknowledgement (${ROUNDS} rounds)`, {
  timeout: RACE_TIMEOUT_MS,
}, async () => {
  for (let round = ROUNDS; round < 2 * ROUNDS; round++) {
    const page = await freshPage(round);
    const due = new Date(page.createdAt.getTime() + 15 * MINUTE);
    t.clock.set(due);
    const [ack] = await Promise.all([
      outcome(acknowledgePage(deps, holder, page.id)),
      runPageTimers(deps, due),
    ]);
    expect(ack).toBe('acknowledged');
    const reminders = await stepNotifications(page.id, 'reminder');
    const [ackNotice] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.dedupeKey, `page:${page.id}:acknowledged:${manager.id}:email`));
    expect(ackNotice).toBeDefined();
    // A reminder may only exist if its transaction held the page before the acknowledgement did:
    // its rows were then written (and their ids drawn) before the acknowledgement's.
    for (const reminder of reminders) expect(reminder.id).toBeLessThan(ackNotice.id);
    await closeRound(page.id);
  }
});
