import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import {
  acquireDataDirLock,
  type HeldLock,
  type Here,
  hereNow,
  isLockStale,
  LockHeldError,
  type LockOwner,
  readProcessStat,
} from './data-dir-lock';

const HERE: Here = {
  bootId: 'boot-a',
  pidNamespace: 'pid:[1]',
  stat: (pid) => (pid === 100 ? { startTime: '5000', state: 'S' } : null),
};
const OWNER: LockOwner = {
  token: 't',
  pid: 100,
  startTime: '5000',
  bootId: 'boot-a',
  pidNamespace: 'pid:[1]',
  hostname: 'h',
  since: '',
};
const NOW = 1_000_000;
const held = (owner: Partial<LockOwner> | null, ageMs: number, directory = false): HeldLock => ({
  owner: owner ? { ...OWNER, ...owner } : null,
  mtimeMs: NOW - ageMs,
  directory,
  key: 'k',
});

describe('isLockStale', () => {
  test.each([
    ['the owner runs (same boot, same PID namespace), an old lock', held({}, 60_000), false],
    ['the owner is gone, a fresh lock', held({ pid: 101 }, 0), true],
    ['the process id was reused (another start time)', held({ startTime: '4999' }, 0), true],
    ['another kernel boot, a fresh lock', held({ bootId: 'boot-b' }, 1_000), false],
    ['another kernel boot, untouched for 16 s', held({ bootId: 'boot-b' }, 16_000), true],
    ['another PID namespace, a fresh lock', held({ pidNamespace: 'pid:[2]' }, 1_000), false],
    ['another PID namespace, untouched for 16 s', held({ pidNamespace: 'pid:[2]' }, 16_000), true],
    ['no start time recorded, a fresh lock', held({ startTime: null, pid: 101 }, 1_000), false],
    ['an unreadable file, untouched for 16 s', held(null, 16_000), true],
    ["proper-lockfile's directory, fresh", held(null, 1_000, true), false],
    ["proper-lockfile's directory, untouched for 16 s", held(null, 16_000, true), true],
  ])('%s → stale: %s', (_, lock, expected) => {
    expect(isLockStale(lock, HERE, NOW, 15_000)).toBe(expected);
  });

  test('a zombie owner (dead, not yet reaped) is gone', () => {
    const zombie: Here = { ...HERE, stat: () => ({ startTime: '5000', state: 'Z' }) };
    expect(isLockStale(held({}, 0), zombie, NOW, 15_000)).toBe(true);
  });
});

test('readProcessStat reads this process, and nothing for a process that is not there', () => {
  const self = readProcessStat(process.pid);
  expect(self?.state).toMatch(/^[RSD]$/);
  expect(self?.startTime).toMatch(/^\d+$/);
  expect(readProcessStat(2 ** 22 + 1)).toBeNull();
});

describe('acquireDataDirLock', () => {
  let dir: string;
  let lockPath: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'baton-lock-'));
    lockPath = path.join(dir, 'baton.lock');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** writeLock puts a lock record at lockPath, `ageMs` old. */
  async function writeLock(owner: Partial<LockOwner>, ageMs = 0) {
    await writeFile(lockPath, JSON.stringify({ ...OWNER, ...owner }));
    const at = new Date(Date.now() - ageMs);
    await utimes(lockPath, at, at);
  }

  /** deadProcess returns the id and start time of a process that has exited. */
  async function deadProcess(): Promise<{ pid: number; startTime: string }> {
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10000)']);
    const pid = child.pid as number;
    const startTime = readProcessStat(pid)?.startTime as string;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    return { pid, startTime };
  }

  test('takes a free lock: a record of this process, owner-only, and nothing else left', async () => {
    const lock = await acquireDataDirLock(lockPath);
    const record = JSON.parse(await readFile(lockPath, 'utf8')) as LockOwner;
    const here = hereNow();
    expect(record).toMatchObject({
      token: lock.owner.token,
      pid: process.pid,
      startTime: readProcessStat(process.pid)?.startTime,
      bootId: here.bootId,
      pidNamespace: here.pidNamespace,
    });
    expect((await stat(lockPath)).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(['baton.lock']);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });

  test('a lock held by a live process is refused at once, however old', async () => {
    const lock = await acquireDataDirLock(lockPath);
    const old = new Date(Date.now() - 3_600_000);
    await utimes(lockPath, old, old);
    await expect(acquireDataDirLock(lockPath)).rejects.toBeInstanceOf(LockHeldError);
    expect(await readdir(dir)).toEqual(['baton.lock']);
    await lock.release();
    const again = await acquireDataDirLock(lockPath);
    await again.release();
  });

  test('the lock of a process that died is taken over at once, however fresh', async () => {
    const dead = await deadProcess();
    const here = hereNow();
    await writeLock({
      ...dead,
      token: 'dead',
      bootId: here.bootId,
      pidNamespace: here.pidNamespace,
    });
    const lock = await acquireDataDirLock(lockPath);
    expect(JSON.parse(await readFile(lockPath, 'utf8')).token).toBe(lock.owner.token);
    expect(await readdir(dir)).toEqual(['baton.lock']);
    await lock.release();
  });

  test('a reused process id does not keep the lock: this process, with another start time', async () => {
    const here = hereNow();
    await writeLock({
      pid: process.pid,
      startTime: '1',
      bootId: here.bootId,
      pidNamespace: here.pidNamespace,
    });
    const lock = await acquireDataDirLock(lockPath);
    await lock.release();
  });

  test('an owner that cannot be checked (another machine) holds the lock until 15 s untouched', async () => {
    await writeLock({ bootId: 'another-machine', pid: 1 }, 10_000);
    await expect(acquireDataDirLock(lockPath)).rejects.toBeInstanceOf(LockHeldError);
    await writeLock({ bootId: 'another-machine', pid: 1 }, 16_000);
    const lock = await acquireDataDirLock(lockPath);
    await lock.release();
  });

  test("proper-lockfile's directory from an older Baton: refused while fresh, removed when stale", async () => {
    await mkdir(lockPath);
    await expect(acquireDataDirLock(lockPath)).rejects.toBeInstanceOf(LockHeldError);
    const old = new Date(Date.now() - 16_000);
    await utimes(lockPath, old, old);
    const lock = await acquireDataDirLock(lockPath);
    expect((await stat(lockPath)).isFile()).toBe(true);
    await lock.release();
  });

  test('a takeover claim left by a taker that died is cleared', async () => {
    const here = hereNow();
    const dead = await deadProcess();
    const mark = { bootId: here.bootId, pidNamespace: here.pidNamespace };
    await writeLock({ ...dead, ...mark, token: 'stale' });
    await writeFile(
      `${lockPath}.takeover-stale`,
      JSON.stringify({ ...OWNER, ...dead, ...mark, token: 'taker' }),
    );
    const lock = await acquireDataDirLock(lockPath);
    expect(await readdir(dir)).toEqual(['baton.lock']);
    await lock.release();
  });

  test('a takeover claim of a live taker means refused: that one wins', async () => {
    const here = hereNow();
    const dead = await deadProcess();
    const mark = { bootId: here.bootId, pidNamespace: here.pidNamespace };
    await writeLock({ ...dead, ...mark, token: 'stale' });
    const taker = readProcessStat(process.pid)?.startTime;
    await writeFile(
      `${lockPath}.takeover-stale`,
      JSON.stringify({ ...OWNER, ...mark, pid: process.pid, startTime: taker, token: 'taker' }),
    );
    await expect(acquireDataDirLock(lockPath)).rejects.toBeInstanceOf(LockHeldError);
  });

  test.each([
    ['a free directory', false],
    ["a dead process's lock", true],
  ])('ten attempts at once on %s: exactly one wins', async (_, stale) => {
    if (stale) {
      const here = hereNow();
      await writeLock({
        ...(await deadProcess()),
        bootId: here.bootId,
        pidNamespace: here.pidNamespace,
      });
    }
    const outcomes = await Promise.allSettled(
      Array.from({ length: 10 }, () => acquireDataDirLock(lockPath)),
    );
    const won = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const r of refused)
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(LockHeldError);
    const winner = (
      won[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof acquireDataDirLock>>>
    ).value;
    expect(JSON.parse(await readFile(lockPath, 'utf8')).token).toBe(winner.owner.token);
    expect(await readdir(dir)).toEqual(['baton.lock']);
    await winner.release();
  });

  test('files left by acquisitions a kill interrupted are cleared once minutes old', async () => {
    const old = new Date(Date.now() - 120_000);
    for (const name of ['baton.lock.aaaa.tmp', 'baton.lock.takeover-bbbb']) {
      await writeFile(path.join(dir, name), '{}');
      await utimes(path.join(dir, name), old, old);
    }
    // One in progress (fresh) is another process's: left alone.
    await writeFile(path.join(dir, 'baton.lock.cccc.tmp'), '{}');
    const lock = await acquireDataDirLock(lockPath);
    expect((await readdir(dir)).sort()).toEqual(['baton.lock', 'baton.lock.cccc.tmp']);
    await lock.release();
  });

  test('the owner touches its lock, and learns when someone else took it or removed it', async () => {
    const lost: string[] = [];
    const lock = await acquireDataDirLock(lockPath, {
      refreshMs: 20,
      onCompromised: (err) => lost.push(err.message),
    });
    const old = new Date(Date.now() - 60_000);
    await utimes(lockPath, old, old);
    await expect
      .poll(async () => (await stat(lockPath)).mtimeMs)
      .toBeGreaterThan(Date.now() - 5_000);
    await writeLock({ token: 'intruder' });
    await expect
      .poll(() => lost)
      .toEqual([`The lock ${lockPath} was taken over by another process.`]);
    await lock.release();
    // Released: the intruder's lock is not ours to remove.
    expect(JSON.parse(await readFile(lockPath, 'utf8')).token).toBe('intruder');

    await rm(lockPath);
    const second = await acquireDataDirLock(lockPath, {
      refreshMs: 20,
      onCompromised: (err) => lost.push(err.message),
    });
    await rm(lockPath);
    await expect.poll(() => lost.length).toBe(2);
    expect(lost[1]).toBe(`The lock ${lockPath} was removed by someone else.`);
    await second.release();
  });
});
