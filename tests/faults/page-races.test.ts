import { setTimeout as sleep } from 'node:timers/promises';
import { and, desc, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ManualClock } from '../../src/server/core/clock';
import { FieldCipher, parseMasterKey } from '../../src/server/crypto/field-crypto';
import { type Database, openPostgres } from '../../src/server/db/client';
import { notifications, pages } from '../../src/server/db/schema';
import { runTasks } from '../../src/server/engine/run-tick';
import { AppError } from '../../src/server/http/errors';
import { acknowledgeByLink } from '../../src/server/modules/incidents/ack-link';
import { storedAckToken } from '../../src/server/modules/incidents/ack-token';
import { incidentTimersTask as pageTimersTask } from '../../src/server/modules/incidents/incident-escalation-task';
import type { IncidentDeps } from '../../src/server/modules/incidents/incident-facts';
import { pageRotation } from '../../src/server/modules/incidents/rotation-page';
import { acknowledgePage } from '../../src/server/modules/paging/page-actions';
import { insertRotation, insertUser } from '../../src/server/seed/factories';
import type { User } from '../../src/shared/contracts/users';
import { testConfig } from '../setup/test-app';
import { createLocalDatabase } from './support/outage-postgres';
import { seededRandom } from './support/providers-faults';

/**
 * A page's acknowledgement against its escalation timer, on PostgreSQL (PGlite runs one
 * connection and would serialise the two). Two instances share one database: one acknowledges
 * (in the app or by the emailed link), the other runs the engine's page-timer task, at the
 * moment a step is due, with varied delays so that either may reach the page first. Whatever
 * the order: exactly one of them acts, and nothing is sent for a step after the
 * acknowledgement commits. The steps raced (a page is an incident on its rotation's default
 * policy, decision 204): the 15-minute reminder, and the 30-minute escalation after it.
 */
const CI = process.env.FAULTS_SCALE === 'ci';
const TEST_TIMEOUT_MS = 900_000;
/** pages raced at once, one per rotation; the engine's tick takes them one after another */
const PAGES_PER_ROUND = 10;
const ROUNDS = CI ? 10 : 100;
const MINUTE = 60_000;
const STEP_KINDS = ['page.reminder', 'page.warning', 'page.escalated', 'page.escalation_notice'];

type Race = 'reminder' | 'escalation';

let dbUrl: { url: string; drop: () => Promise<void> };
let ackInstance: Database;
let engineInstance: Database;
const config = testConfig();
const cipher = new FieldCipher(parseMasterKey(config.encryptionKey!));
const clock = new ManualClock('2027-01-01T00:00:00Z');
let acks: IncidentDeps & { config: typeof config };
let engine: IncidentDeps & { config: typeof config };
let manager: User;
const rotations: { id: number; members: User[] }[] = [];
const random = seededRandom(Number(process.env.FAULTS_SEED ?? 1_000));

beforeAll(async () => {
  dbUrl = await createLocalDatabase('baton_faults_pages');
  ackInstance = openPostgres(dbUrl.url, { max: PAGES_PER_ROUND + 2 });
  engineInstance = openPostgres(dbUrl.url, { max: 4 });
  await ackInstance.migrate();
  acks = { database: ackInstance, cipher, clock, config };
  engine = { database: engineInstance, cipher, clock, config };
  manager = await insertUser(ackInstance.db, cipher, { name: 'Mia Manager', roles: ['manager'] });
  for (let r = 0; r < PAGES_PER_ROUND; r++) {
    const members: User[] = [];
    for (let m = 0; m < 3; m++) {
      members.push(await insertUser(ackInstance.db, cipher, { name: `Member ${r}.${m}` }));
    }
    const rotation = await insertRotation(ackInstance.db, {
      name: `Race ${r}`,
      memberIds: members.map((m) => m.id),
      holderId: members[0].id,
      createdById: manager.id,
    });
    rotations.push({ id: rotation.id, members });
  }
});

afterAll(async () => {
  await ackInstance?.close();
  await engineInstance?.close();
  await dbUrl?.drop();
});

const tick = (at: Date) => runTasks(engine, at, [{ name: 'page timers', run: pageTimersTask }]);

type Outcome = 'acknowledged' | 'refused';

/** acknowledge acknowledges as the page's recipient, in the app or by the link in the message. */
async function acknowledge(page: typeof pages.$inferSelect, by: User, viaLink: boolean) {
  try {
    if (viaLink) {
      const token = storedAckToken(
        cipher,
        { pageId: page.id, targetUserId: by.id, stepStart: page.escalatedAt ?? page.createdAt },
        page.ackTokenHash,
      );
      if (!token) throw new Error(`no link token for page ${page.id}`);
      await acknowledgeByLink(acks, token);
    } else {
      await acknowledgePage(acks, by, page.id);
    }
    return 'acknowledged' as const;
  } catch (err) {
    // The step came first: the page moved to someone else (403 in the app, 404 for the old link).
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) {
      return 'refused' as const;
    }
    throw err;
  }
}

/** the notifications of automatic and escalation steps of these pages (keys `page:<id>:...`) */
const stepRows = async (pageIds: number[]) =>
  (
    await ackInstance.db
      .select()
      .from(notifications)
      .where(and(inArray(notifications.kind, STEP_KINDS), like(notifications.dedupeKey, 'page:%')))
  ).filter((r) => pageIds.includes(pageIdOf(r.dedupeKey)));

const pageIdOf = (dedupeKey: string) => Number(dedupeKey.split(':')[1]);

test(
  `${ROUNDS * PAGES_PER_ROUND} races between acknowledgement and the page timers`,
  async () => {
    // Who reached the page first, by step raced.
    const tally: Record<Race, { ackFirst: number; stepFirst: number }> = {
      reminder: { ackFirst: 0, stepFirst: 0 },
      escalation: { ackFirst: 0, stepFirst: 0 },
    };
    const started = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      const race: Race = (['reminder', 'escalation'] as const)[round % 2];
      const base = new Date(Date.UTC(2027, 0, 1) + round * 4 * 3_600_000);
      clock.set(base);
      const pageIds: number[] = [];
      for (const [r, rotation] of rotations.entries()) {
        const message = `Round ${round} rotation ${r}`;
        await pageRotation(acks, manager, rotation.id, { message, urgency: 'high' });
        const [row] = await ackInstance.db
          .select()
          .from(pages)
          .where(eq(pages.rotationId, rotation.id))
          .orderBy(desc(pages.id))
          .limit(1);
        pageIds.push(row.id);
      }
      let stepStart = base;
      if (race === 'escalation') {
        // The reminder, unraced; the race is over the escalation, the policy's next step.
        stepStart = new Date(base.getTime() + 15 * MINUTE);
        clock.set(stepStart);
        await tick(stepStart);
      }
      const due = new Date(stepStart.getTime() + 15 * MINUTE);
      clock.set(due);
      const before = await ackInstance.db.select().from(pages).where(inArray(pages.id, pageIds));
      const earlierSteps = new Set((await stepRows(pageIds)).map((r) => r.id));

      // The race: the engine's tick and every recipient's acknowledgement, each after a random
      // delay (the tick takes the pages one by one, so later pages give acknowledgements a lead).
      const tickDelay = Math.floor(random() * 3);
      const ackPlans = before.map((page) => ({
        page,
        by: rotations.flatMap((r) => r.members).find((m) => m.id === page.targetUserId) as User,
        viaLink: random() < 0.5,
        delay: Math.floor(random() * 60),
      }));
      const [, ...outcomes] = await Promise.all([
        sleep(tickDelay).then(() => tick(due)),
        ...ackPlans.map((p) => sleep(p.delay).then(() => acknowledge(p.page, p.by, p.viaLink))),
      ]);

      const after = new Map(
        (await ackInstance.db.select().from(pages).where(inArray(pages.id, pageIds))).map((p) => [
          p.id,
          p,
        ]),
      );
      const allNotifications = await ackInstance.db
        .select()
        .from(notifications)
        .where(like(notifications.dedupeKey, 'page:%'));
      const steps = (await stepRows(pageIds)).filter((n) => !earlierSteps.has(n.id));
      for (const [i, plan] of ackPlans.entries()) {
        const outcome = outcomes[i] as Outcome;
        const page = after.get(plan.page.id)!;
        const mine = steps.filter((n) => pageIdOf(n.dedupeKey) === page.id);
        const where = `round ${round} (${race}), page ${page.id}, ${outcome} via ${plan.viaLink ? 'link' : 'app'}`;
        tally[race][outcome === 'refused' || mine.length > 0 ? 'stepFirst' : 'ackFirst'] += 1;
        if (outcome === 'acknowledged') {
          expect(page, where).toMatchObject({ status: 'acknowledged', targetUserId: plan.by.id });
          const ackNotice = allNotifications.find((n) =>
            n.dedupeKey.startsWith(`page:${page.id}:acknowledged:`),
          );
          expect(ackNotice, where).toBeDefined();
          // A step's rows may exist only if its transaction held the page before the
          // acknowledgement did: its ids were then drawn first. No escalation can have happened
          // at all (the acknowledgement checked, under the lock, that the recipient was unchanged).
          for (const n of mine) {
            expect(n.id, `${where}: ${n.kind} after the acknowledgement`).toBeLessThan(
              ackNotice!.id,
            );
            expect(n.kind, where).not.toMatch(/escalat/);
          }
        } else {
          // The step committed first; the acknowledgement found the page moved on.
          expect(race, where).not.toBe('reminder');
          expect(page.status, where).toBe('escalated');
          expect(page.targetUserId, where).not.toBe(plan.by.id);
          expect(page.acknowledgedAt, where).toBeNull();
          expect(mine.map((n) => n.kind).sort(), where).toEqual(
            ['page.escalated', 'page.escalation_notice'].sort(),
          );
        }
      }

      // Later ticks send nothing for an acknowledged page.
      const acknowledged = pageIds.filter((id) => after.get(id)?.status === 'acknowledged');
      const sentBefore = new Set((await stepRows(acknowledged)).map((n) => n.id));
      for (const later of [45, 75]) {
        const at = new Date(due.getTime() + later * MINUTE);
        clock.set(at);
        await tick(at);
      }
      const sentLater = (await stepRows(acknowledged)).filter((n) => !sentBefore.has(n.id));
      expect(sentLater, `round ${round}: steps after the acknowledgement`).toEqual([]);

      // Out of the clock's way for the next rounds.
      await ackInstance.db
        .update(pages)
        .set({ status: 'resolved' })
        .where(inArray(pages.id, pageIds));
    }

    // Both orders happened: the races were real.
    const all = Object.values(tally);
    expect(all.reduce((n, t) => n + t.ackFirst, 0)).toBeGreaterThan(0);
    expect(all.reduce((n, t) => n + t.stepFirst, 0)).toBeGreaterThan(0);
    console.info(
      `[page-races] ${JSON.stringify({ races: ROUNDS * PAGES_PER_ROUND, tally, elapsedMs: Date.now() - started })}`,
    );
  },
  TEST_TIMEOUT_MS,
);
