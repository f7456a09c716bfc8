import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Rotation } from '../../src/shared/contracts/rotations';
import { openEventStream } from '../setup/event-stream';
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
  tempDir,
} from './support/processes';
import { LONG, scale } from './support/scale';
import { createRotation, invitePeople, ok, type Person } from './support/team';

/**
 * SIGTERM under load (issue 20, decision 225): readiness fails first; after SHUTDOWN_DELAY_SECONDS
 * new requests are refused (503 or no connection) while those in flight finish; every request
 * that was answered is durable and none is half-written; an open event stream is told when to
 * reconnect and ends; the engine's tick in flight finishes (a round of automatic handoffs is
 * done whole); the process exits 0 with PGlite shut down cleanly, so it reopens without
 * recovery; a second SIGTERM exits at once.
 */

const S = scale.gracefulShutdown;
const ADMIN = 'admin@example.com';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Rotations hand off daily at 09:00 UTC; the automatic transfer is an hour after. */
const DAY0 = Date.parse('2026-03-02T00:00:00Z');
const boundaryOf = (round: number) => new Date(DAY0 + round * DAY + 9 * HOUR);
const roundTime = (round: number) => new Date(boundaryOf(round).getTime() + HOUR + 30_000);
/**
 * SHUTDOWN_DELAY_SECONDS on PGlite: longer than a /readyz can wait for its database ping behind
 * the engine's round on PGlite's one connection (up to 4.4 s measured at full size), so the test
 * reads readiness failing before the listener closes.
 */
const DELAY_SECONDS = 6;
const METRICS_TOKEN = 'graceful-shutdown-metrics-token';
/** PostgreSQL's DBState in pg_control: 1 is "shut down" (cleanly), 6 "in production". */
const DB_SHUTDOWNED = 1;

const dirs: string[] = [];
afterAll(async () => {
  await stopAll();
  for (const dir of dirs) await removeDir(dir);
});

/** What one request came to: an answer (its status and body), or no answer at all. */
type Outcome = { at: number; status: number; body: unknown } | { at: number; error: string };

async function send(url: string, method: string, route: string, cookie: string, body: unknown) {
  const at = performance.now();
  try {
    const res = await fetch(`${url}${route}`, {
      method,
      headers: { origin: url, cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { at, status: res.status, body: text ? JSON.parse(text) : null } as Outcome;
  } catch (e) {
    return { at, error: String((e as Error).cause ?? e) } as Outcome;
  }
}

/** pgControlState reads the cluster state PostgreSQL records in global/pg_control. */
async function pgControlState(dataDir: string): Promise<number> {
  const control = await readFile(path.join(dataDir, 'pgdata/global/pg_control'));
  // system identifier (8 bytes), pg_control version (4), catalog version (4), then the state
  return control.readUInt32LE(16);
}

async function exitOf(proc: BatonProcess, ms: number) {
  const exit = await Promise.race([proc.exited, sleep(ms).then(() => null)]);
  if (!exit) throw new Error(`${proc.name} did not exit within ${ms} ms:\n${proc.stderr()}`);
  return exit;
}

interface PassRotation {
  id: number;
  name: string;
  members: [Person, Person];
  holder: number;
}

test(
  'PGlite: SIGTERM during passes, a live stream and engine work loses nothing and exits cleanly',
  async () => {
    const dataDir = await tempDir('graceful');
    const clockDir = await tempDir('graceful-clock');
    dirs.push(dataDir, clockDir);
    const clock = new TestClockFile(path.join(clockDir, 'now'));
    await clock.set(new Date(DAY0));
    const env = {
      DATA_DIR: dataDir,
      ADMIN_EMAIL: ADMIN,
      BATON_TEST_CLOCK_FILE: clock.file,
      ENGINE_INTERVAL_SECONDS: '0.2',
      OUTBOX_INTERVAL_SECONDS: '3600',
      SHUTDOWN_DELAY_SECONDS: String(DELAY_SECONDS),
      SHUTDOWN_TIMEOUT_SECONDS: String(DELAY_SECONDS + 10),
      METRICS_TOKEN: METRICS_TOKEN,
    };
    const proc = await startBaton({ name: 'first', env });
    const admin = await signIn(proc.url, ADMIN);
    const people = await invitePeople(
      proc.url,
      admin,
      Array.from({ length: S.passClients * 2 }, (_, i) => ({
        email: `member${i + 1}@example.com`,
        name: `Member ${i + 1}`,
      })),
    );
    const passRotations: PassRotation[] = [];
    for (let c = 0; c < S.passClients; c++) {
      const members: [Person, Person] = [people[c * 2], people[c * 2 + 1]];
      const rotation = await createRotation(proc.url, admin, {
        name: `Passing ${c + 1}`,
        // Thursdays: the engine's round on Monday leaves these to their clients.
        cadence: 'weekly',
        handoffWeekday: 4,
        handoffTime: '09:00',
        timeZone: 'UTC',
        memberIds: members.map((m) => m.id),
        holderId: members[0].id,
      });
      passRotations.push({ id: rotation.id, name: rotation.name, members, holder: members[0].id });
    }
    const engineMembers = people.slice(0, 3).map((p) => p.id);
    const engineRotations: number[] = [];
    for (let r = 0; r < S.pgliteEngineRotations; r++) {
      const rotation = await createRotation(proc.url, admin, {
        name: `Daily ${r + 1}`,
        cadence: 'daily',
        timeZone: 'UTC',
        handoffTime: '09:00',
        memberIds: engineMembers,
        holderId: engineMembers[0],
      });
      engineRotations.push(rotation.id);
    }

    const stream = await openEventStream(proc.url, '/api/events', { cookie: people[0].cookie });
    await stream.waitFor((e) => e.event === 'ready');

    // The load: each client passes its rotation's baton back and forth until the server is gone.
    const outcomes = new Map<number, { notes: string; outcome: Outcome }[]>();
    let gone = false;
    const clients = passRotations.map(async (rotation) => {
      const log: { notes: string; outcome: Outcome }[] = [];
      outcomes.set(rotation.id, log);
      for (let n = 1; !gone; n++) {
        const [a, b] = rotation.members;
        const from = rotation.holder === a.id ? a : b;
        const to = from === a ? b : a;
        const notes = `pass ${n} on ${rotation.name}`;
        const outcome = await send(
          proc.url,
          'POST',
          `/api/rotations/${rotation.id}/handoff`,
          from.cookie,
          { toUserId: to.id, notes },
        );
        log.push({ notes, outcome });
        if ('error' in outcome) {
          gone = true;
          return;
        }
        if (outcome.status >= 200 && outcome.status < 300) rotation.holder = to.id;
        else if (outcome.status !== 503) {
          throw new Error(`pass answered ${outcome.status}: ${JSON.stringify(outcome.body)}`);
        }
      }
    });
    // The engine's round: every daily rotation is due for its automatic transfer.
    await clock.set(roundTime(0));
    await sleep(300);

    // The live server's metrics, under this load, pass promtool and count what it did.
    const scraped = await fetch(`${proc.url}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    const metrics = await scraped.text();
    const promtool = spawnSync('promtool', ['check', 'metrics'], {
      input: metrics,
      encoding: 'utf8',
    });
    expect(promtool.error).toBeUndefined();
    expect(`${promtool.stdout}${promtool.stderr}`).toBe('');
    expect(promtool.status).toBe(0);
    expect(metrics).toMatch(
      /^baton_http_requests_total\{method="POST",route="\/api\/rotations\/:id\/handoff",status="200"\} [1-9]/m,
    );
    expect(metrics).toMatch(/^baton_engine_ticks_total\{outcome="ok"\} [1-9]/m);
    expect(metrics).toMatch(/^baton_live_streams_open 1$/m);

    const signalled = performance.now();
    proc.child.kill('SIGTERM');
    // Readiness fails first (once the signal is handled), while the delay lets the load
    // balancer notice: a 503 that says why, not a refused connection.
    const readyz = () =>
      fetch(`${proc.url}/readyz`).catch((e) => {
        throw new Error(`/readyz found no server before it answered 503: ${e.cause ?? e}`);
      });
    let ready = await readyz();
    const readyAfterMs = () => performance.now() - signalled;
    while (ready.status === 200 && performance.now() - signalled < 10_000) {
      await sleep(5);
      ready = await readyz();
    }
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      message: 'Baton is shutting down',
      code: 'SERVICE_UNAVAILABLE',
    });
    const readyFailedMs = readyAfterMs();
    // The signal was handled by now at the latest: the delay ends DELAY_SECONDS later.
    const refusingBy = signalled + readyFailedMs + DELAY_SECONDS * 1000;
    const exit = await exitOf(proc, (DELAY_SECONDS + 10) * 1000);
    const exitedAt = performance.now();
    gone = true;
    await Promise.all(clients);
    expect(exit, proc.stderr()).toEqual({ code: 0, signal: null });

    // The stream was told when to come back, after its opening's retry: 2000, and ended.
    await stream.ended;
    const retries = [...stream.text().matchAll(/^retry: (\d+)$/gm)].map((m) => Number(m[1]));
    expect(retries[0]).toBe(2_000);
    expect(retries.length).toBe(2);
    expect(retries[1]).toBeGreaterThanOrEqual(2_000);
    expect(retries[1]).toBeLessThan(7_000);

    // Every answer was a pass done or a refusal for the shutdown; passes were answered during
    // the delay, and nothing sent a second after the delay was served.
    const all = [...outcomes.values()].flat();
    const done = all.filter((o) => 'status' in o.outcome && o.outcome.status < 300);
    const refused = all.filter((o) => 'status' in o.outcome && o.outcome.status === 503);
    const unanswered = all.filter((o) => 'error' in o.outcome);
    expect(done.length).toBeGreaterThan(0);
    expect(done.some((o) => o.outcome.at > signalled)).toBe(true);
    for (const o of refused) {
      expect((o.outcome as { body: unknown }).body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    }
    expect(done.filter((o) => o.outcome.at > refusingBy + 500).map((o) => o.notes)).toEqual([]);
    console.info(
      `[graceful-shutdown] SIGTERM → /readyz 503 ${(readyFailedMs / 1000).toFixed(2)} s, → exit ${((exitedAt - signalled) / 1000).toFixed(2)} s; passes: ${done.length} done, ${refused.length} refused, ${unanswered.length} unanswered`,
    );

    // PGlite was shut down cleanly: it reopens without recovery.
    expect(await pgControlState(dataDir)).toBe(DB_SHUTDOWNED);
    const reopening = performance.now();
    const again = await startBaton({
      name: 'reopened',
      env: { ...env, SHUTDOWN_DELAY_SECONDS: '5' },
    });
    const reopenMs = performance.now() - reopening;
    console.info(
      `[graceful-shutdown] PGlite reopened and ready in ${(reopenMs / 1000).toFixed(2)} s`,
    );
    expect(reopenMs).toBeLessThan(15_000);

    const adminAgain = await signIn(again.url, ADMIN);
    // Each pass answered is there once, each refused one is not, none is half-written: the
    // holder is the receiver of the latest handoff.
    for (const rotation of passRotations) {
      const shown = ok(
        await api<Rotation>(again.url, 'GET', `/api/rotations/${rotation.id}`, {
          cookie: adminAgain,
        }),
        'rotation',
      );
      // the rotation's whole history, page by page (a quiet machine makes hundreds of passes)
      type Entry = { notes: string | null; toUser: { id: number } | null };
      const history: Entry[] = [];
      for (let before: string | null = null, first = true; first || before; first = false) {
        const query = new URLSearchParams({ rotationId: String(rotation.id), limit: '100' });
        if (before) query.set('before', before);
        const page: { entries: Entry[]; nextCursor: string | null } = ok(
          await api<{ entries: Entry[]; nextCursor: string | null }>(
            again.url,
            'GET',
            `/api/audit-log/handoffs?${query}`,
            { cookie: adminAgain },
          ),
          'handoffs',
        );
        history.push(...page.entries);
        before = page.nextCursor;
      }
      const notes = new Map<string, number>();
      for (const h of history) if (h.notes) notes.set(h.notes, (notes.get(h.notes) ?? 0) + 1);
      for (const { notes: text, outcome } of outcomes.get(rotation.id) ?? []) {
        const count = notes.get(text) ?? 0;
        if ('error' in outcome) expect(count, `unanswered "${text}"`).toBeLessThanOrEqual(1);
        else if (outcome.status < 300) expect(count, `answered "${text}"`).toBe(1);
        else expect(count, `refused "${text}"`).toBe(0);
      }
      expect(history[0]?.toUser?.id, `${rotation.name}: holder is the latest receiver`).toBe(
        shown.currentOnCallUserId,
      );
    }
    // The engine's round was done whole: every daily rotation moved on to its second member.
    const rotations = ok(
      await api<{ id: number; currentOnCallUserId: number | null }[]>(
        again.url,
        'GET',
        '/api/rotations',
        { cookie: adminAgain },
      ),
      'rotations',
    );
    const holders = rotations
      .filter((r) => engineRotations.includes(r.id))
      .map((r) => r.currentOnCallUserId);
    expect(holders).toEqual(engineRotations.map(() => engineMembers[1]));

    // A second SIGTERM does not wait for the first's delay: the process exits at once.
    again.child.kill('SIGTERM');
    await sleep(300);
    expect((await fetch(`${again.url}/readyz`)).status).toBe(503);
    const second = performance.now();
    again.child.kill('SIGTERM');
    const secondExit = await exitOf(again, 2_000);
    expect(secondExit.code).toBe(128 + 15);
    expect(performance.now() - second).toBeLessThan(1_000);
  },
  LONG,
);

test(
  'PostgreSQL: SIGTERM in the middle of a tick lets it finish: the round is done whole',
  async () => {
    const database = await createDatabase('graceful');
    const clockDir = await tempDir('graceful-pg-clock');
    dirs.push(clockDir);
    try {
      const clock = new TestClockFile(path.join(clockDir, 'now'));
      await clock.set(new Date(DAY0));
      const env = {
        DATABASE_URL: database.url,
        DATA_DIR: '/nonexistent',
        ADMIN_EMAIL: ADMIN,
        BATON_TEST_CLOCK_FILE: clock.file,
        ENGINE_INTERVAL_SECONDS: '0.2',
        OUTBOX_INTERVAL_SECONDS: '3600',
      };
      let proc = await startBaton({ name: 'seeding', env });
      const admin = await signIn(proc.url, ADMIN);
      const members = (
        await invitePeople(
          proc.url,
          admin,
          ['Ana', 'Ben', 'Cid'].map((n) => ({ email: `${n.toLowerCase()}@example.com`, name: n })),
        )
      ).map((p) => p.id);
      const workers = 6;
      await Promise.all(
        Array.from({ length: workers }, async (_, w) => {
          for (let i = w; i < S.engineRotations; i += workers) {
            await createRotation(proc.url, admin, {
              name: `Daily ${i + 1}`,
              cadence: 'daily',
              timeZone: 'UTC',
              handoffTime: '09:00',
              memberIds: members,
              holderId: members[0],
            });
          }
        }),
      );
      const autoCount = async (round: number) => {
        const { rows } = await database.pool.query<{ n: number }>(
          "select count(*)::int as n from handoffs where kind = 'auto' and occurred_at = $1",
          [new Date(boundaryOf(round).getTime() + HOUR)],
        );
        return rows[0].n;
      };

      let caught = 0;
      for (let round = 0; round < S.tickAttempts && caught < 2; round++) {
        if (round > 0) proc = await startBaton({ name: `round ${round}`, env });
        await clock.set(roundTime(round));
        // SIGTERM as soon as the round has begun and before it is done.
        let atSignal = 0;
        for (;;) {
          atSignal = await autoCount(round);
          if (atSignal > 0) break;
          await sleep(1);
        }
        proc.child.kill('SIGTERM');
        const exit = await exitOf(proc, 15_000);
        expect(exit, proc.stderr()).toEqual({ code: 0, signal: null });
        const after = await autoCount(round);
        console.info(
          `[graceful-shutdown] round ${round}: ${atSignal} of ${S.engineRotations} handed off at SIGTERM, ${after} at exit`,
        );
        // The tick under way finished its work: the whole round, not a part of it.
        expect(after).toBe(S.engineRotations);
        if (atSignal < S.engineRotations) caught += 1;
      }
      expect(caught, 'SIGTERM landed in the middle of a round').toBeGreaterThan(0);
    } finally {
      await stopAll();
      await database.drop();
    }
  },
  LONG,
);
