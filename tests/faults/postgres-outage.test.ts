import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type BatonProcess, signIn, startBaton } from './support/outage-baton';
import { type ScratchPostgres, startScratchPostgres } from './support/outage-postgres';

/**
 * PostgreSQL stopped during writes. A Baton process runs on a PostgreSQL cluster of the test's
 * own; writers reassign the baton continuously (each write carries unique notes) while the
 * cluster is stopped and started again. During the outage every request answers 503 with a
 * message, never 500 and never a dropped connection; every write that was answered 2xx is in
 * the database afterwards, exactly once; and Baton answers writes and readiness normally again
 * within 10 s of the database returning, without a restart.
 */
const CI = process.env.FAULTS_SCALE === 'ci';
// The shared setup file sets 30 s per test; these runs take longer at full size.
const TEST_TIMEOUT_MS = 900_000;
const OUTAGES: { mode: 'immediate' | 'fast'; downMs: number }[] = CI
  ? [{ mode: 'immediate', downMs: 3_000 }]
  : [
      { mode: 'immediate', downMs: 5_000 },
      { mode: 'fast', downMs: 5_000 },
      { mode: 'immediate', downMs: 10_000 },
    ];
const ROTATIONS = CI ? 4 : 8;
const RECOVERY_LIMIT_MS = 10_000;

interface Answer {
  kind: 'write' | 'read' | 'ready';
  startedAt: number;
  endedAt: number;
  /** 0: no HTTP answer at all (connection refused or reset) */
  status: number;
  body: unknown;
  notes?: string;
}

let cluster: ScratchPostgres;
let baton: BatonProcess;
let cookie: string;
const answers: Answer[] = [];

async function call(
  kind: Answer['kind'],
  path: string,
  init: { method?: string; body?: unknown; notes?: string } = {},
): Promise<Answer> {
  const startedAt = Date.now();
  let status = 0;
  let body: unknown = null;
  try {
    const res = await fetch(`${baton.url}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        cookie,
        origin: baton.url,
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
      signal: AbortSignal.timeout(20_000),
    });
    status = res.status;
    const text = await res.text();
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  } catch (err) {
    body = String(err);
  }
  const answer = { kind, startedAt, endedAt: Date.now(), status, body, notes: init.notes };
  answers.push(answer);
  return answer;
}

async function setupRotations(): Promise<{ id: number; members: number[] }[]> {
  const users = (await call('read', '/api/users')).body as { id: number; email: string }[];
  const onCall = ['olivia.ortiz', 'noah.nakamura', 'priya.patel', 'sam.sullivan'].map((name) => {
    const user = users.find((u) => u.email === `${name}@example.com`);
    if (!user) throw new Error(`demo user ${name} is missing`);
    return user.id;
  });
  const rotations: { id: number; members: number[] }[] = [];
  for (let i = 0; i < ROTATIONS; i++) {
    const created = await call('write', '/api/rotations', {
      method: 'POST',
      body: { name: `Outage drill ${i + 1}`, cadence: 'weekly' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = (created.body as { id: number }).id;
    const members = [onCall[i % 4], onCall[(i + 1) % 4], onCall[(i + 2) % 4]];
    for (const userId of members) {
      const added = await call('write', `/api/rotations/${id}/on-call`, {
        method: 'POST',
        body: { userId },
      });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
    }
    rotations.push({ id, members });
  }
  return rotations;
}

/** writer reassigns one rotation's baton around its members until told to stop. */
async function writer(
  rotation: { id: number; members: number[] },
  running: () => boolean,
  acknowledged: string[],
) {
  let holder: number | null | undefined;
  let seq = 0;
  while (running()) {
    let to: number;
    if (holder === undefined) {
      // After a 503 the last write may or may not have committed: read the holder again, and
      // while that fails too, write anyway to a guessed member (a 409 if it is the holder).
      const read = await call('read', `/api/rotations/${rotation.id}`);
      if (read.status === 200) {
        holder = (read.body as { currentOnCallUserId: number | null }).currentOnCallUserId;
        continue;
      }
      to = rotation.members[seq % rotation.members.length];
    } else {
      to = rotation.members[(rotation.members.indexOf(holder ?? -1) + 1) % rotation.members.length];
    }
    const notes = `outage:${rotation.id}:${seq++}`;
    const answer = await call('write', `/api/rotations/${rotation.id}/assign-oncall`, {
      method: 'POST',
      body: { toUserId: to, notes },
      notes,
    });
    if (answer.status === 200) {
      acknowledged.push(notes);
      holder = to;
    } else {
      holder = undefined;
      await sleep(50);
    }
  }
}

async function readiness(running: () => boolean) {
  while (running()) {
    await call('ready', '/readyz');
    await sleep(100);
  }
}

beforeAll(async () => {
  cluster = await startScratchPostgres();
  baton = await startBaton({
    DATABASE_URL: cluster.url(),
    DEMO: '1',
    ENGINE_INTERVAL_SECONDS: '1',
    OUTBOX_INTERVAL_SECONDS: '1',
  });
  cookie = await signIn(baton.url, 'avery.admin@example.com');
});

afterAll(async () => {
  await baton?.stop();
  await cluster?.destroy();
});

const isUnavailableAnswer = (a: Answer) =>
  a.status === 503 &&
  typeof (a.body as { message?: unknown })?.message === 'string' &&
  ((a.body as { message: string }).message.length ?? 0) > 0;

test(
  `PostgreSQL stopped during writes (${OUTAGES.length} outage(s), ${ROTATIONS} writers)`,
  async () => {
    const rotations = await setupRotations();
    answers.length = 0;
    const acknowledged: string[] = [];
    let running = true;
    const workers = [
      ...rotations.map((r) => writer(r, () => running, acknowledged)),
      readiness(() => running),
    ];
    const outcomes: {
      mode: string;
      downMs: number;
      unavailable: number;
      recoveryMs: number;
    }[] = [];
    try {
      for (const outage of OUTAGES) {
        await sleep(1_500);
        const before = acknowledged.length;
        expect(before, 'writes succeed before the outage').toBeGreaterThan(0);
        const stopping = Date.now();
        await cluster.stop(outage.mode);
        const stoppedAt = Date.now();
        await sleep(outage.downMs);
        const restarting = Date.now();
        await cluster.start();
        const startedAt = Date.now();

        // Recovery: the first 2xx write and the first ready answer begun after the server was back.
        const deadline = startedAt + 15_000;
        let writeBack: number | undefined;
        let readyBack: number | undefined;
        while (Date.now() < deadline && (writeBack === undefined || readyBack === undefined)) {
          await sleep(50);
          writeBack ??= answers.find(
            (a) => a.kind === 'write' && a.status === 200 && a.startedAt >= startedAt,
          )?.endedAt;
          readyBack ??= answers.find(
            (a) => a.kind === 'ready' && a.status === 200 && a.startedAt >= startedAt,
          )?.endedAt;
        }
        const after = answers.filter((a) => a.startedAt >= startedAt);
        const tail = JSON.stringify(after.slice(-6).map((a) => [a.kind, a.status, a.body]));
        expect(
          writeBack,
          `a write succeeds after the database returns: ${tail}\n${baton.output().slice(-3000)}`,
        ).toBeDefined();
        expect(readyBack, '/readyz answers 200 after the database returns').toBeDefined();
        const recoveryMs = Math.max(writeBack ?? 0, readyBack ?? 0) - startedAt;

        // While the server was down (from its stop to its restart), every answer was a 503 with a message.
        const during = answers.filter((a) => a.startedAt >= stoppedAt && a.endedAt <= restarting);
        const writesDuring = during.filter((a) => a.kind === 'write');
        const readyDuring = during.filter((a) => a.kind === 'ready');
        expect(writesDuring.length, 'writes were attempted during the outage').toBeGreaterThan(0);
        expect(readyDuring.length).toBeGreaterThan(0);
        for (const a of during) {
          expect(
            isUnavailableAnswer(a),
            `${a.kind} during the outage: ${a.status} ${JSON.stringify(a.body)}`,
          ).toBe(true);
        }
        // Requests caught by the stop itself: 503, not 500.
        const caught = answers.filter((a) => a.startedAt < stoppedAt && a.endedAt >= stopping);
        for (const a of caught) expect([200, 409, 503], JSON.stringify(a)).toContain(a.status);

        expect(recoveryMs, 'recovered within 10 s of the database returning').toBeLessThanOrEqual(
          RECOVERY_LIMIT_MS,
        );
        expect(baton.exitCode(), 'the Baton process is still running').toBeNull();
        outcomes.push({
          mode: outage.mode,
          downMs: outage.downMs,
          unavailable: during.length,
          recoveryMs,
        });
      }
      await sleep(1_500);
    } finally {
      running = false;
      await Promise.all(workers);
    }

    // Nothing but 200, 409 (the holder moved, e.g. after a write whose answer was lost) and 503.
    const unexpected = answers.filter((a) => ![200, 201, 409, 503].includes(a.status));
    expect(unexpected, JSON.stringify(unexpected.slice(0, 5))).toEqual([]);
    expect(baton.output()).not.toMatch(/unhandled error|uncaught|Baton failed/i);

    // Every acknowledged write is present, once; no write appears that was never sent.
    const db = new pg.Client({ connectionString: cluster.url() });
    await db.connect();
    const { rows } = await db
      .query<{ notes: string; n: number }>(
        `select notes, count(*)::int as n from handoffs where notes like 'outage:%' group by notes`,
      )
      .finally(() => db.end());
    const stored = new Map(rows.map((r) => [r.notes, r.n]));
    const missing = acknowledged.filter((notes) => stored.get(notes) !== 1);
    expect(missing, 'acknowledged writes missing or doubled').toEqual([]);
    const sent = new Set(answers.filter((a) => a.notes).map((a) => a.notes));
    expect([...stored.keys()].filter((notes) => !sent.has(notes))).toEqual([]);
    const ambiguous = answers.filter(
      (a) => a.kind === 'write' && a.status !== 200 && a.notes && stored.has(a.notes),
    ).length;

    const writes = answers.filter((a) => a.kind === 'write');
    console.info(
      `[postgres-outage] ${JSON.stringify({
        writes: writes.length,
        acknowledged: acknowledged.length,
        unavailable503: writes.filter((a) => a.status === 503).length,
        committedDespite503: ambiguous,
        status500: answers.filter((a) => a.status >= 500 && a.status !== 503).length,
        outages: outcomes,
      })}`,
    );
  },
  TEST_TIMEOUT_MS,
);
