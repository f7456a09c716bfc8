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
import { decryptContent } from '../../src/server/modules/notifications/outbox';
import { acknowledgePage } from '../../src/server/modules/paging/page-actions';
import { putNotificationRules } from '../../src/server/modules/people/notification-rules-service';
import { saveSubscription } from '../../src/server/modules/push/push-subscription-repository';
import { answerSmsReply } from '../../src/server/modules/sms-replies/sms-reply';
import { CALL_WORDS, pressKey } from '../../src/server/modules/voice-calls/voice-call-service';
import { callToken } from '../../src/server/modules/voice-calls/voice-call-urls';
import { insertRotation, insertUser } from '../../src/server/seed/factories';
import type { User } from '../../src/shared/contracts/users';
import { testConfig } from '../setup/test-app';
import { createLocalDatabase } from './support/outage-postgres';
import { seededRandom } from './support/providers-faults';
import { scale } from './support/scale';

/**
 * A page's acknowledgement against its escalation timer, on PostgreSQL (PGlite runs one
 * connection and would serialise the two). Two instances share one database: one acknowledges,
 * the other runs the engine's page-timer task, at the moment a step is due, with varied delays
 * so that either may reach the page first. Whatever the order: exactly one of them acts, and
 * nothing is sent for a step after the acknowledgement commits. The steps raced (a page is an
 * incident on its rotation's default policy, decision 204): the 15-minute reminder, and the
 * 30-minute escalation after it. Each round acknowledges by one channel, in turn (issue 36): in
 * the app, by the emailed link, by the push notification's Acknowledge (its own link, as the
 * service worker posts it), by an SMS reply with the page's code from the person's phone, and
 * by pressing 1 in the phone call (the callback Twilio posts, its signature checked by the route
 * before this code runs). Every member's rules send all four at once, so each step's messages
 * carry each channel's means of acknowledging.
 */
// 5,000 races take 15–20 minutes on a loaded 2-core machine.
const TEST_TIMEOUT_MS = 1_800_000;
/** pages raced at once, one per rotation; the engine's tick takes them one after another */
const PAGES_PER_ROUND = 10;
const CHANNELS = ['app', 'link', 'push', 'sms', 'call'] as const;
type Channel = (typeof CHANNELS)[number];
/**
 * The channels that acknowledge as one of the incident's responders (acknowledgeIncidentAs), not
 * as its current recipient: after an escalation the person paged before may still acknowledge.
 */
const ANY_RESPONDER = new Set<Channel>(['sms', 'call']);
/** rounds of each step and channel: every pair (step, channel) gets as many */
const ROUNDS = scale.pageRaces.roundsPerStepAndChannel * 2 * CHANNELS.length;
const ALL_RULES = [
  { method: 'email', delayMinutes: 0 },
  { method: 'sms', delayMinutes: 0 },
  { method: 'voice', delayMinutes: 0 },
  { method: 'push', delayMinutes: 0 },
] as const;
const MINUTE = 60_000;
const STEP_KINDS = ['page.reminder', 'page.warning', 'page.escalated', 'page.escalation_notice'];

type Race = 'reminder' | 'escalation';

let dbUrl: { url: string; drop: () => Promise<void> };
let ackInstance: Database;
let engineInstance: Database;
// Twilio configured (never called: nothing delivers here), so that SMS pages carry reply codes
// and calls have their callbacks.
const config = testConfig({
  PUBLIC_URL: 'https://baton.example.test',
  TWILIO_ACCOUNT_SID: 'AC_page_races',
  TWILIO_AUTH_TOKEN: 'page-races-auth-token',
  TWILIO_FROM: '+15550009999',
});
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
      const member = await insertUser(ackInstance.db, cipher, {
        name: `Member ${r}.${m}`,
        phone: `+1555020${r}${m}00`,
        notificationPreference: 'both',
      });
      const userDeps = { db: ackInstance.db, cipher, clock };
      await putNotificationRules(userDeps, member, member.id, {
        high: [...ALL_RULES],
        low: [...ALL_RULES],
      });
      await ackInstance.db.transaction((tx) =>
        saveSubscription(tx, cipher, {
          userId: member.id,
          endpoint: `https://push.example.test/send/${member.id}`,
          keys: {
            p256dh:
              'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
          name: 'Phone',
          expiresAt: null,
          now: clock.now(),
        }),
      );
      members.push(member);
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

/** latestTo: the newest message of a page on a channel to a person (the current step's). */
async function latestTo(pageId: number, userId: number, channel: 'push' | 'sms' | 'voice') {
  const [row] = await ackInstance.db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.pageId, pageId),
        eq(notifications.userId, userId),
        eq(notifications.channel, channel),
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(1);
  if (!row) throw new Error(`no ${channel} message of page ${pageId} to ${userId}`);
  return { row, text: JSON.stringify(decryptContent(row, cipher)) };
}

/**
 * acknowledge acknowledges as the page's recipient by one channel, with what that channel's
 * message of the current step carries; `refused` when the step came first.
 */
async function acknowledge(
  page: typeof pages.$inferSelect,
  by: User,
  channel: Channel,
): Promise<Outcome> {
  try {
    if (channel === 'link') {
      const token = storedAckToken(
        cipher,
        { pageId: page.id, targetUserId: by.id, stepStart: page.escalatedAt ?? page.createdAt },
        page.ackTokenHash,
      );
      if (!token) throw new Error(`no link token for page ${page.id}`);
      await acknowledgeByLink(acks, token);
    } else if (channel === 'push') {
      const { text } = await latestTo(page.id, by.id, 'push');
      const path = /\/api\/pages\/ack\/([^"\\]+)/.exec(text);
      if (!path) throw new Error(`no Acknowledge in the push of page ${page.id}: ${text}`);
      await acknowledgeByLink(acks, decodeURIComponent(path[1]));
    } else if (channel === 'sms') {
      const { text } = await latestTo(page.id, by.id, 'sms');
      const code = /Reply (\d{4}) to acknowledge/.exec(text);
      if (!code) throw new Error(`no reply code in the SMS of page ${page.id}: ${text}`);
      const answer = await answerSmsReply(acks, { from: by.phone!, body: code[1] });
      // Any other answer is the page's state: the step came first and the page moved on.
      return answer.startsWith('Baton: you acknowledged') ? 'acknowledged' : 'refused';
    } else if (channel === 'call') {
      const { row } = await latestTo(page.id, by.id, 'voice');
      const twiml = await pressKey(acks, {
        notificationId: row.id,
        token: callToken(cipher, row.id),
        callSid: `CA${row.id}x${Math.floor(random() * 1e9)}`,
        callStatus: 'in-progress',
        digits: '1',
      });
      return twiml.includes(CALL_WORDS.acknowledged) ? 'acknowledged' : 'refused';
    } else {
      await acknowledgePage(acks, by, page.id);
    }
    return 'acknowledged';
  } catch (err) {
    // The step came first: the page moved to someone else (403 in the app, 404 for the old link).
    if (err instanceof AppError && (err.status === 403 || err.status === 404)) {
      return 'refused';
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
    // Who reached the page first, by step raced and by channel.
    const tally: Record<string, { ackFirst: number; stepFirst: number }> = {};
    // Step first, then acknowledged by the person paged before (SMS reply or call).
    let afterStep = 0;
    const started = Date.now();
    for (let round = 0; round < ROUNDS; round++) {
      const race: Race = (['reminder', 'escalation'] as const)[round % 2];
      const channel = CHANNELS[Math.floor(round / 2) % CHANNELS.length];
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
        delay: Math.floor(random() * 60),
      }));
      const [, ...outcomes] = await Promise.all([
        sleep(tickDelay).then(() => tick(due)),
        ...ackPlans.map((p) => sleep(p.delay).then(() => acknowledge(p.page, p.by, channel))),
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
        const where = `round ${round} (${race}), page ${page.id}, ${outcome} via ${channel}`;
        tally[`${race} ${channel}`] ??= { ackFirst: 0, stepFirst: 0 };
        tally[`${race} ${channel}`][
          outcome === 'refused' || mine.length > 0 ? 'stepFirst' : 'ackFirst'
        ] += 1;
        if (outcome === 'acknowledged') {
          const ackNotice = allNotifications.find((n) =>
            n.dedupeKey.startsWith(`page:${page.id}:acknowledged:`),
          );
          expect(page.status, where).toBe('acknowledged');
          expect(page.acknowledgedById, where).toBe(plan.by.id);
          expect(ackNotice, where).toBeDefined();
          // A step's rows may exist only if its transaction held the page before the
          // acknowledgement did: its ids were then drawn first.
          for (const n of mine) {
            expect(n.id, `${where}: ${n.kind} after the acknowledgement`).toBeLessThan(
              ackNotice!.id,
            );
          }
          const escalated = mine.some((n) => /escalat/.test(n.kind));
          if (ANY_RESPONDER.has(channel) && escalated) {
            // The step came first and the page moved on; the person paged before still answers
            // for the incident, and an SMS reply or a call acknowledges as a responder.
            expect(page.targetUserId, where).not.toBe(plan.by.id);
            afterStep += 1;
          } else {
            // No escalation can have happened at all (the acknowledgement checked, under the
            // lock, that the recipient was unchanged).
            expect(page.targetUserId, where).toBe(plan.by.id);
            expect(escalated, where).toBe(false);
          }
        } else {
          // The step committed first; the acknowledgement found the page moved on.
          expect(race, where).not.toBe('reminder');
          expect(page.status, where).toBe('escalated');
          expect(page.targetUserId, where).not.toBe(plan.by.id);
          expect(page.acknowledgedAt, where).toBeNull();
          expect([...new Set(mine.map((n) => n.kind))].sort(), where).toEqual(
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
      `[page-races] ${JSON.stringify({ races: ROUNDS * PAGES_PER_ROUND, tally, afterStep, elapsedMs: Date.now() - started })}`,
    );
  },
  TEST_TIMEOUT_MS,
);
