import { createHash } from 'node:crypto';
import { afterAll, beforeEach, expect, test } from 'vitest';
import { startFaultyPostgres } from './support/faulty-postgres';
import {
  api,
  type BatonProcess,
  createDatabase,
  signIn,
  sleep,
  startBaton,
  stopAll,
  type TestDatabase,
} from './support/processes';
import { seededRandom } from './support/providers-faults';
import { LONG, scale } from './support/scale';
import { createRotation, ok } from './support/team';

/**
 * Alert ingestion by the built server while its database fails, and while the process itself is
 * killed mid-request (issue 36). A monitoring source sends PagerDuty Events v2 triggers and, as
 * Alertmanager or PagerDuty's agents do, sends a refused or unanswered one again, the same body,
 * until it is accepted (202). What must hold: every alert accepted is in the database once the
 * trouble is over, and each dedup key has one alert and one incident, however many times its
 * delivery was sent, including a retry of a delivery that had committed before its answer was
 * lost.
 */
const ADMIN = 'admin@example.com';
const ENQUEUE = '/api/alerts/pagerduty/v2/enqueue';
const SEED = Number(process.env.FAULTS_SEED ?? 20_261_130);
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The test's own database: the incidents counted in it are all the test's. */
let database: TestDatabase;
const databases: TestDatabase[] = [];

afterAll(async () => {
  await stopAll();
  for (const d of databases) await d.drop();
});

beforeEach(async () => {
  database = await createDatabase('ingestion');
  databases.push(database);
}, LONG);

/** setUpIntegration: a rotation (the administrator on it) and an integration with room for a storm. */
async function setUpIntegration(url: string, name: string): Promise<{ id: number; key: string }> {
  const cookie = await signIn(url, ADMIN);
  const me = ok(
    await api<{ user: { id: number } }>(url, 'GET', '/api/auth/user', { cookie }),
    'me',
  );
  const rotation = await createRotation(url, cookie, {
    name,
    cadence: 'weekly',
    memberIds: [me.user.id],
    holderId: me.user.id,
  });
  // Every key here is a distinct problem: no storm folds them (the storm limit's maximum), and
  // the rate limit is not what is tested.
  return ok(
    await api<{ id: number; key: string }>(url, 'POST', '/api/integrations', {
      cookie,
      body: { name, rotationId: rotation.id, stormLimit: 10_000, rateLimit: 10_000 },
    }),
    'create integration',
  );
}

const trigger = (routingKey: string, dedupKey: string) =>
  JSON.stringify({
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: `Disk usage above 90% on ${dedupKey}`,
      source: `${dedupKey}.prod.example.com`,
      severity: 'error',
    },
  });

/** What one delivery attempt came to: the status, or `cut` when no answer came. */
type Attempt = number | 'cut';

async function deliver(url: string, body: string): Promise<Attempt> {
  try {
    const res = await fetch(`${url}${ENQUEUE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(30_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 'cut';
  }
}

/** The database's view of the integration's keys: alerts, incidents and times seen per key hash. */
async function stored(integrationId: number) {
  const alerts = await database.pool.query<{
    hash: string;
    alerts: number;
    seen: number;
    pages: number;
    page_id: number | null;
  }>(
    `select dedup_key_hash as hash, count(*)::int as alerts, sum(seen_count)::int as seen,
            count(distinct page_id)::int as pages, min(page_id) as page_id
       from alerts where integration_id = $1 group by dedup_key_hash`,
    [integrationId],
  );
  const keys = await database.pool.query<{ hash: string; page_id: number | null }>(
    'select dedup_key_hash as hash, page_id from alert_keys where integration_id = $1',
    [integrationId],
  );
  const [{ n: incidents }] = (
    await database.pool.query<{ n: number }>('select count(*)::int as n from pages')
  ).rows;
  return {
    alerts: new Map(alerts.rows.map((r) => [r.hash, r])),
    keys: new Map(keys.rows.map((r) => [r.hash, r.page_id])),
    incidents,
  };
}

/**
 * expectOncePerKey: each accepted key has one alert, on one incident, the one its key row names;
 * no incident exists but theirs.
 */
async function expectOncePerKey(integrationId: number, accepted: string[], where: string) {
  const db = await stored(integrationId);
  const pageIds = new Set<number>();
  for (const dedupKey of accepted) {
    const hash = sha256(dedupKey);
    const row = db.alerts.get(hash);
    expect(row, `${where}: accepted alert ${dedupKey} is missing`).toBeDefined();
    expect(row!.alerts, `${where}: ${dedupKey} stored as ${row!.alerts} alerts`).toBe(1);
    expect(row!.page_id, `${where}: ${dedupKey} has no incident`).not.toBeNull();
    expect(db.keys.get(hash), `${where}: ${dedupKey}'s key row`).toBe(row!.page_id);
    pageIds.add(row!.page_id!);
  }
  expect(pageIds.size, `${where}: one incident per key`).toBe(accepted.length);
  expect(db.alerts.size, `${where}: alerts of keys never sent`).toBe(accepted.length);
  expect(db.incidents, `${where}: incidents in all (a second incident for a key)`).toBe(
    accepted.length,
  );
  return db;
}

test(
  `${scale.alertIngestion.alerts} alerts while ${scale.alertIngestion.faultRate * 100}% of database transactions fail`,
  async () => {
    const { alerts, sources, faultRate } = scale.alertIngestion;
    const random = seededRandom(SEED);
    const proxy = await startFaultyPostgres({
      target: { host: '127.0.0.1', port: Number(new URL(database.url).port || 5432) },
      random,
    });
    try {
      const baton = await startBaton({
        name: 'ingestion behind the faulty proxy',
        env: {
          DATABASE_URL: proxy.url(database.name),
          ADMIN_EMAIL: ADMIN,
          DATA_DIR: '/nonexistent',
        },
      });
      const integration = await setUpIntegration(baton.url, 'Database faults');
      const before = (await stored(integration.id)).incidents;
      expect(before).toBe(0);

      proxy.faultRate = faultRate;
      const answers = new Map<Attempt, number>();
      const tally = (a: Attempt) => answers.set(a, (answers.get(a) ?? 0) + 1);
      const attemptsOf: number[] = [];
      const keys = Array.from({ length: alerts }, (_, i) => `db-faults-${i}`);
      const started = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: sources }, async () => {
          while (next < keys.length) {
            const dedupKey = keys[next++];
            const body = trigger(integration.key, dedupKey);
            for (let attempt = 1; ; attempt++) {
              const answer = await deliver(baton.url, body);
              tally(answer);
              if (answer === 202) {
                attemptsOf.push(attempt);
                break;
              }
              if (attempt >= 1_000) throw new Error(`${dedupKey}: not accepted in 1,000 attempts`);
              // The source's back-off: short, so that the faults, not the waiting, are measured.
              await sleep(20 + random() * 80);
            }
          }
        }),
      );
      const elapsedMs = Date.now() - started;
      proxy.faultRate = 0;

      // Only acceptances and the documented refusal of an unavailable database: never a 500, and
      // the process stayed up (no request went unanswered).
      const statuses = [...answers.keys()];
      expect(
        statuses.filter((s) => s !== 202 && s !== 503),
        JSON.stringify([...answers]),
      ).toEqual([]);
      expect(baton.child.exitCode).toBeNull();
      const db = await expectOncePerKey(integration.id, keys, 'after recovery');
      // A delivery answered 503 that had committed anyway: its retry was recorded as a repeat.
      const committedAnyway = keys.filter((k) => (db.alerts.get(sha256(k))?.seen ?? 0) > 1).length;
      // The faults were real: every kind dealt, and many deliveries refused.
      expect(proxy.counts.reset).toBeGreaterThan(0);
      expect(proxy.counts['answer-lost']).toBeGreaterThan(0);
      expect(proxy.counts.stall).toBeGreaterThan(0);
      expect(answers.get(503) ?? 0).toBeGreaterThan(0);
      attemptsOf.sort((a, b) => a - b);
      console.info(
        `[alert-ingestion] ${JSON.stringify({
          alerts,
          faultRate,
          elapsedMs,
          answers: Object.fromEntries(answers),
          attempts: {
            median: attemptsOf[Math.floor(attemptsOf.length / 2)],
            max: attemptsOf.at(-1),
          },
          committedAnyway,
          proxy: proxy.counts,
        })}`,
      );
      await baton.stop();
    } finally {
      await proxy.close();
    }
  },
  LONG,
);

test(
  `the ingestion process killed ${scale.alertIngestion.kills} times mid-request`,
  async () => {
    const { kills, alertsPerRound, sources, killAfterMs } = scale.alertIngestion;
    const random = seededRandom(SEED + 1);
    const env = { DATABASE_URL: database.url, ADMIN_EMAIL: ADMIN, DATA_DIR: '/nonexistent' };
    let baton: BatonProcess = await startBaton({ name: 'ingestion 0', env });
    const integration = await setUpIntegration(baton.url, 'Killed mid-request');
    const before = await stored(integration.id);
    const accepted: string[] = [];
    let cutOff = 0;
    let committedBeforeAnswer = 0;
    const restartMs: number[] = [];
    const started = Date.now();
    for (let round = 1; round <= kills; round++) {
      // This round's new keys, and repeats of keys accepted before (still open: one incident).
      const fresh = Array.from({ length: alertsPerRound }, (_, i) => `kill-${round}-${i}`);
      const repeats = Array.from(
        { length: Math.min(accepted.length, alertsPerRound / 2) },
        () => accepted[Math.floor(random() * accepted.length)],
      );
      const work = [...fresh, ...repeats];
      const pending = new Set(work.map((_, i) => i));
      const inFlight = new Set<number>();
      let atKill = new Set<number>();
      const deliverAll = async (url: string) => {
        const queue = [...pending];
        await Promise.all(
          Array.from({ length: sources }, async () => {
            for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
              inFlight.add(i);
              const answer = await deliver(url, trigger(integration.key, work[i]));
              inFlight.delete(i);
              if (answer === 202) pending.delete(i);
              else if (answer !== 'cut' && answer !== 503)
                throw new Error(`round ${round}: ${work[i]} answered ${answer}`);
            }
          }),
        );
      };
      const sending = deliverAll(baton.url);
      await sleep(killAfterMs.min + random() * (killAfterMs.max - killAfterMs.min));
      atKill = new Set(inFlight);
      await baton.kill();
      await sending;
      // The deliveries the kill cut off: sent, and never answered.
      const cut = [...atKill].filter((i) => pending.has(i));
      cutOff += cut.length;
      // A new key cut off but already in the database had committed before its answer was lost:
      // the source's retry below must find it and record a repeat, not a second incident.
      const afterKill = await stored(integration.id);
      committedBeforeAnswer += cut.filter(
        (i) => i < fresh.length && afterKill.alerts.has(sha256(work[i])),
      ).length;

      const restarted = Date.now();
      baton = await startBaton({ name: `ingestion ${round}`, env });
      restartMs.push(Date.now() - restarted);
      // The source sends again everything not accepted, the cut-off deliveries included.
      for (let pass = 1; pending.size > 0; pass++) {
        if (pass > 20) throw new Error(`round ${round}: ${pending.size} never accepted`);
        await deliverAll(baton.url);
      }
      for (const k of fresh) accepted.push(k);
      await expectOncePerKey(integration.id, accepted, `round ${round}`);
      if (round % 10 === 0) {
        console.info(
          `[alert-ingestion] round ${round}: ${accepted.length} keys, ${cutOff} cut off, ${committedBeforeAnswer} committed first, ${Math.round((Date.now() - started) / 1000)} s`,
        );
      }
    }
    expect(before.alerts.size).toBe(0);
    // The kills landed mid-request, and some cut-off deliveries had committed: their retries met
    // the key they had written.
    expect(cutOff).toBeGreaterThanOrEqual(kills);
    restartMs.sort((a, b) => a - b);
    console.info(
      `[alert-ingestion] ${JSON.stringify({
        kills,
        accepted: accepted.length,
        cutOff,
        committedBeforeAnswer,
        restartMs: { median: restartMs[Math.floor(restartMs.length / 2)], max: restartMs.at(-1) },
        elapsedMs: Date.now() - started,
      })}`,
    );
  },
  // A hundred restarts take 10–25 minutes on a loaded 2-core machine.
  2 * LONG,
);
