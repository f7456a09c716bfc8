import { afterAll, beforeAll, expect, test } from 'vitest';
import { FieldCipher, parseMasterKey } from '../../src/server/crypto/field-crypto';
import { type Database, openPostgres } from '../../src/server/db/client';
import { messageIdOf } from '../../src/server/modules/notifications/channels';
import {
  decryptContent,
  enqueueNotifications,
  type NotificationInput,
} from '../../src/server/modules/notifications/outbox';
import { MAX_DELIVERY_ATTEMPTS } from '../../src/shared/domain/notification-routing';
import {
  type BatonProcess,
  createDatabase,
  FAULTS_KEY,
  removeDir,
  sleep,
  startBaton,
  stopAll,
  TestClockFile,
  type TestDatabase,
  tempDir,
} from './support/processes';
import { seededRandom } from './support/providers-faults';
import { startFaultySmtpServer } from './support/providers-smtp';
import { startFaultyTwilio } from './support/providers-twilio';
import { LONG, scale } from './support/scale';

/**
 * Delivery by real Baton processes through failing providers, with a delivery process killed on
 * a timer (issue 14, "Done when"). tests/faults/provider-faults.test.ts runs the same providers
 * against two in-process workers; here two built servers (dist/server/main.js) deliver, with
 * SMTP_URL and TWILIO_* pointed at the loopback fakes, OUTBOX_INTERVAL_SECONDS small and a file
 * clock (decision 090). Every killPeriodMs one of them, in turn, is sent SIGKILL, at the next
 * moment a worker claims a batch (so sends are likely in flight), and started again at once.
 *
 * The providers fail 30% of requests a third each way: an error answer, no answer, and a message
 * accepted whose answer is lost. Here a request without an answer has its connection cut after
 * 500 ms (the fakes' dropAfterMs) instead of hanging until Baton's own 15 s (SMTP) or 10 s (SMS)
 * timeout: to Baton it is the same lost answer, and the run does not take hours. 2% of
 * recipients are refused for good.
 *
 * A killed process leaves the notifications it had claimed leased (120 s on Baton's clock) and
 * possibly delivered without a record. The test moves the clock on only when nothing is due and
 * nothing has been sending for 2 s; the next step past those leases makes them due again, and
 * the other process (or the restarted one) sends them again under the same key.
 *
 * Checked: every notification ends sent, or failed with a reason; none lost (every one recorded
 * as sent arrived); none delivered twice. "Delivered twice" is counted by what arrived (address
 * and text), whatever key it carried; the fakes drop a repeat under a key they have already
 * delivered, as real providers do not (decision 006), so this proves that every repeat,
 * including those after a kill, carried its first attempt's key.
 */

const S = scale.outboxKill;
const NOTIFICATIONS = S.notifications;
const RECIPIENTS = NOTIFICATIONS / 2; // an email and an SMS each
const FAILURE_RATE = 0.3;
const SEED = Number(process.env.FAULTS_SEED ?? 20_261_125);
const LEASE_MS = 120_000;
const T0 = Date.parse('2026-11-02T12:00:00Z');

const refusedEmail = (i: number) => i % 50 === 7;
const refusedPhone = (i: number) => i % 50 === 23;
const emailOf = (i: number) => `${refusedEmail(i) ? 'refused' : 'person'}${i}@example.com`;
const phoneOf = (i: number) => `+1555${String(i).padStart(7, '0')}`;
const refusedPhones = new Set(
  Array.from({ length: RECIPIENTS }, (_, i) => i)
    .filter(refusedPhone)
    .map(phoneOf),
);

let database: TestDatabase;
let own: Database;
let clockDir: string;
let clock: TestClockFile;
let smtp: Awaited<ReturnType<typeof startFaultySmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFaultyTwilio>>;
let env: Record<string, string>;
const instances: BatonProcess[] = [];
const cipher = new FieldCipher(parseMasterKey(FAULTS_KEY));

beforeAll(async () => {
  database = await createDatabase('outbox_kill');
  clockDir = await tempDir('outbox-kill-clock');
  clock = new TestClockFile(`${clockDir}/now`);
  await clock.set(new Date(T0));
  const random = seededRandom(SEED);
  smtp = await startFaultySmtpServer(
    { failureRate: FAILURE_RATE, random, dropAfterMs: 500 },
    (address) => address.startsWith('refused'),
  );
  twilio = await startFaultyTwilio({ failureRate: FAILURE_RATE, random, dropAfterMs: 500 }, (to) =>
    refusedPhones.has(to),
  );
  env = {
    DATABASE_URL: database.url,
    DATA_DIR: '/nonexistent',
    BATON_TEST_CLOCK_FILE: clock.file,
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Baton <baton@example.com>',
    TWILIO_ACCOUNT_SID: twilio.accountSid,
    TWILIO_AUTH_TOKEN: twilio.authToken,
    TWILIO_FROM: '+15550000000',
    TWILIO_API_BASE: twilio.apiBase,
    OUTBOX_INTERVAL_SECONDS: String(S.outboxIntervalSeconds),
    ENGINE_INTERVAL_SECONDS: '3600',
  };
  // The notifications are written with the app's own enqueue function, as the events that cause
  // them would, before delivery starts.
  own = openPostgres(database.url, { max: 2 });
  await own.migrate();
  const inputs: NotificationInput[] = Array.from({ length: RECIPIENTS }, (_, i) => ({
    eventKey: `drill:${i}`,
    kind: 'handoff',
    recipient: { id: null, email: emailOf(i), phone: phoneOf(i), notificationPreference: 'both' },
    subject: `Drill ${i}: you hold the baton`,
    text: `Olivia passed you the baton for drill ${i}.`,
  }));
  for (let from = 0; from < inputs.length; from += 500) {
    await enqueueNotifications(own.db, cipher, new Date(T0), inputs.slice(from, from + 500));
  }
}, LONG);

afterAll(async () => {
  await stopAll();
  await own?.close();
  await smtp?.close();
  await twilio?.close();
  await database?.drop();
  if (clockDir) await removeDir(clockDir);
});

async function count(where: string, params: unknown[] = []): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    `select count(*)::int as n from notifications where ${where}`,
    params,
  );
  return rows[0].n;
}

/** how many delivery attempts have been claimed in all */
async function attemptsMade(): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    'select coalesce(sum(attempts), 0)::int as n from notifications',
  );
  return rows[0].n;
}

/** a digest of every notification's state: it changes when any send is recorded */
async function snapshot(): Promise<string> {
  const { rows } = await database.pool.query<{ digest: string }>(
    `select md5(string_agg(id || ':' || status || ':' || attempts || ':' || coalesce(next_attempt_at::text, '-'), ','
                order by id)) as digest from notifications`,
  );
  return rows[0].digest;
}

test(
  `${NOTIFICATIONS} notifications delivered by Baton processes through providers failing ${FAILURE_RATE * 100}% of the time, one process killed every ${S.killPeriodMs / 1000} s`,
  async () => {
    const started = Date.now();
    let now = T0;
    instances.push(await startBaton({ name: 'instance A', env }));
    instances.push(await startBaton({ name: 'instance B', env }));

    // The killer: every period, SIGKILL one process in turn, and start it again at once.
    const kills: { at: number; leasedAtKill: number }[] = [];
    let done = false;
    const killer = (async () => {
      for (let k = 0; ; k++) {
        const until = Date.now() + S.killPeriodMs;
        while (!done && Date.now() < until) await sleep(50);
        if (done) return;
        // Kill at the next claim (a worker took a batch and is sending it), or after waiting a
        // while longer with nothing being sent.
        const claimed = await attemptsMade();
        const latest = Date.now() + Math.min(S.killPeriodMs, 10_000);
        while (!done && Date.now() < latest && (await attemptsMade()) === claimed) await sleep(10);
        if (done) return;
        const i = k % 2;
        const victim = instances[i];
        victim.child.kill('SIGKILL');
        // Claimed and not yet recorded at the kill, by either process.
        const leasedAtKill = await count(`status = 'pending' and next_attempt_at = $1`, [
          new Date(now + LEASE_MS),
        ]);
        await victim.kill();
        kills.push({ at: Date.now() - started, leasedAtKill });
        instances[i] = await startBaton({ name: victim.name, env });
      }
    })();

    // The clock: on to the next retry (or expired lease) once nothing is due or being sent.
    let rounds = 0;
    try {
      for (;;) {
        if ((await count(`status = 'pending' and next_attempt_at <= $1`, [new Date(now)])) > 0) {
          await sleep(100);
          continue;
        }
        // Nothing may still be sending: no row changed for 2 s.
        const before = await snapshot();
        await sleep(2_000);
        if (
          (await count(`status = 'pending' and next_attempt_at <= $1`, [new Date(now)])) > 0 ||
          (await snapshot()) !== before
        ) {
          continue;
        }
        const { rows } = await database.pool.query<{ at: Date | null }>(
          "select min(next_attempt_at) as at from notifications where status = 'pending'",
        );
        if (!rows[0].at) break;
        now = Math.max(new Date(rows[0].at).getTime(), now) + 120_000;
        await clock.set(new Date(now));
        rounds += 1;
        expect(rounds, 'the outbox drains').toBeLessThan(500);
      }
    } finally {
      done = true;
      await killer;
    }
    const elapsedMs = Date.now() - started;
    await Promise.all(instances.map((p) => p.stop()));

    const rows = (
      await database.pool.query<{
        id: number;
        channel: string;
        status: string;
        attempts: number;
        last_error: string | null;
        provider_response: string | null;
        content_enc: string;
        dedupe_key: string;
      }>('select * from notifications order by id')
    ).rows;
    expect(rows).toHaveLength(NOTIFICATIONS);
    const contentOf = new Map(
      rows.map((r) => [r.id, decryptContent({ id: r.id, contentEnc: r.content_enc }, cipher)]),
    );

    // None lost: every notification ends sent, or failed with a reason.
    const sent = rows.filter((r) => r.status === 'sent');
    const failed = rows.filter((r) => r.status === 'failed');
    expect(sent.length + failed.length).toBe(NOTIFICATIONS);
    for (const row of failed) expect(row.last_error, `#${row.id}`).toBeTruthy();

    // None delivered twice, and every one recorded as sent arrived: deliveries are matched back
    // to notifications by address and text, whatever key came with them.
    expect(smtp.log.unkeyed, 'every email carries a Message-ID').toBe(0);
    expect(twilio.log.unkeyed, 'every SMS carries an idempotency token').toBe(0);
    const identity = (channel: string, to: string, text: string) => `${channel}|${to}|${text}`;
    const notificationBy = new Map(
      rows.map((r) => {
        const c = contentOf.get(r.id)!;
        return [identity(r.channel, c.to, r.channel === 'email' ? c.subject : c.text), r];
      }),
    );
    const deliveredTimes = new Map<number, number>();
    for (const arrival of [
      ...smtp.log.deliveries.map((d) => identity('email', d.message.to[0], d.message.subject)),
      ...twilio.log.deliveries.map((d) => identity('sms', d.message.to, d.message.body)),
    ]) {
      const row = notificationBy.get(arrival);
      expect(row, `a delivery that matches no notification: ${arrival}`).toBeDefined();
      if (row) deliveredTimes.set(row.id, (deliveredTimes.get(row.id) ?? 0) + 1);
    }
    const twice = [...deliveredTimes].filter(([, n]) => n > 1);
    expect(twice, 'notifications delivered more than once').toEqual([]);
    expect(sent.filter((r) => deliveredTimes.get(r.id) !== 1).map((r) => r.id)).toEqual([]);

    // A refused recipient's notification ends failed; any other failure used every attempt. An
    // attempt cut off by a kill counts (its claim did) but its outcome is unknown, so the row is
    // claimed again when its lease ends: a kill may add one attempt to a row, never more.
    const refused = (r: (typeof rows)[number]) => {
      const c = contentOf.get(r.id)!;
      return r.channel === 'email' ? c.to.startsWith('refused') : refusedPhones.has(c.to);
    };
    for (const row of rows.filter(refused)) expect(row.status, `#${row.id}`).toBe('failed');
    const exhausted = failed.filter((r) => !refused(r));
    for (const row of exhausted) {
      expect(row.attempts, `#${row.id}`).toBeGreaterThanOrEqual(MAX_DELIVERY_ATTEMPTS);
      expect(row.attempts, `#${row.id}`).toBeLessThanOrEqual(MAX_DELIVERY_ATTEMPTS + kills.length);
    }

    // Each request at a provider came from a claim, so a row's requests there (by its key) never
    // outnumber its attempts. An attempt with no request is one whose claim was lost before it
    // sent: to a kill, or to a lease that ran out on the moved clock while it waited.
    const requestsOf = (r: (typeof rows)[number]) =>
      r.channel === 'email'
        ? (smtp.log.requestsByKey.get(messageIdOf(r.dedupe_key)) ?? 0)
        : (twilio.log.requestsByKey.get(r.dedupe_key) ?? 0);
    const delivering = rows.filter((r) => !refused(r));
    for (const row of delivering) {
      expect(requestsOf(row), `#${row.id}: requests against attempts`).toBeLessThanOrEqual(
        row.attempts,
      );
    }
    const attemptsWithoutRequest = delivering.reduce((n, r) => n + r.attempts - requestsOf(r), 0);
    const exhaustedByRequests: Record<number, number> = {};
    for (const row of exhausted) {
      const n = requestsOf(row);
      exhaustedByRequests[n] = (exhaustedByRequests[n] ?? 0) + 1;
    }

    // The faults and the kills did happen, and kills cut off sends in flight.
    for (const log of [smtp.log, twilio.log]) {
      expect(log.outcomes.error).toBeGreaterThan(0);
      expect(log.outcomes.timeout).toBeGreaterThan(0);
      expect(log.outcomes['accepted-timeout']).toBeGreaterThan(0);
      expect(log.outcomes.repeat).toBeGreaterThan(0);
    }
    expect(kills.length, 'kills').toBeGreaterThanOrEqual(2);
    expect(
      kills.filter((k) => k.leasedAtKill > 0).length,
      'kills with sends in flight',
    ).toBeGreaterThanOrEqual(kills.length / 2);

    console.info(
      `[outbox-kill] ${JSON.stringify({
        notifications: NOTIFICATIONS,
        sent: sent.length,
        failedRefused: failed.length - exhausted.length,
        failedAfterRetries: exhausted.length,
        attemptsWithoutRequest,
        failedAfterRetriesByRequests: exhaustedByRequests,
        deliveredTwice: twice.length,
        kills: kills.length,
        leasedAtKills: kills.map((k) => k.leasedAtKill),
        smtp: smtp.log.outcomes,
        sms: twilio.log.outcomes,
        clockSteps: rounds,
        elapsedMs,
      })}`,
    );
  },
  LONG,
);
