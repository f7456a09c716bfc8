import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const run = promisify(execFile);
const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL cluster of the test's own, in a temporary directory on a free port (trust
 * authentication), that the test may stop and start at will. The machine's PostgreSQL is never
 * touched: other work uses it. initdb refuses to run as root, so as root the binaries run as
 * the `postgres` OS user.
 */
export interface ScratchPostgres {
  port: number;
  /** a connection URL to one database of the cluster */
  url(database?: string): string;
  /** stops the server: `immediate` cuts every connection at once (as a crash would), `fast` rolls back and closes */
  stop(mode?: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** the server's log, for a failing test's message */
  log(): Promise<string>;
  /** stops the server and removes its directory */
  destroy(): Promise<void>;
}

export function postgresBinariesAvailable(): boolean {
  return existsSync(path.join(BIN, 'initdb')) && existsSync(path.join(BIN, 'pg_ctl'));
}

/** freePort asks the kernel for a port nobody listens on. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function asPostgres(binary: string, args: string[]): Promise<string> {
  const isRoot = process.getuid?.() === 0;
  const [file, argv] = isRoot
    ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, binary), ...args]]
    : [path.join(BIN, binary), args];
  const { stdout } = await run(file, argv, { timeout: 60_000 });
  return stdout;
}

/** startScratchPostgres creates, starts and returns a new cluster, with a `baton` database. */
export async function startScratchPostgres(): Promise<ScratchPostgres> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'baton-outage-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await chown(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const port = await freePort();
  await asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8']);
  let running = false;
  const cluster: ScratchPostgres = {
    port,
    url: (database = 'baton') => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      await asPostgres('pg_ctl', [
        '-D',
        data,
        '-l',
        logFile,
        '-w',
        '-t',
        '60',
        '-o',
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100`,
        'start',
      ]);
      running = true;
    },
    async stop(mode = 'immediate') {
      await asPostgres('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '60', 'stop']);
      running = false;
    },
    log: () => readFile(logFile, 'utf8').catch(() => ''),
    async destroy() {
      if (running) await cluster.stop('immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    await cluster.start();
    const admin = new pg.Client({ connectionString: cluster.url('postgres') });
    await admin.connect();
    await admin.query('create database baton').finally(() => admin.end());
  } catch (err) {
    await cluster.destroy();
    throw err;
  }
  return cluster;
}

/** The machine's PostgreSQL (never stopped by these tests); TEST_DATABASE_URL points elsewhere. */
export const LOCAL_POSTGRES =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * createLocalDatabase creates a database with a unique name on the machine's PostgreSQL and
 * returns its URL and a function that drops it.
 */
export async function createLocalDatabase(
  prefix: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: LOCAL_POSTGRES });
  await admin.connect();
  await admin.query(`create database "${name}"`).finally(() => admin.end());
  const u = new URL(LOCAL_POSTGRES);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: LOCAL_POSTGRES });
      await dropper.connect();
      await dropper
        .query(`drop database if exists "${name}" with (force)`)
        .finally(() => dropper.end());
    },
  };
}
