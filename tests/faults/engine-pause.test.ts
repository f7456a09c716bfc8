import type pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENGINE_CONCURRENCY } from '../../src/server/engine/due-rows';
import { FLOW_BATCH } from '../../src/server/modules/handoffs/handoff-flow-task';
import {
  api,
  type BatonProcess,
  createDatabase,
  removeDir,
  signIn,
  sleep,
  startBaton,
  stopAll,
  TestClockFile,
  type TestDatabase,
  tempDir,
} from './support/processes';
import { LONG, scale } from './support/scale';
import { createRotation, invitePeople, type Person } from './support/team';

/**
 * An instance paused (SIGSTOP) while it holds rotations' row locks in the middle of an engine
 * tick (issue 14, "Locks that wait forever"; decision 168). A frozen VM or a half-open connection
 * looks the same to PostgreSQL: a session idle inside a transaction, its locks held. Two
 * instances on one database run the engine on a file clock (decision 090), with a short lock
 * time-out and idle-in-transaction time-out. Each round moves the clock past every rotation's
 * automatic transfer, waits until one instance (the victim) is inside a transaction holding
 * rotation row locks, and stops it there. Then:
 *
 * - the other instance's engine skips the locked rotations (SKIP LOCKED) and does the rest: the
 *   victim's rotations are still undone after its next tick, so the lock really was held;
 * - the request path: a pass of the baton on one of those rotations, sent to the other instance,
 *   waits for the row lock and answers 503 with Retry-After after the lock time-out, while the
 *   victim is still stopped, instead of waiting without end. (Pausing an instance inside a pass
 *   request's own transaction cannot be timed from outside; the engine's batch transaction holds
 *   the same row lock a pass would, so the waiting side is the same code path.)
 * - the server ends the victim's session after the idle-in-transaction time-out, its locks go,
 *   and the other instance's next tick started after that finishes the round;
 * - the victim resumes (SIGCONT): its transaction is gone, so its tick fails once, and its next
 *   tick succeeds (the engine is not wedged). Every rotation has exactly one automatic handoff
 *   for the round and two notifications, and no dedupe key is written twice.
 */

const S = scale.enginePause;
const ADMIN = 'admin@example.com';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const DAY0 = Date.parse('2026-04-06T00:00:00Z');
const boundaryOf = (round: number) => new Date(DAY0 + round * DAY + 9 * HOUR);
/** 60 minutes after the boundary, the automatic transfer is due for every rotation */
const roundTime = (round: number) => new Date(boundaryOf(round).getTime() + HOUR + 30_000);
const APP_NAMES = ['baton-pause-a', 'baton-pause-b'];

let database: TestDatabase;
/** the test's own reads (several at once: a pool) */
let watcher: pg.Pool;
let clockDir: string;
let clock: TestClockFile;
const instances: BatonProcess[] = [];
let people: Person[];
let memberIds: number[];
let rotationIds: number[];

beforeAll(async () => {
  database = await createDatabase('pause');
  watcher = database.pool;
  clockDir = await tempDir('pause-clock');
  clock = new TestClockFile(`${clockDir}/now`);
  await clock.set(new Date(DAY0));
  for (const [i, name] of ['instance A', 'instance B'].entries()) {
    instances.push(
      await startBaton({
        name,
        env: {
          // The application name tells the test which server sessions are this instance's.
          DATABASE_URL: `${database.url}?application_name=${APP_NAMES[i]}`,
          DATA_DIR: '/nonexistent',
          ADMIN_EMAIL: ADMIN,
          BATON_TEST_CLOCK_FILE: clock.file,
          ENGINE_INTERVAL_SECONDS: String(S.engineIntervalSeconds),
          OUTBOX_INTERVAL_SECONDS: '3600',
          DB_LOCK_TIMEOUT_MS: String(S.lockTimeoutMs),
          DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(S.idleInTransactionTimeoutMs),
          DB_STATEMENT_TIMEOUT_MS: '10000',
        },
      }),
    );
  }
  const admin = await signIn(instances[0].url, ADMIN);
  people = await invitePeople(
    instances[0].url,
    admin,
    ['Ada', 'Bo', 'Cy'].map((n) => ({
      email: `${n.toLowerCase()}@example.com`,
      name: `${n} Pause`,
    })),
  );
  memberIds = people.map((p) => p.id);
  rotationIds = [];
  const workers = 6;
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = w; i < S.rotations; i += workers) {
        const rotation = await createRotation(instances[i % 2].url, admin, {
          name: `Pause ${i}`,
          cadence: 'daily',
          timeZone: 'UTC',
          handoffTime: '09:00',
          memberIds,
          holderId: memberIds[0],
        });
        rotationIds.push(rotation.id);
      }
    }),
  );
}, LONG);

afterAll(async () => {
  for (const proc of instances) {
    if (proc.child.exitCode === null) proc.child.kill('SIGCONT');
  }
  await stopAll();
  await database?.drop();
  if (clockDir) await removeDir(clockDir);
});

async function autoCount(round: number): Promise<number> {
  const { rows } = await watcher.query<{ n: number }>(
    "select count(*)::int as n from handoffs where kind = 'auto' and occurred_at = $1",
    [new Date(boundaryOf(round).getTime() + HOUR)],
  );
  return rows[0].n;
}

/**
 * lockHolders answers the server sessions of an instance that are inside a transaction holding
 * rotations' row locks (`for update` takes RowShareLock on the table) and that has written
 * automatic handoffs not yet committed (RowExclusiveLock on handoffs): a batch with work to do.
 */
async function lockHolders(appName: string): Promise<number[]> {
  const { rows } = await watcher.query<{ pid: number }>(
    `select a.pid from pg_stat_activity a
      where a.application_name = $1 and a.xact_start is not null
        and exists (select 1 from pg_locks l where l.pid = a.pid and l.granted
                     and l.relation = 'rotations'::regclass and l.mode = 'RowShareLock')
        and exists (select 1 from pg_locks l where l.pid = a.pid and l.granted
                     and l.relation = 'handoffs'::regclass and l.mode = 'RowExclusiveLock')`,
    [appName],
  );
  return rows.map((r) => r.pid);
}

/** openTransactions answers the sessions of an instance inside a transaction. */
async function openTransactions(appName: string): Promise<number[]> {
  const { rows } = await watcher.query<{ pid: number }>(
    'select pid from pg_stat_activity where application_name = $1 and xact_start is not null',
    [appName],
  );
  return rows.map((r) => r.pid);
}

async function anyAlive(pids: number[]): Promise<boolean> {
  const { rows } = await watcher.query('select 1 from pg_stat_activity where pid = any($1)', [
    pids,
  ]);
  return rows.length > 0;
}

async function sessionAlive(pid: number): Promise<boolean> {
  const { rows } = await watcher.query('select 1 from pg_stat_activity where pid = $1', [pid]);
  return rows.length > 0;
}

/** tickedAt waits until the instance has finished a tick at `at` (its /readyz says so). */
async function tickedAt(instance: BatonProcess, at: Date, timeoutMs = 30_000): Promise<void> {
  const iso = at.toISOString();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${instance.url}/readyz`);
    const body = (await res.json()) as { engine?: { lastTickAt: string | null } };
    if (res.status === 200 && body.engine?.lastTickAt === iso) return;
    if (Date.now() > deadline) throw new Error(`${instance.name} did not tick at ${iso}`);
    await sleep(2);
  }
}

/**
 * pauseHoldingLocks stops the victim (SIGSTOP) at a moment one of its sessions is inside a
 * transaction holding rotation row locks, and answers that session once it is sure the stopped
 * process left it so. Null when the round's work finished before such a moment was caught.
 */
async function pauseHoldingLocks(
  victim: BatonProcess,
  appName: string,
  round: number,
): Promise<{ pid: number; stuck: number[] } | null> {
  for (;;) {
    const holding = await lockHolders(appName);
    if (holding.length > 0) {
      victim.child.kill('SIGSTOP');
      // A COMMIT already in flight ends the transaction anyway; a stopped process sends nothing
      // more, so a transaction still open a moment later stays open.
      await sleep(150);
      const still = (await lockHolders(appName)).filter((pid) => holding.includes(pid));
      if (still.length > 0) return { pid: still[0], stuck: await openTransactions(appName) };
      victim.child.kill('SIGCONT');
    } else if ((await autoCount(round)) === rotationIds.length) {
      return null;
    }
  }
}

test(
  `${S.pauses} SIGSTOPs of an instance holding rotation locks mid-tick: the other takes the work over after the idle-in-transaction time-out, requests answer 503 meanwhile, nothing is done twice`,
  async () => {
    const R = rotationIds.length;
    expect(R).toBe(S.rotations);
    const results: {
      round: number;
      victim: string;
      lockedRotations: number;
      passWaitMs: number;
      sessionEndedMs: number;
      takeoverMs: number;
    }[] = [];
    let missed = 0;

    for (let round = 0; results.length < S.pauses; round++) {
      expect(missed, 'rounds finished before a lock holder was caught').toBeLessThan(10);
      const victimIndex = results.length % 2;
      const victim = instances[victimIndex];
      const survivor = instances[1 - victimIndex];
      const at = roundTime(round);
      await clock.set(at);
      const paused = await pauseHoldingLocks(victim, APP_NAMES[victimIndex], round);
      if (paused === null) {
        missed += 1;
      } else {
        // The engine runs up to ENGINE_CONCURRENCY batch transactions at once: all of them stop.
        const { pid, stuck } = paused;
        const stoppedAt = Date.now();
        const survivorLogAt = { out: survivor.stdout().length, err: survivor.stderr().length };
        let allDoneAt = 0;
        const watching = (async () => {
          while ((await autoCount(round)) < R) await sleep(5);
          allDoneAt = Date.now();
        })();

        // The survivor's engine goes on around the locked rotations: a whole tick of it that
        // began after the stop (the tick that ends at the first clock step may have begun before).
        await clock.set(new Date(at.getTime() + 1000));
        await tickedAt(survivor, new Date(at.getTime() + 1000));
        await clock.set(new Date(at.getTime() + 1500));
        await tickedAt(survivor, new Date(at.getTime() + 1500));
        const undone = await watcher.query<{ id: number }>(
          `select r.id from rotations r where r.id = any($1) and not exists
            (select 1 from handoffs h where h.rotation_id = r.id and h.kind = 'auto'
                and h.occurred_at = $2)`,
          [rotationIds, new Date(boundaryOf(round).getTime() + HOUR)],
        );
        const stillStopped = await sessionAlive(pid);
        expect(
          stillStopped,
          `round ${round}: the stopped session ended before the survivor's two ticks were done (${Date.now() - stoppedAt} ms after the stop)`,
        ).toBe(true);
        expect(
          undone.rows.length,
          `round ${round}: rotations left to the stopped instance`,
        ).toBeGreaterThan(0);
        expect(undone.rows.length).toBeLessThanOrEqual(ENGINE_CONCURRENCY * FLOW_BATCH);

        // The request path: a pass on a rotation the stopped instance holds gives up after the
        // lock time-out with 503 and Retry-After.
        const holder = people[round % people.length];
        const to = people[(round + 2) % people.length];
        const sent = Date.now();
        // Without time-outs the pass would wait as long as the instance stays stopped.
        const answer = await Promise.race([
          api(survivor.url, 'POST', `/api/rotations/${undone.rows[0].id}/handoff`, {
            cookie: holder.cookie,
            body: { toUserId: to.id, notes: `pause round ${round}` },
          }),
          sleep(S.idleInTransactionTimeoutMs).then(() => 'no answer while the lock was held'),
        ]);
        const passWaitMs = Date.now() - sent;
        expect(await sessionAlive(pid), `round ${round}: the lock was still held`).toBe(true);
        expect(answer, `round ${round}: the pass`).toEqual({
          status: 503,
          body: {
            message: 'The database is busy. Try again shortly.',
            code: 'SERVICE_UNAVAILABLE',
          },
        });
        expect(passWaitMs).toBeGreaterThanOrEqual(S.lockTimeoutMs - 20);
        // Still the same rotations left undone: the survivor's later ticks skip them too.
        expect(await autoCount(round), `round ${round}: while the lock is held`).toBe(
          R - undone.rows.length,
        );

        // The server ends the stopped session after the idle-in-transaction time-out.
        while (await anyAlive(stuck)) {
          expect(Date.now() - stoppedAt, `round ${round}: the session was not ended`).toBeLessThan(
            S.idleInTransactionTimeoutMs + 15_000,
          );
          await sleep(20);
        }
        const sessionEndedMs = Date.now() - stoppedAt;

        // One survivor tick that started after the session ended finishes the round: the one that
        // ends at the next clock time may have begun before, so two clock steps are waited for.
        await clock.set(new Date(at.getTime() + 2000));
        await tickedAt(survivor, new Date(at.getTime() + 2000));
        await clock.set(new Date(at.getTime() + 3000));
        await tickedAt(survivor, new Date(at.getTime() + 3000));
        expect(await autoCount(round), `round ${round}: handed off after the take-over`).toBe(R);
        await watching;
        const takeoverMs = allDoneAt - stoppedAt;
        // Nothing of the survivor's waited on the stopped instance's locks: no tick of it failed.
        expect(
          survivor.stdout().slice(survivorLogAt.out) + survivor.stderr().slice(survivorLogAt.err),
          `round ${round}: ${survivor.name}'s log while the other was stopped`,
        ).not.toMatch(/engine tick failed/);

        // The stopped instance resumes; its cut-off transaction fails, and its engine goes on.
        victim.child.kill('SIGCONT');
        await clock.set(new Date(at.getTime() + 4000));
        await tickedAt(victim, new Date(at.getTime() + 4000));
        await tickedAt(survivor, new Date(at.getTime() + 4000));

        const { rows } = await watcher.query<{ rotation_id: number; n: number; ids: number[] }>(
          `select rotation_id, count(*)::int as n, array_agg(id) as ids from handoffs
            where kind = 'auto' and effect_key like 'auto:%:' || $1 group by rotation_id`,
          [boundaryOf(round).toISOString()],
        );
        expect(rows.length, `round ${round}: rotations handed off`).toBe(R);
        expect(
          rows.filter((r) => r.n !== 1),
          `round ${round}: doubled`,
        ).toEqual([]);
        const holders = await watcher.query<{ holder: number; n: number }>(
          'select holder_user_id as holder, count(*)::int as n from rotations where id = any($1) group by 1',
          [rotationIds],
        );
        expect(holders.rows, `round ${round}: holders`).toEqual([
          { holder: memberIds[(round + 1) % memberIds.length], n: R },
        ]);
        const notices = await watcher.query<{ n: number }>(
          'select count(*)::int as n from notifications where dedupe_key like any($1)',
          [rows.map((r) => `handoff:${r.ids[0]}:%`)],
        );
        expect(notices.rows[0].n, `round ${round}: notifications`).toBe(2 * R);
        results.push({
          round,
          victim: victim.name,
          lockedRotations: undone.rows.length,
          passWaitMs,
          sessionEndedMs,
          takeoverMs,
        });
      }
      if (paused === null) {
        // Nothing was caught: the round is done by both; the next round tries again.
        await clock.set(new Date(at.getTime() + 1000));
        await tickedAt(instances[0], new Date(at.getTime() + 1000));
        await tickedAt(instances[1], new Date(at.getTime() + 1000));
      }
    }

    const dupes = await watcher.query(
      'select dedupe_key from notifications group by 1 having count(*) > 1',
    );
    expect(dupes.rows).toEqual([]);
    const passes = await watcher.query("select 1 from handoffs where kind = 'pass'");
    expect(passes.rows, 'no pass answered 503 was recorded').toEqual([]);
    const sorted = (pick: (r: (typeof results)[number]) => number) =>
      results.map(pick).sort((a, b) => a - b);
    const summary = (values: number[]) =>
      `median ${values[Math.floor(values.length / 2)]} ms, max ${values.at(-1)} ms`;
    console.info(
      `[engine-pause] ${results.length} pauses (${missed} rounds finished before a lock holder was caught) over ${R} rotations; locked by the stopped instance: ${results
        .map((r) => r.lockedRotations)
        .join(
          ', ',
        )}; pass answered 503 after ${summary(sorted((r) => r.passWaitMs))}; stopped session ended after ${summary(
        sorted((r) => r.sessionEndedMs),
      )}; stop → all handed off: ${summary(sorted((r) => r.takeoverMs))} (idle-in-transaction time-out ${S.idleInTransactionTimeoutMs} ms, tick every ${S.engineIntervalSeconds * 1000} ms)`,
    );
    // A resumed instance's cut-off transaction may fail its tick, once per pause at most.
    for (const proc of instances) {
      const failures = (proc.stdout() + proc.stderr()).match(/engine tick failed/g) ?? [];
      expect(failures.length, proc.name).toBeLessThanOrEqual(Math.ceil(S.pauses / 2));
    }
  },
  LONG,
);
