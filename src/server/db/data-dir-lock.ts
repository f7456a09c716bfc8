import { randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import {
  link,
  lstat,
  open,
  readdir,
  readFile,
  rename,
  rmdir,
  unlink,
  utimes,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * The lock of a PGlite data directory (decision 170): one file, DATA_DIR/baton.lock, that names
 * its owner process. PGlite has one writer, so a second Baton process on the directory must be
 * refused; a process that died (SIGKILL, out of memory, power cut) must not keep the directory
 * from opening again, or a service manager that restarts Baton at once gives up.
 *
 * - Created atomically: the owner's record is written to a file of its own, then hard-linked to
 *   baton.lock; link() fails when the name exists, so of two processes starting at once exactly
 *   one wins. (link is also atomic on NFS, where O_EXCL was not always.)
 * - Knows its owner: process id, the process's start time from /proc/<pid>/stat (a reused
 *   process id has another start time), the kernel's boot id and the PID namespace. A process on
 *   the same kernel and in the same PID namespace checks the owner in /proc, at once: gone (or a
 *   zombie) means the lock is stale, whatever its age; alive means refused, however long the
 *   owner has been busy.
 * - Otherwise (another machine on a shared file system, another container's PID namespace, a
 *   reboot, a system without /proc) the owner cannot be checked, and the lock is judged by its
 *   age: the owner touches it every `refreshMs`, and it is stale `staleMs` after the last touch.
 * - A stale lock is taken over by one process only: the taker first creates
 *   `baton.lock.takeover-<token of the stale lock>` (link again: one winner per stale lock),
 *   checks baton.lock still holds that stale record, then renames its own record over it (an
 *   atomic replacement: baton.lock never goes missing, so nobody else can slip in).
 */

export interface LockOwner {
  /** random, unique to one acquisition */
  token: string;
  pid: number;
  /** clock ticks from boot to the process's start (/proc/<pid>/stat field 22); null without /proc */
  startTime: string | null;
  /** /proc/sys/kernel/random/boot_id: a new one at every boot */
  bootId: string | null;
  /** the PID namespace (readlink /proc/self/ns/pid); a process id means something only inside it */
  pidNamespace: string | null;
  /** for people reading the file; never trusted for a decision (containers share hostnames) */
  hostname: string;
  /** ISO time of the acquisition, for people reading the file */
  since: string;
}

/** What is found at a lock path. */
export interface HeldLock {
  /** the owner's record; null when the file cannot be read as one (or is a directory) */
  owner: LockOwner | null;
  /** last modification, touched by the owner every refreshMs */
  mtimeMs: number;
  /** a directory: the lock of proper-lockfile, which Baton used before decision 170 */
  directory: boolean;
  /** identifies this lock version for a takeover: the owner's token, or the inode */
  key: string;
}

/** A running process as /proc shows it. */
export interface ProcessStat {
  startTime: string;
  /** R, S, D, Z (zombie), X (dead), ... */
  state: string;
}

/** Where the judging process runs. */
export interface Here {
  bootId: string | null;
  pidNamespace: string | null;
  /** reads /proc/<pid>/stat; null when there is no such process */
  stat: (pid: number) => ProcessStat | null;
}

export class LockHeldError extends Error {
  readonly code = 'ELOCKED';
  constructor(lockPath: string) {
    super(`${lockPath} is held by another process`);
    this.name = 'LockHeldError';
  }
}

export interface LockOptions {
  /** a lock whose owner cannot be checked is stale this long after its last touch (15 s) */
  staleMs?: number;
  /** how often the owner touches its lock and checks it still has it (5 s) */
  refreshMs?: number;
  /** called once when the lock is found taken or removed by someone else */
  onCompromised?: (err: Error) => void;
}

export interface DataDirLock {
  lockPath: string;
  owner: LockOwner;
  release(): Promise<void>;
}

const DEFAULT_STALE_MS = 15_000;
const DEFAULT_REFRESH_MS = 5_000;
const LEFTOVER_MS = 60_000;

/** readProcessStat returns the start time and state of a process from /proc, or null if none. */
export function readProcessStat(pid: number): ProcessStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // fields[0] is field 3 (state); the start time is field 22.
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : null;
}

function readOrNull(read: () => string): string | null {
  try {
    return read().trim() || null;
  } catch {
    return null;
  }
}

/** hereNow describes this process's kernel and PID namespace, with /proc as the process table. */
export function hereNow(): Here {
  return {
    bootId: readOrNull(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8')),
    pidNamespace: readOrNull(() => readlinkSync('/proc/self/ns/pid')),
    stat: readProcessStat,
  };
}

/** currentOwner returns the lock record of this process, with a new token. */
function currentOwner(here: Here = hereNow(), now: Date = new Date()): LockOwner {
  return {
    token: randomBytes(12).toString('hex'),
    pid: process.pid,
    startTime: here.stat(process.pid)?.startTime ?? null,
    bootId: here.bootId,
    pidNamespace: here.pidNamespace,
    hostname: os.hostname(),
    since: now.toISOString(),
  };
}

/**
 * isOwnerCheckable tells whether `here` can see the owner's process: the same kernel boot and
 * the same PID namespace, with a start time recorded to tell a reused process id.
 */
function isOwnerCheckable(owner: LockOwner, here: Here): boolean {
  return (
    owner.startTime !== null &&
    owner.bootId !== null &&
    owner.bootId === here.bootId &&
    owner.pidNamespace !== null &&
    owner.pidNamespace === here.pidNamespace
  );
}

/**
 * isLockStale tells whether a held lock may be taken over at `nowMs`: its owner is checkable and
 * gone (no process with that id and start time, or a zombie), or it cannot be checked and it was
 * not touched for staleMs.
 */
export function isLockStale(held: HeldLock, here: Here, nowMs: number, staleMs: number): boolean {
  const owner = held.owner;
  if (owner && isOwnerCheckable(owner, here)) {
    const stat = here.stat(owner.pid);
    return !stat || stat.startTime !== owner.startTime || stat.state === 'Z' || stat.state === 'X';
  }
  return nowMs - held.mtimeMs > staleMs;
}

function parseOwner(text: string): LockOwner | null {
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (typeof o.token !== 'string' || typeof o.pid !== 'number') return null;
    return {
      token: o.token,
      pid: o.pid,
      startTime: typeof o.startTime === 'string' ? o.startTime : null,
      bootId: typeof o.bootId === 'string' ? o.bootId : null,
      pidNamespace: typeof o.pidNamespace === 'string' ? o.pidNamespace : null,
      hostname: typeof o.hostname === 'string' ? o.hostname : '',
      since: typeof o.since === 'string' ? o.since : '',
    };
  } catch {
    return null;
  }
}

const isCode = (err: unknown, ...codes: string[]) =>
  codes.includes((err as NodeJS.ErrnoException).code ?? '');

/** readLock returns what is at `file`, or null when nothing is. */
async function readLock(file: string): Promise<HeldLock | null> {
  try {
    const stat = await lstat(file);
    if (stat.isDirectory()) {
      return { owner: null, mtimeMs: stat.mtimeMs, directory: true, key: `inode-${stat.ino}` };
    }
    const owner = parseOwner(await readFile(file, 'utf8'));
    return {
      owner,
      mtimeMs: stat.mtimeMs,
      directory: false,
      key: owner?.token ?? `inode-${stat.ino}`,
    };
  } catch (err) {
    if (isCode(err, 'ENOENT')) return null;
    throw err;
  }
}

async function removeIfThere(remove: () => Promise<void>): Promise<void> {
  try {
    await remove();
  } catch (err) {
    if (!isCode(err, 'ENOENT', 'ENOTEMPTY', 'EEXIST')) throw err;
  }
}

/** writeRecord writes the owner's record to a new file, on disk before anyone can see it. */
async function writeRecord(file: string, owner: LockOwner): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(`${JSON.stringify(owner)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * acquireDataDirLock takes the lock at `lockPath` for this process, taking over a stale one;
 * throws LockHeldError when another live process holds it (or is taking it over right now).
 */
export async function acquireDataDirLock(
  lockPath: string,
  options: LockOptions = {},
  here: Here = hereNow(),
): Promise<DataDirLock> {
  const staleMs = options.staleMs ?? DEFAULT_STALE_MS;
  const owner = currentOwner(here);
  const record = `${lockPath}.${owner.token}.tmp`;
  await writeRecord(record, owner);
  try {
    // A few rounds: each one either wins, refuses, or saw the lock change under it.
    for (let round = 0; round < 5; round++) {
      try {
        await link(record, lockPath);
        return await holdLock(lockPath, owner, options);
      } catch (err) {
        if (!isCode(err, 'EEXIST')) throw err;
      }
      const held = await readLock(lockPath);
      if (!held) continue;
      if (!isLockStale(held, here, Date.now(), staleMs)) throw new LockHeldError(lockPath);
      if (held.directory) {
        // proper-lockfile's empty directory: rmdir removes only that, and a second rmdir fails.
        await removeIfThere(() => rmdir(lockPath));
        continue;
      }
      const claim = `${lockPath}.takeover-${held.key}`;
      try {
        await link(record, claim);
      } catch (err) {
        if (!isCode(err, 'EEXIST')) throw err;
        const other = await readLock(claim);
        // Another process is taking this stale lock over right now: it wins.
        if (other && !isLockStale(other, here, Date.now(), staleMs)) {
          throw new LockHeldError(lockPath);
        }
        // A taker that died half-way left its claim: clear it and look again.
        await removeIfThere(() => unlink(claim));
        continue;
      }
      try {
        // The claim was free, but an earlier taker may have finished already: check.
        const again = await readLock(lockPath);
        if (!again || again.key !== held.key) continue;
        await rename(record, lockPath);
        return await holdLock(lockPath, owner, options);
      } finally {
        await removeIfThere(() => unlink(claim));
      }
    }
    throw new LockHeldError(lockPath);
  } finally {
    await removeIfThere(() => unlink(record));
  }
}

/**
 * clearLeftovers removes the record and claim files of acquisitions that a kill interrupted
 * (minutes old: one in progress takes milliseconds), so crashes do not pile them up.
 */
async function clearLeftovers(lockPath: string): Promise<void> {
  const dir = path.dirname(lockPath);
  const prefix = `${path.basename(lockPath)}.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !(name.endsWith('.tmp') || name.includes('.takeover-')))
      continue;
    const file = path.join(dir, name);
    const stat = await lstat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > LEFTOVER_MS) await unlink(file).catch(() => {});
  }
}

/** holdLock keeps a taken lock fresh and checks it is still ours, until released. */
async function holdLock(
  lockPath: string,
  owner: LockOwner,
  options: LockOptions,
): Promise<DataDirLock> {
  await clearLeftovers(lockPath);
  let released = false;
  let busy = false;
  const onCompromised =
    options.onCompromised ??
    ((err: Error) => {
      // As proper-lockfile did: an uncaught error, since two writers would corrupt the data.
      queueMicrotask(() => {
        throw err;
      });
    });
  const timer = setInterval(async () => {
    if (released || busy) return;
    busy = true;
    let lost: string | undefined;
    try {
      const held = await readLock(lockPath);
      if (!held) lost = 'was removed by someone else.';
      else if (held.key !== owner.token) lost = 'was taken over by another process.';
      else {
        const now = new Date();
        await utimes(lockPath, now, now);
      }
    } catch {
      // A passing I/O error: the next round tries again; the lock goes stale only after staleMs.
    } finally {
      busy = false;
    }
    if (lost && !released) {
      released = true;
      clearInterval(timer);
      onCompromised(new Error(`The lock ${lockPath} ${lost}`));
    }
  }, options.refreshMs ?? DEFAULT_REFRESH_MS);
  timer.unref();
  return {
    lockPath,
    owner,
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      const held = await readLock(lockPath).catch(() => null);
      if (held?.key === owner.token) await removeIfThere(() => unlink(lockPath));
    },
  };
}
