import { afterAll, afterEach, beforeEach, expect, test } from 'vitest';
import {
  api,
  type BatonProcess,
  removeDir,
  signIn,
  sleep,
  spawnBaton,
  startBaton,
  stopAll,
  tempDir,
} from './support/processes';
import { LONG } from './support/scale';
import { ok } from './support/team';

/**
 * Two Baton processes on one PGlite data directory (issue 8, "Faults"): the embedded database
 * has one writer, so the second process must refuse to start, saying why, and leave the first
 * one and its data alone.
 */

const ADMIN = 'avery.admin@example.com';
const REFUSAL =
  /^Another Baton process is already using the data directory (\S+)\. Stop that process, or set DATA_DIR to a different directory\.\n$/;

let dataDir: string;
beforeEach(async () => {
  dataDir = await tempDir('pglite');
});
afterEach(async () => {
  await stopAll();
  await removeDir(dataDir);
});
afterAll(async () => {
  await stopAll();
});

/** pglite starts nothing: the environment of a PGlite instance on the test's directory, demo data. */
const pglite = () => ({ DATA_DIR: dataDir, DEMO: '1' });

/** expectRefused waits for a process to exit and checks it refused to start, clearly. */
async function expectRefused(proc: BatonProcess) {
  const { code, signal } = await proc.exited;
  expect(signal).toBeNull();
  expect(code).toBe(1);
  const match = REFUSAL.exec(proc.stderr());
  expect(match, proc.stderr()).not.toBeNull();
  expect(match?.[1]).toBe(dataDir);
  expect(proc.stdout()).not.toContain('Baton is running');
}

/** stillWorks signs in on the instance, writes a rotation and reads it back. */
async function stillWorks(proc: BatonProcess, name: string) {
  const cookie = await signIn(proc.url, ADMIN);
  const created = ok(
    await api<{ id: number }>(proc.url, 'POST', '/api/rotations', { cookie, body: { name } }),
    'create rotation',
  );
  const read = ok(
    await api<{ name: string }>(proc.url, 'GET', `/api/rotations/${created.id}`, { cookie }),
    'read rotation',
  );
  expect(read.name).toBe(name);
  return cookie;
}

test(
  'a second process on the same directory refuses to start, saying why; the first keeps working',
  async () => {
    const first = await startBaton({ name: 'first', env: pglite() });
    await stillWorks(first, 'Before the second');

    const second = spawnBaton({ name: 'second', env: pglite() });
    await expectRefused(second);

    // The first process noticed nothing: it answers, reads and writes as before.
    expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    const cookie = await stillWorks(first, 'After the second');
    const list = ok(
      await api<{ name: string }[]>(first.url, 'GET', '/api/rotations', { cookie }),
      'list rotations',
    );
    expect(list.map((r) => r.name)).toEqual(
      expect.arrayContaining(['Before the second', 'After the second']),
    );

    // Once the first stops, the directory is free: a new process starts and has the data.
    await first.stop();
    const third = await startBaton({ name: 'third', env: pglite() });
    const after = ok(
      await api<{ name: string }[]>(third.url, 'GET', '/api/rotations', {
        cookie: await signIn(third.url, ADMIN),
      }),
      'list rotations',
    );
    expect(after.map((r) => r.name)).toEqual(
      expect.arrayContaining(['Before the second', 'After the second']),
    );
  },
  LONG,
);

test(
  'two processes started at the same moment on a new directory: one runs, the other refuses',
  async () => {
    const both = [
      spawnBaton({ name: 'left', env: pglite() }),
      spawnBaton({ name: 'right', env: pglite() }),
    ];
    const outcomes = await Promise.allSettled(both.map((p) => p.listening));
    const winners = both.filter((_, i) => outcomes[i].status === 'fulfilled');
    const losers = both.filter((_, i) => outcomes[i].status === 'rejected');
    expect(winners).toHaveLength(1);
    expect(losers).toHaveLength(1);
    await expectRefused(losers[0]);
    const winner = winners[0];
    await stillWorks(winner, 'The winner');
  },
  LONG,
);

test(
  'after a SIGKILL the lock goes stale: a restart is refused at first, then starts with the data',
  async () => {
    const first = await startBaton({ name: 'killed', env: pglite() });
    await stillWorks(first, 'Before the kill');
    await first.kill();

    // The dead process's lock is less than its stale time old: refused, with the same message.
    const early = spawnBaton({ name: 'too early', env: pglite() });
    await expectRefused(early);

    // proper-lockfile calls a lock stale 15 s after its last refresh; a restart then succeeds.
    const killedAt = Date.now();
    let restarted: BatonProcess | undefined;
    while (!restarted && Date.now() - killedAt < 40_000) {
      await sleep(2_000);
      const attempt = spawnBaton({ name: 'restart', env: pglite() });
      const outcome = await Promise.race([
        attempt.listening.then(() => 'up' as const),
        attempt.exited.then(() => 'refused' as const),
      ]);
      if (outcome === 'up') restarted = attempt;
    }
    expect(restarted, 'a restart within 40 s of the kill').toBeDefined();
    const proc = restarted as BatonProcess;
    console.info(
      `[pglite-lock] restarted ${Math.round((Date.now() - killedAt) / 1000)} s after the SIGKILL`,
    );
    const cookie = await signIn(proc.url, ADMIN);
    const list = ok(
      await api<{ name: string }[]>(proc.url, 'GET', '/api/rotations', { cookie }),
      'list',
    );
    expect(list.map((r) => r.name)).toContain('Before the kill');
  },
  LONG,
);
