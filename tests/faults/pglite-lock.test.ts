import { lstat, readdir, readFile, utimes } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest';
import {
  api,
  type BatonProcess,
  removeDir,
  signIn,
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
 * one and its data alone. A process that died leaves a lock that the next start takes over at
 * once (issue 14, decision 170), and the directory is its owner's alone.
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
async function expectRefused(proc: BatonProcess & { listening: Promise<string> }) {
  // A process that starts instead fails the test at once, rather than when the test times out.
  const started = await Promise.race([
    proc.listening.then(
      () => true,
      () => false,
    ),
    proc.exited.then(() => false),
  ]);
  expect(started, `${proc.name} started instead of refusing`).toBe(false);
  const { code, signal } = await proc.exited;
  expect(signal).toBeNull();
  expect(code).toBe(1);
  const match = REFUSAL.exec(proc.stderr());
  expect(match, proc.stderr()).not.toBeNull();
  expect(match?.[1]).toBe(dataDir);
  expect(proc.stdout()).not.toContain('Baton is running');
}

/** stillWorks signs in on the instance, writes a rotation and reads it back. */
async function stillWorks(proc: BatonProcess, name: string, session?: string) {
  const cookie = session ?? (await signIn(proc.url, ADMIN));
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
  'after a SIGKILL a restart at once starts, with the data; a live owner is refused however old its lock',
  async () => {
    const first = await startBaton({ name: 'first', env: pglite() });
    await stillWorks(first, 'Before the kill');

    // The lock is judged by its owner, not its age: an hour-old lock of a live process still holds.
    const lockPath = path.join(dataDir, 'baton.lock');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await utimes(lockPath, anHourAgo, anHourAgo);
    await expectRefused(spawnBaton({ name: 'second', env: pglite() }));
    expect(JSON.parse(await readFile(lockPath, 'utf8')).pid).toBe(first.child.pid);

    await first.kill();
    // The dead process's lock is still there, fresh: the restart takes it over at once.
    expect(JSON.parse(await readFile(lockPath, 'utf8')).pid).toBe(first.child.pid);
    const killedAt = Date.now();
    const restarted = await startBaton({ name: 'restart', env: pglite() });
    console.info(
      `[pglite-lock] ready ${((Date.now() - killedAt) / 1000).toFixed(1)} s after the SIGKILL`,
    );
    expect(JSON.parse(await readFile(lockPath, 'utf8')).pid).toBe(restarted.child.pid);
    const cookie = await signIn(restarted.url, ADMIN);
    const list = ok(
      await api<{ name: string }[]>(restarted.url, 'GET', '/api/rotations', { cookie }),
      'list',
    );
    expect(list.map((r) => r.name)).toContain('Before the kill');
    await stillWorks(restarted, 'After the restart');
  },
  LONG,
);

test(
  'after a SIGKILL two processes restarted at the same moment: one runs, the other refuses',
  async () => {
    const first = await startBaton({ name: 'killed', env: pglite() });
    await stillWorks(first, 'Before the kill');
    await first.kill();
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
    await stillWorks(winners[0], 'The winner');
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['baton.lock', 'pgdata']));
    expect((await readdir(dataDir)).filter((f) => f.startsWith('baton.lock.'))).toEqual([]);
  },
  LONG,
);

/** groupOrOtherAccessible lists what under `dir` (itself included) a group or other user can use. */
async function groupOrOtherAccessible(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  const modes = await Promise.all(
    ['.', ...entries].map(async (e) => [e, (await lstat(path.join(dir, e))).mode & 0o777] as const),
  );
  return modes
    .filter(([, mode]) => (mode & 0o077) !== 0)
    .map(([e, mode]) => `${e} ${mode.toString(8)}`);
}

test(
  "the data directory is its owner's alone: after start and writes, nothing under it is open to group or others",
  async () => {
    // No ENCRYPTION_KEY: demo mode generates secrets.json beside the database.
    const env = { ...pglite(), ENCRYPTION_KEY: '' };
    const first = await startBaton({ name: 'modes', env });
    const cookie = await signIn(first.url, ADMIN);
    await stillWorks(first, 'Written', cookie);
    expect(await readdir(dataDir)).toEqual(
      expect.arrayContaining(['baton.lock', 'pgdata', 'secrets.json']),
    );
    expect(await groupOrOtherAccessible(dataDir)).toEqual([]);
    // A restart after a crash too.
    await first.kill();
    const second = await startBaton({ name: 'modes again', env });
    await stillWorks(second, 'Written again', cookie);
    await second.stop();
    expect(await groupOrOtherAccessible(dataDir)).toEqual([]);
  },
  LONG,
);
