import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { SESSION_COOKIE } from '../../../src/server/modules/sessions/session-service';

/**
 * Real Baton processes for the multi-instance and fault tests: start the built server
 * (dist/server/main.js, or BATON_SERVER_JS) with an environment on a free port, wait for
 * /readyz, sign in, stop or kill it; and unique PostgreSQL databases to run them on.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The local sign-in password every test process is started with. */
export const LOCAL_PASSWORD = 'faults-local-password';
/** One encryption key for every process of a test: instances on one database must share it. */
export const FAULTS_KEY = Buffer.alloc(32, 42).toString('base64');
/** The PostgreSQL server the tests create their databases on (never stopped by these tests). */
export const POSTGRES_URL = process.env.FAULTS_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';

/** The environment every test process starts from; a test adds DATABASE_URL, DATA_DIR, ... */
export const BASE_ENV: Record<string, string> = {
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  ENCRYPTION_KEY: FAULTS_KEY,
  LOCAL_LOGIN_PASSWORD: LOCAL_PASSWORD,
  COMPANY_DOMAIN: 'example.com',
  SIGN_IN_RATE_LIMIT: '100000',
  DEMO: '0',
};

/** serverScript is the built server the tests run; it warns when src/ is newer than the build. */
export function serverScript(): string {
  const script = process.env.BATON_SERVER_JS
    ? path.resolve(process.env.BATON_SERVER_JS)
    : path.join(ROOT, 'dist/server/main.js');
  if (!existsSync(script)) {
    throw new Error(
      `${script} does not exist: run \`npm run build\` (npm run test:faults builds first), or set BATON_SERVER_JS.`,
    );
  }
  const built = statSync(script).mtimeMs;
  const newer = [
    ...filesUnder(path.join(ROOT, 'src/server')),
    ...filesUnder(path.join(ROOT, 'src/shared')),
  ].filter((f) => !f.endsWith('.test.ts') && statSync(f).mtimeMs > built);
  if (newer.length > 0 && !warnedStale) {
    warnedStale = true;
    console.warn(
      `${script} is older than ${newer[0]} (and ${newer.length - 1} more): rebuild with \`npm run build\`.`,
    );
  }
  return script;
}
let warnedStale = false;

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

export interface BatonProcess {
  /** a short name for messages (a test's own label) */
  name: string;
  /** http://127.0.0.1:PORT once listening ('' before) */
  url: string;
  child: ChildProcess;
  /** what the process has written so far */
  stdout(): string;
  stderr(): string;
  /** settles when the process has exited */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait for the exit (SIGKILL after 15 s) */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit */
  kill(): Promise<void>;
}

const running = new Set<BatonProcess>();

/**
 * spawnBaton starts `node dist/server/main.js` with BASE_ENV and `env`, without waiting for it:
 * `listening` settles with the URL once the start-up banner is printed, or rejects when the
 * process exits first.
 */
export function spawnBaton(options: {
  name?: string;
  env?: Record<string, string>;
}): BatonProcess & {
  listening: Promise<string>;
} {
  const child = spawn(process.execPath, ['--enable-source-maps', serverScript()], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...BASE_ENV,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    out = (out + d).slice(-200_000);
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    err = (err + d).slice(-200_000);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('exit', (code, signal) => resolve({ code, signal }));
  });
  const proc: BatonProcess & { listening: Promise<string> } = {
    name: options.name ?? `baton-${child.pid}`,
    url: '',
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    listening: new Promise<string>((resolve, reject) => {
      const onData = () => {
        const m = /Baton is running at http:\/\/[^:\s]+:(\d+)/.exec(out);
        if (m) {
          proc.url = `http://127.0.0.1:${m[1]}`;
          child.stdout?.off('data', onData);
          resolve(proc.url);
        }
      };
      child.stdout?.on('data', onData);
      void exited.then(({ code, signal }) =>
        reject(
          new Error(
            `${proc.name} exited (code ${code}, signal ${signal}) before listening:\n${err}`,
          ),
        ),
      );
    }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      running.delete(proc);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      running.delete(proc);
    },
  };
  proc.listening.catch(() => {});
  running.add(proc);
  return proc;
}

/** startBaton starts a Baton process and waits until /readyz answers 200. */
export async function startBaton(options: {
  name?: string;
  env?: Record<string, string>;
  readyTimeoutMs?: number;
}): Promise<BatonProcess> {
  const proc = spawnBaton(options);
  try {
    const url = await withTimeout(
      proc.listening,
      options.readyTimeoutMs ?? 60_000,
      `${proc.name} to listen`,
    );
    await waitReady(url, options.readyTimeoutMs ?? 60_000);
  } catch (e) {
    await proc.kill();
    throw new Error(
      `${proc.name} did not start: ${(e as Error).message}\nstderr:\n${proc.stderr()}`,
    );
  }
  return proc;
}

/** stopAll stops every process these helpers started and that is still running (afterAll). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop()));
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)),
          ms,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** waitReady polls GET /readyz until it answers 200; returns its body. */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<ReadyBody> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/readyz`);
      const text = await res.text();
      if (res.status === 200) return JSON.parse(text) as ReadyBody;
      last = `${res.status} ${text}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await sleep(50);
  }
  throw new Error(`${url}/readyz not ready after ${timeoutMs} ms: ${last}`);
}

export interface ReadyBody {
  status: string;
  database: string;
  engine?: { lastTickAt: string | null };
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/**
 * api sends one request to a Baton process: JSON body, the session cookie, and the Origin header
 * a state change needs.
 */
export async function api<T = unknown>(
  url: string,
  method: string,
  route: string,
  options: { cookie?: string; body?: unknown } = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { origin: url };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${url}${route}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: body as T };
}

/** signIn signs in with the local password (a seeded, demo or invited user); answers the Cookie value. */
export async function signIn(
  url: string,
  email: string,
  password = LOCAL_PASSWORD,
): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200)
    throw new Error(`sign-in of ${email} at ${url}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`sign-in of ${email} at ${url} set no cookie`);
  return cookie.split(';')[0];
}

export interface TestDatabase {
  name: string;
  url: string;
  /** a pool on the database, for the test's own reads */
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** createDatabase creates a uniquely named, empty PostgreSQL database; drop() removes it. */
export async function createDatabase(label: string): Promise<TestDatabase> {
  const name = `baton_faults_${label.replace(/\W/g, '_')}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: `${POSTGRES_URL}/postgres` });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = `${POSTGRES_URL}/${name}`;
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  return {
    name,
    url,
    pool,
    drop: async () => {
      await pool.end().catch(() => {});
      const c = new pg.Client({ connectionString: `${POSTGRES_URL}/postgres` });
      await c.connect();
      try {
        await c.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** tempDir makes a temporary directory (DATA_DIR, clock files); remove it with removeDir. */
export function tempDir(label: string): Promise<string> {
  return mkdtemp(path.join(tmpdir(), `baton-faults-${label}-`));
}

export function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

/**
 * TestClockFile is the file a process started with BATON_TEST_CLOCK_FILE reads its time from
 * (NODE_ENV=test only, decision 090); set() rewrites it atomically.
 */
export class TestClockFile {
  constructor(readonly file: string) {}
  async set(at: Date | string): Promise<void> {
    const iso = new Date(at).toISOString();
    const next = `${this.file}.${process.pid}.next`;
    await writeFile(next, iso);
    await rename(next, this.file);
  }
}
