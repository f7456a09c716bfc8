// npm run bench — Baton's performance figures, each with its target (docs/performance.md).
//
// Seeds a realistic organisation (200 rotations × 6 members, 1,000 users, 50,000 handoffs) through
// the app's own data layer, starts the built server (dist/server/main.js) on each engine in turn
// (PGlite in a temporary DATA_DIR; PostgreSQL in a fresh database when the server is reachable),
// loads it from this process with autocannon, and prints one table; the figures are also written
// to .bench/results.json. BENCH_QUICK=1 (or --quick) runs shorter loads and a smaller engine tick.
// BENCH_PG_URL names the PostgreSQL server (default: DATABASE_URL's server, else the local one).
// BENCH_ONLY=reads runs only the organisation's own load (its start, the reads against the
// comparison server, the audit search, the passes, the dashboard's paint and the peak RSS);
// BENCH_ONLY=alerts only the alert ingestion figures (issue 17, scripts/bench/alert-ingestion.ts);
// BENCH_ONLY=live only the live stream's (issue 19, scripts/bench/live-stream.ts);
// BENCH_ONLY=reach only the reach figure (issues 33 and 36, scripts/bench/reach-the-person.ts:
// push, SMS, a call and email; BENCH_REACH_RATE incidents a second instead of 50);
// BENCH_ONLY=import only the import's verify figure (issue 34, scripts/bench/import-verify.ts);
// BENCH_ONLY=start only the cold start and footprint (issue 36, scripts/bench/cold-start.ts: the
// median of START_RUNS `npm start`s to ready on a seeded data directory, from this tree and from a
// production install made with `npm install --omit=dev` in a temporary directory; its size and
// dist/'s); BENCH_ONLY=projection only the calendar's 90 days of 200 layered rotations (issue 36,
// scripts/bench/layered-projection.ts);
// BENCH_ONLY=baton only the pass-the-baton figure (issue 36, scripts/bench/pass-baton.ts);
// BENCH_ONLY=timers only the escalation steps' lateness with 10,000 open incidents (issue 36,
// decision 275, scripts/bench/escalation-timers.ts; PostgreSQL only); BENCH_ONLY=handoffs only
// the automatic handoffs' lateness on 1,000 rotations and the window edges' of 1,000 layered ones
// (decisions 278 and 280, scripts/bench/handoff-timers.ts; PostgreSQL only);
// BENCH_ONLY=outage only a real outage's load (issue 36, scripts/bench/outage.ts: 200 people's
// dashboard reads quiet, then while alerts arrive at 200 a second, incidents page and climb, people
// acknowledge by push, SMS and call, and batons pass; OUTAGE_SECONDS each, 15 s quick);
// BENCH_ENGINES=pglite or =postgres runs one engine (default both).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import { createCipher } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/core/config';
import { type Database, openPglite, openPostgres } from '../../src/server/db/client';
import { STREAMS_PER_SESSION } from '../../src/server/modules/live/live-hub';
import { SESSION_COOKIE } from '../../src/server/modules/sessions/session-service';
import { startFakeTwilio } from '../../tests/setup/fake-twilio';
import { startPushService } from '../../tests/setup/push-service';
import { startSmtpServer } from '../../tests/setup/smtp-server';
import { INITIAL_JS_BUDGET_BYTES, initialJsGzip, kB } from '../client-size';
import {
  countAlerts,
  cpuMillis,
  cpuSpent,
  distinctAlerts,
  ingestionLoad,
  insertBenchIntegration,
  loadMix,
  OPEN_KEYS,
  openKeys,
  REPEAT_SHARE,
} from './alert-ingestion';
import {
  median,
  megabytes,
  type ProductionInstall,
  productionInstall,
  READY_TARGET_MS,
  START_RUNS,
  timeStarts,
} from './cold-start';
import { seedOpenIncidents, watchSteps } from './escalation-timers';
import { dashboardPaint } from './front-end';
import {
  seedDueTransfers,
  seedWindowEdges,
  watchTransfers,
  watchWindowEdges,
} from './handoff-timers';
import { IMPORT_SCHEDULES, timeImportVerify } from './import-verify';
import { countStatements, type EngineName, LIST_PATHS, timeEngineTick } from './in-process';
import {
  LAYERED_ROTATIONS,
  PROJECTION_DAYS,
  PROJECTION_TARGET_MS,
  seedLayeredRotations,
  timeProjection,
} from './layered-projection';
import { LIVE_STREAMS, liveStreamFigures } from './live-stream';
import { mutationScoreLine } from './mutation-score';
import { outageFigures } from './outage';
import { BATON_WARMUP_SECONDS, type BatonFigures, batonLoad, batonState } from './pass-baton';
import { pgbenchBinary, type TpcbFigures, tpcbCeiling } from './pgbench';
import {
  acceptFigures,
  arrivals,
  awaitArrivals,
  emailKeys,
  REACH_CHANNELS,
  REACH_RATE,
  raiseAtRate,
  reachFigures,
  setUpPeople,
  whyMissed,
} from './reach-the-person';
import {
  FULL_ORGANISATION,
  type OrganisationSize,
  type SeededOrganisation,
  seedOrganisation,
} from './seed';
import { percentile } from './stats';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const quick = process.env.BENCH_QUICK === '1' || process.argv.includes('--quick');
const READ_SECONDS = quick ? 3 : 8;
const ROUNDS = quick ? 1 : 2;
const READ_CONNECTIONS = 20;
const BATON_SECONDS = quick ? 4 : 10;
const BATON_CONNECTIONS = 50;
const AUDIT_SECONDS = quick ? 3 : 8;
const AUDIT_CONNECTIONS = 5;
const AUDIT_SEARCH = 'Adams';
const TICK = quick ? { rotations: 1_000, due: 100 } : { rotations: 10_000, due: 1_000 };
const PAINT_RUNS = quick ? 1 : 3;
const INGEST_SECONDS = quick ? 4 : 10;
/**
 * The same load for this long first, on the just-started server, before the measured seconds:
 * its figures are printed on their own line, not counted in the load's (docs/performance.md).
 */
const INGEST_WARMUP_SECONDS = quick ? 3 : 5;
const INGEST_CONNECTIONS = 50;
const DISTINCT_ALERTS = 10_000;
/** the alert ingestion runs on an organisation of its own: the integrations' rotations */
const INGEST_ORGANISATION: OrganisationSize = {
  users: 60,
  rotations: 10,
  membersPerRotation: 6,
  handoffs: 100,
};
/** the reach figure: incidents raised at REACH_RATE a second for this long, each to its own person */
const REACH_SECONDS = quick ? 4 : 10;
const only = process.env.BENCH_ONLY;
const PARTS = [
  'reads',
  'alerts',
  'live',
  'reach',
  'import',
  'start',
  'projection',
  'baton',
  'timers',
  'handoffs',
  'outage',
] as const;
/** runs: whether a part selectable by BENCH_ONLY runs (all of them without it) */
const runs = (part: (typeof PARTS)[number]) => only === undefined || only === part;
const PASSWORD = 'bench-local-password';
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const env = { LOCAL_LOGIN_PASSWORD: PASSWORD, ENCRYPTION_KEY };

type Row = { figure: string; measured: string; target: string; met: boolean | null };
const rows: Row[] = [];
const results: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  quick,
  machine: { cpus: os.cpus().length, node: process.version, loadavg: os.loadavg() },
};

function log(message: string) {
  process.stderr.write(`[bench] ${message}\n`);
}

function record(figure: string, measured: string, target: string, met: boolean | null) {
  rows.push({ figure, measured, target, met });
  log(`${figure}: ${measured} (target ${target}) ${met === null ? '' : met ? 'met' : 'MISSED'}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a fresh database per use, dropped afterwards.

/**
 * The local server through its Unix-domain socket when there is one, as the README advises for a
 * PostgreSQL on Baton's machine (decision 285), else TCP on loopback; pgbench goes the same way.
 */
const LOCAL_SOCKET_DIR = '/var/run/postgresql';
const pgServerUrl = (() => {
  const given = process.env.BENCH_PG_URL ?? process.env.DATABASE_URL;
  const local = existsSync(path.join(LOCAL_SOCKET_DIR, '.s.PGSQL.5432'))
    ? `postgres://postgres@${encodeURIComponent(LOCAL_SOCKET_DIR)}/postgres`
    : 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = new URL(given ?? local);
  url.pathname = '/postgres';
  return url;
})();
/** whether the server is on this machine (its sessions' processor time is then in /proc) */
const pgServerIsLocal =
  ['127.0.0.1', 'localhost', '[::1]'].includes(pgServerUrl.hostname) ||
  decodeURIComponent(pgServerUrl.hostname).startsWith('/');
const createdDatabases: string[] = [];

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({
    connectionString: pgServerUrl.href,
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function adminQuery<R extends pg.QueryResultRow = pg.QueryResultRow>(
  query: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: pgServerUrl.href });
  await client.connect();
  try {
    return (await client.query<R>(query, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * backendPids: the processes of the PostgreSQL sessions on database `url`, when the server runs
 * on this machine (their CPU time is then in /proc); none otherwise.
 */
async function backendPids(url: string | undefined): Promise<number[]> {
  if (!url || !pgServerIsLocal) return [];
  const rows = await adminQuery<{ pid: number }>(
    'select pid from pg_stat_activity where datname = $1',
    [new URL(url).pathname.slice(1)],
  );
  return rows.map((r) => r.pid);
}

async function createDatabase(label: string): Promise<string> {
  const name = `baton_bench_${label}_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(`create database ${name}`);
  createdDatabases.push(name);
  const url = new URL(pgServerUrl.href);
  url.pathname = `/${name}`;
  return url.href;
}

async function dropDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  await adminQuery(`drop database if exists ${name} with (force)`);
  createdDatabases.splice(createdDatabases.indexOf(name), 1);
}

// ---------------------------------------------------------------------------------------------
// Processes: the built server and the comparison server.

const children = new Set<ChildProcess>();

function startProcess(
  args: string[],
  extraEnv: Record<string, string>,
  label: string,
  cwd = root,
): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('exit', (code, signal) => {
    children.delete(child);
    if (code && code !== 0 && code !== 143 && signal === null)
      log(`${label} exited with ${code}:\n${tail}`);
  });
  return child;
}

async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, sleep(12_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

async function waitReady(base: string, child: ChildProcess, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error('the server exited before it was ready');
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.status === 200) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(25);
  }
  throw new Error(`${base} not ready within ${timeoutMs} ms`);
}

/** The server's resident memory at one reading, in kB: all of it, its heap's pages and its files'. */
interface RssReading {
  rssKb: number;
  /** RssAnon: the JavaScript heap, WebAssembly memory, buffers: what the process allocated */
  anonKb: number;
  /** RssFile: code and files mapped in (Node's binary, PGlite's module) */
  fileKb: number;
}

/**
 * RssSampler reads the server's VmRSS from /proc every 100 ms and keeps the largest, overall and
 * for each phase the load names (`phase`), with how much of it was allocated memory and how much
 * mapped files: the peak's phase and kind are the first step of its cause.
 */
function sampleRss(pid: number) {
  let phase = 'start';
  const peaks = new Map<string, RssReading>();
  const read = () => {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const field = (name: string) =>
        Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      const reading = { rssKb: field('VmRSS'), anonKb: field('RssAnon'), fileKb: field('RssFile') };
      if (reading.rssKb > (peaks.get(phase)?.rssKb ?? -1)) peaks.set(phase, reading);
    } catch {
      // the process ended
    }
  };
  read();
  const timer = setInterval(read, 100);
  return {
    /** phase names what the load does from now on */
    phase: (name: string) => {
      read();
      phase = name;
    },
    /** each phase's largest reading, in the order the phases came */
    peaks: () => peaks,
    stop: () => {
      clearInterval(timer);
      read();
      return Math.max(0, ...[...peaks.values()].map((r) => r.rssKb)) / 1024;
    },
  };
}

/** peakPhase says where the largest reading was: its phase and how much was allocated, in MB. */
function peakPhase(peaks: Map<string, RssReading>): string {
  const mb = (kb: number) => (kb / 1024).toFixed(0);
  const [phase, top] = [...peaks].reduce((a, b) => (b[1].rssKb > a[1].rssKb ? b : a));
  const each = [...peaks].map(([name, r]) => `${name} ${mb(r.rssKb)}`).join(', ');
  return `peak in ${phase}: ${mb(top.anonKb)} MB allocated, ${mb(top.fileKb)} MB files; by phase: ${each}`;
}

// ---------------------------------------------------------------------------------------------
// Loads.

interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
}

function figuresOf(r: Result): LoadFigures {
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

async function loadGet(
  base: string,
  pathAndQuery: string,
  cookie: string,
  seconds: number,
  connections: number,
) {
  const r = await autocannon({
    url: `${base}${pathAndQuery}`,
    connections,
    duration: seconds,
    headers: { cookie },
  });
  const f = figuresOf(r);
  if (f.non2xx > 0 || f.errors > 0) log(`${pathAndQuery}: ${f.non2xx} non-2xx, ${f.errors} errors`);
  return f;
}

async function login(base: string, email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  if (!cookie) throw new Error(`login ${email}: no session cookie`);
  return cookie.split(';')[0];
}

async function loginAll(base: string, org: SeededOrganisation): Promise<Map<number, string>> {
  const cookies = new Map<number, string>();
  const queue = [...org.users];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let u = queue.shift(); u; u = queue.shift())
        cookies.set(u.id, await login(base, u.email));
    }),
  );
  return cookies;
}

// ---------------------------------------------------------------------------------------------
// One engine: seed, start, load, measure.

async function withDatabase<T>(
  engine: EngineName,
  where: string,
  work: (db: Database['db'], cipher: ReturnType<typeof createCipher>) => Promise<T>,
): Promise<T> {
  const config = loadConfig({ NODE_ENV: 'test', ...env, DATA_DIR: where });
  const cipher = createCipher(config);
  const database: Database = engine === 'pglite' ? await openPglite(where) : openPostgres(where);
  try {
    await database.migrate();
    return await work(database.db, cipher);
  } finally {
    await database.close();
  }
}

async function seedInto(engine: EngineName, where: string): Promise<SeededOrganisation> {
  return withDatabase(engine, where, (db, cipher) =>
    seedOrganisation(db, cipher, FULL_ORGANISATION, new Date()),
  );
}

/** The built server's environment on a port, a data directory and (PostgreSQL) a database. */
function serverEnvOf(
  port: number,
  dataDir: string,
  url: string | undefined,
): Record<string, string> {
  return {
    ...env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    DEMO: '0',
    COMPANY_DOMAIN: 'example.com',
    SIGN_IN_RATE_LIMIT: '1000000',
    DATABASE_URL: url ?? '',
  };
}

const READS = [
  { key: 'rotations', path: '/api/rotations', label: 'GET /api/rotations', as: 'admin' },
  {
    key: 'userRotations',
    path: '/api/user/rotations',
    label: 'dashboard: GET /api/user/rotations',
    as: 'member',
  },
  {
    key: 'recentHandoffs',
    path: '/api/handoffs/recent?limit=5',
    label: 'dashboard: GET /api/handoffs/recent?limit=5',
    as: 'admin',
  },
] as const;

async function benchEngine(engine: EngineName, options: { frontEnd: boolean }) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const out: Record<string, unknown> = {};
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-'));
  const url = engine === 'postgres' ? await createDatabase('server') : undefined;
  let server: ChildProcess | undefined;
  let memory: ChildProcess | undefined;
  try {
    log(
      `${label}: seeding ${FULL_ORGANISATION.rotations} rotations, ${FULL_ORGANISATION.users} users, ${FULL_ORGANISATION.handoffs} handoffs`,
    );
    const seedStarted = performance.now();
    const org = await seedInto(engine, url ?? dataDir);
    out.seedSeconds = (performance.now() - seedStarted) / 1000;

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const serverEnv = serverEnvOf(port, dataDir, url);
    // as `npm start` starts it: the build check first (decision 227), then the server
    server = startProcess([path.join(root, 'scripts/start.mjs')], serverEnv, `${label} server`);
    const readyMs = await waitReady(base, server);
    out.readyMs = readyMs;
    record(
      `start on an existing data directory, ${label}: ready`,
      `${(readyMs / 1000).toFixed(2)} s (one start; BENCH_ONLY=start: the median of ${START_RUNS})`,
      `≤ ${READY_TARGET_MS / 1000} s`,
      readyMs <= READY_TARGET_MS,
    );

    const rss = sampleRss(server.pid as number);
    rss.phase('sign-in');
    log(`${label}: signing in ${org.users.length + 1} users`);
    const cookies = await loginAll(base, org);
    const adminCookie = await login(base, org.admin.email);
    // The member whose dashboard is read belongs to two rotations, as the busiest members do.
    const member = org.users[0];
    const cookieFor = (as: 'admin' | 'member') =>
      as === 'admin' ? adminCookie : (cookies.get(member.id) as string);

    // Capture each read's body for the comparison server.
    const bodies: Record<string, string> = {};
    for (const read of READS) {
      const res = await fetch(`${base}${read.path}`, { headers: { cookie: cookieFor(read.as) } });
      if (res.status !== 200) throw new Error(`${read.path}: ${res.status}`);
      bodies[read.path] = await res.text();
    }
    const bodiesFile = path.join(dataDir, 'bodies.json');
    writeFileSync(bodiesFile, JSON.stringify(bodies));
    const memoryPort = await freePort();
    const memoryBase = `http://127.0.0.1:${memoryPort}`;
    memory = startProcess(
      [
        path.join(root, 'node_modules/tsx/dist/cli.mjs'),
        path.join(root, 'scripts/bench/memory-server.ts'),
      ],
      { PORT: String(memoryPort), BENCH_BODIES: bodiesFile, LOG_LEVEL: 'warn' },
      'comparison server',
    );
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${memoryBase}/api/rotations`)).status === 200) break;
      } catch {
        if (i > 200) throw new Error('the comparison server did not start');
      }
      await sleep(50);
    }

    const ratioTarget = engine === 'postgres' ? 0.5 : 0.4;
    const reads: Record<string, unknown> = {};
    rss.phase('reads');
    for (const read of READS) {
      const real: LoadFigures[] = [];
      const limit: LoadFigures[] = [];
      // Alternate the two so that a burst of other work on the machine hits both alike.
      for (let round = 0; round < ROUNDS; round++) {
        real.push(
          await loadGet(base, read.path, cookieFor(read.as), READ_SECONDS, READ_CONNECTIONS),
        );
        limit.push(
          await loadGet(memoryBase, read.path, cookieFor(read.as), READ_SECONDS, READ_CONNECTIONS),
        );
      }
      const realRps = real.reduce((s, f) => s + f.rps, 0) / real.length;
      const limitRps = limit.reduce((s, f) => s + f.rps, 0) / limit.length;
      const ratio = realRps / limitRps;
      reads[read.key] = {
        real,
        limit,
        realRps,
        limitRps,
        ratio,
        bodyBytes: bodies[read.path].length,
      };
      record(
        `${read.label}, ${label}: throughput vs same JSON from memory`,
        `${(ratio * 100).toFixed(0)}% (${realRps.toFixed(0)} / ${limitRps.toFixed(0)} req/s, p99 ${real[0].p99} ms)`,
        `≥ ${ratioTarget * 100}%`,
        ratio >= ratioTarget,
      );
    }
    out.reads = reads;
    await stopProcess(memory);

    log(`${label}: audit log search`);
    rss.phase('audit');
    const audit = await loadGet(
      base,
      `/api/audit-log/handoffs?limit=20&search=${AUDIT_SEARCH}`,
      adminCookie,
      AUDIT_SECONDS,
      AUDIT_CONNECTIONS,
    );
    out.auditSearch = audit;
    record(
      `audit log page of 20, search "${AUDIT_SEARCH}", ${label}: p99 (${AUDIT_CONNECTIONS} clients)`,
      `${audit.p99} ms (${audit.rps.toFixed(0)} req/s)`,
      '≤ 50 ms',
      audit.p99 <= 50 && audit.non2xx === 0,
    );

    log(`${label}: pass-baton, ${BATON_CONNECTIONS} clients`);
    rss.phase('passes');
    const [, batonRotations] = batonState(org);
    const baton = await batonLoad(base, batonRotations, cookies, BATON_SECONDS, BATON_CONNECTIONS);
    out.passBaton = baton;
    const batonTarget = engine === 'postgres';
    record(
      `pass-baton, ${BATON_CONNECTIONS} clients across rotations, ${label}: p99`,
      `${baton.p99} ms (${baton.refused} refused)`,
      batonTarget ? '≤ 15 ms' : '(target for PostgreSQL)',
      batonTarget ? baton.p99 <= 15 && baton.refused === 0 : null,
    );
    record(
      `pass-baton, ${BATON_CONNECTIONS} clients across rotations, ${label}: throughput`,
      `${baton.passesPerSecond.toFixed(0)} handoffs/s`,
      batonTarget ? '≥ 1,000 handoffs/s' : '(target for PostgreSQL)',
      batonTarget ? baton.passesPerSecond >= 1000 : null,
    );
    if (engine === 'postgres') out.tpcb = await recordTpcbRatio(label, baton);

    if (options.frontEnd) {
      log(`${label}: dashboard in headless Chromium`);
      rss.phase('paint');
      const token = adminCookie.split('=')[1];
      const paint = await dashboardPaint(
        base,
        { name: SESSION_COOKIE, value: token },
        org.rotations.length > 0 ? 'Payments API' : 'Dashboard',
        PAINT_RUNS,
      );
      out.dashboardPaint = paint;
      const lcp = [...paint.lcpMs].sort((a, b) => a - b)[Math.floor(paint.lcpMs.length / 2)];
      record(
        `dashboard with ${org.rotations.length} rotations, ${label}: largest contentful paint (median of ${paint.lcpMs.length})`,
        `${(lcp / 1000).toFixed(2)} s (${paint.rotationsShown} rotation links)`,
        '≤ 1.0 s',
        lcp <= 1000,
      );
      record(
        `dashboard with ${org.rotations.length} rotations, ${label}: longest task`,
        `${paint.longestTaskMs.toFixed(0)} ms`,
        '≤ 200 ms',
        paint.longestTaskMs <= 200,
      );
    }

    const rssMb = rss.stop();
    out.rssMb = rssMb;
    out.rssPeaks = Object.fromEntries(rss.peaks());
    record(
      `server memory under the load above, ${label}: peak RSS`,
      `${rssMb.toFixed(0)} MB (${peakPhase(rss.peaks())})`,
      '≤ 250 MB',
      rssMb <= 250,
    );
    return out;
  } finally {
    if (memory) await stopProcess(memory);
    if (server) await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * liveStreams: 1,000 open live streams on one server (issue 19, decision 220), a change
 * delivered to all of them, and the server's memory per open stream.
 */
async function liveStreams(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-live-'));
  const url = engine === 'postgres' ? await createDatabase('live') : undefined;
  let server: ChildProcess | undefined;
  try {
    log(`${label}: live stream, seeding`);
    const org = await withDatabase(engine, url ?? dataDir, (db, cipher) =>
      seedOrganisation(db, cipher, INGEST_ORGANISATION, new Date()),
    );
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startProcess(
      [path.join(root, 'dist/server/main.js')],
      serverEnvOf(port, dataDir, url),
      `${label} server (live)`,
    );
    await waitReady(base, server);
    const cookies = [...(await loginAll(base, org)).values()];
    // A session holds at most STREAMS_PER_SESSION streams (decision 236): the server closes a
    // session's oldest past it. The organisation's people sign in again until the streams fit.
    for (let k = 0; cookies.length * STREAMS_PER_SESSION < LIVE_STREAMS; k++) {
      cookies.push(await login(base, org.users[k % org.users.length].email));
    }
    const adminCookie = await login(base, org.admin.email);
    const figures = await liveStreamFigures({
      base,
      serverPid: server.pid as number,
      cookies,
      adminCookie,
      rotationId: org.rotations[0].id,
      rounds: quick ? 3 : 5,
      log: (m) => log(`${label}: ${m}`),
    });
    record(
      `live stream, ${figures.opened} open streams on one instance, ${label}: a change delivered to all, p99`,
      `${figures.p99} ms (p50 ${figures.p50} ms, max ${figures.max} ms, ${figures.rounds} changes, ${figures.missed} deliveries missed)`,
      '≤ 1,000 ms, none missed',
      figures.p99 <= 1000 && figures.missed === 0 && figures.opened === LIVE_STREAMS,
    );
    record(
      `live stream, ${label}: server memory per open stream`,
      `${figures.kbPerStream.toFixed(1)} KB`,
      '(measured)',
      null,
    );
    await stopProcess(server);
    return figures;
  } finally {
    if (server) await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url);
  }
}

/**
 * alertIngestion (issue 17): on a fresh organisation of its own, opens OPEN_KEYS dedup keys, then
 * loads POST /api/alerts/pagerduty/v2/enqueue with 80% repeats of them and 20% new keys; then
 * sends 10,000 distinct alerts to a second integration and, with the server stopped, counts the
 * alert rows it recorded.
 */
async function alertIngestion(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-alerts-'));
  const url = engine === 'postgres' ? await createDatabase('alerts') : undefined;
  const where = url ?? dataDir;
  let server: ChildProcess | undefined;
  try {
    log(`${label}: alert ingestion, seeding two integrations`);
    const { load, distinct } = await withDatabase(engine, where, async (db, cipher) => {
      const org = await seedOrganisation(db, cipher, INGEST_ORGANISATION, new Date());
      return {
        load: await insertBenchIntegration(db, cipher, org.rotations[0].id, 'Bench load'),
        distinct: await insertBenchIntegration(db, cipher, org.rotations[1].id, 'Bench distinct'),
      };
    });
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startProcess(
      [path.join(root, 'dist/server/main.js')],
      serverEnvOf(port, dataDir, url),
      `${label} server (alerts)`,
    );
    await waitReady(base, server);
    const open = Array.from({ length: OPEN_KEYS }, (_, i) => `open-${i}`);
    const openRefused = await openKeys(base, load.key, open);
    if (Object.keys(openRefused).length > 0)
      log(`${label}: opening ${OPEN_KEYS} keys met refusals: ${JSON.stringify(openRefused)}`);

    const mix = loadMix(open, label);
    log(
      `${label}: alert ingestion, warm-up, ${INGEST_CONNECTIONS} clients for ${INGEST_WARMUP_SECONDS} s`,
    );
    const warmUp = await ingestionLoad(
      base,
      load.key,
      mix,
      INGEST_WARMUP_SECONDS,
      INGEST_CONNECTIONS,
    );
    log(`${label}: alert ingestion, ${INGEST_CONNECTIONS} clients for ${INGEST_SECONDS} s`);
    const serverPid = server.pid === undefined ? [] : [server.pid];
    const backendsBefore = await backendPids(url);
    const cpuBefore = { server: cpuMillis(serverPid), database: cpuMillis(backendsBefore) };
    const loadFigures = await ingestionLoad(
      base,
      load.key,
      mix,
      INGEST_SECONDS,
      INGEST_CONNECTIONS,
    );
    // The server's CPU and, on a local PostgreSQL, its sessions' (new ones counted from 0).
    const serverCpu = cpuSpent(cpuBefore.server, cpuMillis(serverPid));
    const databaseCpu = cpuSpent(
      cpuBefore.database,
      cpuMillis([...new Set([...backendsBefore, ...(await backendPids(url))])]),
    );
    log(`${label}: ${DISTINCT_ALERTS} distinct alerts`);
    const distinctFigures = await distinctAlerts(
      base,
      distinct.key,
      DISTINCT_ALERTS,
      INGEST_CONNECTIONS,
    );
    await stopProcess(server);
    const recorded = await withDatabase(engine, where, (db) => countAlerts(db, distinct.id));

    const postgres = engine === 'postgres';
    const refusals = (r: Record<string, number>) =>
      Object.keys(r).length === 0
        ? 'none refused'
        : Object.entries(r)
            .map(([status, n]) => `${n} × ${status}`)
            .join(', ');
    const share = `${Math.round(REPEAT_SHARE * 100)}% repeats / ${Math.round((1 - REPEAT_SHARE) * 100)}% new keys`;
    record(
      `alert ingestion, PagerDuty Events v2, ${share}, ${INGEST_CONNECTIONS} clients, ${label}: throughput`,
      `${loadFigures.eventsPerSecond.toFixed(0)} events/s (${loadFigures.accepted} accepted of ${loadFigures.sent}, ${refusals(loadFigures.refused)})`,
      postgres ? '≥ 2,000 events/s' : '≥ 500 events/s',
      loadFigures.eventsPerSecond >= (postgres ? 2000 : 500) &&
        loadFigures.accepted === loadFigures.sent,
    );
    record(
      `alert ingestion, same load, ${label}: p99`,
      `${loadFigures.p99} ms (p50 ${loadFigures.p50} ms)`,
      postgres ? '≤ 50 ms' : '(target for PostgreSQL)',
      postgres ? loadFigures.p99 <= 50 : null,
    );
    record(
      `alert ingestion, same load, ${label}: the first ${INGEST_WARMUP_SECONDS} s after the server's start (warm-up, before the figures above)`,
      `${warmUp.eventsPerSecond.toFixed(0)} events/s (${warmUp.accepted} accepted of ${warmUp.sent}, ${refusals(warmUp.refused)}), p99 ${warmUp.p99} ms (p50 ${warmUp.p50} ms)`,
      '(measured)',
      null,
    );
    if (serverCpu > 0) {
      const perEvent = (ms: number) => `${(ms / loadFigures.sent).toFixed(2)} ms`;
      record(
        `alert ingestion, same load, ${label}: CPU per event (holds on a busy machine)`,
        postgres && databaseCpu > 0
          ? `server ${perEvent(serverCpu)}, PostgreSQL ${perEvent(databaseCpu)}`
          : `server ${perEvent(serverCpu)} (the database in the same process)`,
        '(no target: where the time goes)',
        null,
      );
    }
    record(
      `${DISTINCT_ALERTS.toLocaleString('en-US')} distinct alerts in one minute, ${label}: none lost`,
      `${recorded} recorded of ${distinctFigures.sent} sent (${distinctFigures.accepted} accepted, ${refusals(distinctFigures.refused)}) in ${distinctFigures.seconds.toFixed(1)} s`,
      `all ${DISTINCT_ALERTS.toLocaleString('en-US')} recorded, within 60 s`,
      recorded === DISTINCT_ALERTS &&
        distinctFigures.accepted === DISTINCT_ALERTS &&
        distinctFigures.seconds <= 60,
    );
    return { openRefused, warmUp, load: loadFigures, distinct: { ...distinctFigures, recorded } };
  } finally {
    if (server) await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

/**
 * reachThePerson (issues 33 and 36, decision 266): on an organisation of its own where each person
 * is the one member of a rotation, has a phone, a device at the loopback push service and the rules
 * "push, SMS, a call and email, all at once" for high urgency, raises REACH_RATE incidents a second
 * for REACH_SECONDS, one per rotation (a person gets one page: the limit per person, 3 texts and
 * calls a quarter hour, would hold and bundle more), and times each incident from its request and
 * from its 201 to the push service, Twilio and the SMTP server receiving its messages; issue 36's
 * target for each: p95 ≤ 1 s and p99 ≤ 2 s from the request, none missed. The server runs with the
 * production outbox interval.
 */
async function reachThePerson(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const people = REACH_RATE * REACH_SECONDS;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-reach-'));
  const url = engine === 'postgres' ? await createDatabase('reach') : undefined;
  const push = await startPushService();
  const twilio = await startFakeTwilio('AC_bench', 'bench-auth-token');
  const smtp = await startSmtpServer();
  let server: ChildProcess | undefined;
  try {
    log(`${label}: reach, seeding ${people} people, each the one member of a rotation`);
    const org = await withDatabase(engine, url ?? dataDir, (db, cipher) =>
      seedOrganisation(
        db,
        cipher,
        {
          users: people,
          rotations: people,
          membersPerRotation: 1,
          handoffs: people,
          everyoneHasPhone: true,
        },
        new Date(),
      ),
    );
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startProcess(
      [path.join(root, 'dist/server/main.js')],
      {
        ...serverEnvOf(port, dataDir, url),
        NODE_EXTRA_CA_CERTS: push.caFile,
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_FROM: '+15550000000',
        TWILIO_API_BASE: twilio.apiBase,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Baton <baton@example.com>',
      },
      `${label} server (reach)`,
    );
    await waitReady(base, server);
    log(`${label}: reach, signing in ${people} people, their rules and devices`);
    const cookies = await loginAll(base, org);
    const adminCookie = await login(base, org.admin.email);
    await setUpPeople(
      base,
      adminCookie,
      org.users.map((u) => ({ id: u.id, cookie: cookies.get(u.id) as string })),
      push,
    );
    log(`${label}: reach, ${REACH_RATE} incidents a second for ${REACH_SECONDS} s`);
    const serverPid = server.pid === undefined ? [] : [server.pid];
    const backendsBefore = await backendPids(url);
    const cpuBefore = { server: cpuMillis(serverPid), database: cpuMillis(backendsBefore) };
    const load = await raiseAtRate(
      base,
      adminCookie,
      org.rotations.map((r) => r.id),
      REACH_RATE,
    );
    const holders = new Map(org.rotations.map((r) => [r.id, r.memberIds[r.holderIndex]]));
    const keys = emailKeys(load.raised, (rotationId) => holders.get(rotationId));
    const read = () => arrivals(push, twilio, smtp, keys);
    await awaitArrivals(load.raised, read, 60_000);
    // The server's CPU (and a local PostgreSQL's sessions') from the first incident to the last
    // message: what one incident costs, whatever else the machine is doing.
    const serverCpu = cpuSpent(cpuBefore.server, cpuMillis(serverPid));
    const databaseCpu = cpuSpent(
      cpuBefore.database,
      cpuMillis([...new Set([...backendsBefore, ...(await backendPids(url))])]),
    );
    const figures = reachFigures(load.raised, read());
    const accept = acceptFigures(load.raised);
    const refusals =
      Object.keys(load.refused).length === 0
        ? 'none refused'
        : Object.entries(load.refused)
            .map(([status, n]) => `${n} × ${status}`)
            .join(', ');
    record(
      `reach the person, ${REACH_RATE} incidents/s for ${REACH_SECONDS} s, ${label}: incidents raised`,
      `${load.raised.length} accepted of ${people} sent in ${load.seconds.toFixed(1)} s, the last answered at ${load.answeredSeconds.toFixed(1)} s (${refusals}); the POST p50 ${accept.p50} ms, p95 ${accept.p95} ms`,
      `all ${people}, answered at ${REACH_RATE}/s (within ${REACH_SECONDS + 1} s)`,
      load.raised.length === people && load.answeredSeconds <= REACH_SECONDS + 1,
    );
    if (serverCpu > 0 && load.raised.length > 0) {
      const perIncident = (ms: number) => `${(ms / load.raised.length).toFixed(1)} ms`;
      record(
        `reach the person, same load, ${label}: CPU per incident, raised and its 4 messages sent (holds on a busy machine)`,
        engine === 'postgres' && databaseCpu > 0
          ? `server ${perIncident(serverCpu)}, PostgreSQL ${perIncident(databaseCpu)}`
          : `server ${perIncident(serverCpu)} (the database in the same process)`,
        '(no target: where the time goes)',
        null,
      );
    }
    const names = {
      push: 'push service',
      sms: 'Twilio, SMS',
      voice: 'Twilio, call',
      email: 'SMTP server, email',
    } as const;
    for (const channel of REACH_CHANNELS) {
      const f = figures[channel];
      record(
        `reach the person, same load, ${label}: incident raised → ${names[channel]} receiving, p50 / p95 / p99`,
        `${f.fromRaised.p50} / ${f.fromRaised.p95} / ${f.fromRaised.p99} ms; from its 201: ${f.p50} / ${f.p95} / ${f.p99} ms (max ${f.max}); ${f.received} received, ${f.missed} missed`,
        '(p95 ≤ 1 s, p99 ≤ 2 s; none missed)',
        f.missed === 0 && f.fromRaised.p95 <= 1000 && f.fromRaised.p99 <= 2000,
      );
    }
    if (push.refused.length > 0)
      log(`${label}: the push service refused ${push.refused.length}: ${push.refused[0].reason}`);
    await stopProcess(server);
    const got = read();
    const missed: Record<string, Record<string, number>> = {};
    await withDatabase(engine, url ?? dataDir, async (db) => {
      for (const channel of REACH_CHANNELS) {
        const ids = load.raised.filter((r) => !got[channel].has(r.id)).map((r) => r.id);
        if (ids.length === 0) continue;
        missed[channel] = await whyMissed(db, channel, ids);
        log(`${label}: ${channel} missed for ${ids.length}: ${JSON.stringify(missed[channel])}`);
      }
    });
    return {
      load: { ...load, raised: load.raised.length },
      accept,
      figures,
      refusedPushes: push.refused.length,
    };
  } finally {
    if (server) await stopProcess(server);
    await push.close();
    await twilio.close();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

async function importVerify(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  log(`${label}: import verify, ${IMPORT_SCHEDULES} schedules over 90 days`);
  const url = engine === 'postgres' ? await createDatabase('import') : undefined;
  try {
    const r = await timeImportVerify({ engine, url }, env, 3);
    const median = [...r.ms].sort((a, b) => a - b)[Math.floor(r.ms.length / 2)] as number;
    record(
      `import verify: 90 days of a ${r.schedules}-schedule PagerDuty account, ${label}`,
      `${(median / 1000).toFixed(2)} s (median of ${r.ms.length}; ${r.differences} differences)`,
      '≤ 5 s',
      median <= 5000 && r.differences === 0,
    );
    return r;
  } finally {
    if (url) await dropDatabase(url);
  }
}

/**
 * coldStart (issue 36): on the full organisation, seeded, `npm start` (scripts/start.mjs) timed to
 * ready START_RUNS times from this tree, and as many from the production install when there is one.
 */
async function coldStart(engine: EngineName, install: ProductionInstall | undefined) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-start-'));
  const url = engine === 'postgres' ? await createDatabase('start') : undefined;
  try {
    log(`${label}: cold start, seeding the full organisation`);
    await seedInto(engine, url ?? dataDir);
    const port = await freePort();
    const harness = {
      start: (args: string[], cwd?: string) =>
        startProcess(args, serverEnvOf(port, dataDir, url), `${label} server (start)`, cwd),
      waitReady: (child: ChildProcess) => waitReady(`http://127.0.0.1:${port}`, child),
      stop: stopProcess,
    };
    const out: Record<string, number[]> = {};
    const trees = install
      ? { 'this tree': root, 'the production install': install.dir }
      : { 'this tree': root };
    for (const [tree, dir] of Object.entries(trees)) {
      log(`${label}: ${START_RUNS} starts from ${tree}`);
      const { ms, cpuMs } = await timeStarts(
        harness,
        [path.join(dir, 'scripts/start.mjs')],
        START_RUNS,
        dir,
      );
      out[tree] = ms;
      record(
        `npm start on an existing data directory (${FULL_ORGANISATION.rotations} rotations, ${FULL_ORGANISATION.users} users), from ${tree}, ${label}: ready (median of ${ms.length})`,
        `${(median(ms) / 1000).toFixed(2)} s (${ms.map((m) => (m / 1000).toFixed(2)).join(', ')}; CPU to ready, median ${(median(cpuMs) / 1000).toFixed(2)} s; load ${os.loadavg()[0].toFixed(1)})`,
        `≤ ${READY_TARGET_MS / 1000} s`,
        median(ms) <= READY_TARGET_MS,
      );
    }
    return out;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

/**
 * layeredProjection (issue 36): LAYERED_ROTATIONS layered rotations made through the app, then the
 * built server's calendar over PROJECTION_DAYS, read over HTTP as the browser reads it, 5 times.
 */
async function layeredProjection(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-layers-'));
  const url = engine === 'postgres' ? await createDatabase('layers') : undefined;
  let server: ChildProcess | undefined;
  try {
    log(`${label}: projection, creating ${LAYERED_ROTATIONS} layered rotations`);
    const database = url ? openPostgres(url) : await openPglite(dataDir);
    let adminEmail: string;
    try {
      await database.migrate();
      adminEmail = await seedLayeredRotations(database, env);
    } finally {
      await database.close();
    }
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startProcess(
      [path.join(root, 'dist/server/main.js')],
      serverEnvOf(port, dataDir, url),
      `${label} server (projection)`,
    );
    await waitReady(base, server);
    const cookie = await login(base, adminEmail);
    log(`${label}: projection, the calendar's ${PROJECTION_DAYS} days, 5 times`);
    const serverPid = server.pid === undefined ? [] : [server.pid];
    const backendsBefore = await backendPids(url);
    const cpuBefore = { server: cpuMillis(serverPid), database: cpuMillis(backendsBefore) };
    const runs = await timeProjection(base, cookie, 5);
    // CPU a read costs whatever else the machine is doing: the server's, a local PostgreSQL's
    const serverCpu = cpuSpent(cpuBefore.server, cpuMillis(serverPid)) / runs.length;
    const databaseCpu =
      cpuSpent(
        cpuBefore.database,
        cpuMillis([...new Set([...backendsBefore, ...(await backendPids(url))])]),
      ) / runs.length;
    const ms = median(runs.map((r) => r.ms));
    const last = runs[runs.length - 1];
    record(
      `calendar: ${PROJECTION_DAYS} days of ${LAYERED_ROTATIONS} layered rotations (follow-the-sun 12-hour pairs on weekdays, daily weekends), GET /api/calendar over HTTP, ${label} (median of ${runs.length})`,
      `${(ms / 1000).toFixed(2)} s (${runs.map((r) => (r.ms / 1000).toFixed(2)).join(', ')}; ${last.rotations} rotations, ${last.shifts.toLocaleString('en-US')} shifts, ${megabytes(last.bytes)} of JSON; load ${os.loadavg()[0].toFixed(1)})`,
      engine === 'pglite' ? `≤ ${PROJECTION_TARGET_MS / 1000} s` : '(target for PGlite)',
      engine === 'pglite' ? ms <= PROJECTION_TARGET_MS : null,
    );
    record(
      `calendar: the same ${PROJECTION_DAYS} days, ${label}: CPU per read of them (holds on a busy machine)`,
      url && databaseCpu > 0
        ? `server ${(serverCpu / 1000).toFixed(2)} s, PostgreSQL ${(databaseCpu / 1000).toFixed(2)} s`
        : `server ${(serverCpu / 1000).toFixed(2)} s (the database in the same process)`,
      '(no target: where the time goes)',
      null,
    );
    return { runs, serverCpuMs: serverCpu, databaseCpuMs: databaseCpu };
  } finally {
    if (server) await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

/** footprint (issue 36): the production install's size and the build's. */
function footprint(install: ProductionInstall) {
  record(
    "production install: node_modules of `npm install --omit=dev` (the Dockerfile's runtime stage)",
    `${megabytes(install.nodeModules.bytes)} (${install.packages} packages, ${install.nodeModules.files} files; installed in ${install.installSeconds.toFixed(0)} s)`,
    '(measured)',
    null,
  );
  record(
    'the build: dist/',
    `${megabytes(install.dist.bytes)} (${install.dist.files} files)`,
    '(measured)',
    null,
  );
  return { nodeModules: install.nodeModules, dist: install.dist, packages: install.packages };
}

/**
 * recordTpcbRatio: pgbench's TPC-B at the pass-baton load's clients and seconds on the same
 * PostgreSQL server, just after that load (scripts/bench/pgbench.ts), and the passes a second as
 * a share of its transactions a second: issue 36's other measure of the pass on PostgreSQL.
 */
async function recordTpcbRatio(
  label: string,
  baton: BatonFigures,
): Promise<TpcbFigures | undefined> {
  const binary = pgbenchBinary();
  const figure = `pass-baton, ${BATON_CONNECTIONS} clients, ${label}: passes a second vs pgbench's TPC-B`;
  if (!binary) {
    record(figure, 'not measured: no pgbench on this machine', '≥ 40%', null);
    return undefined;
  }
  log(`${label}: pgbench's TPC-B, ${BATON_CONNECTIONS} clients, ${BATON_SECONDS} s`);
  const url = await createDatabase('tpcb');
  try {
    const tpcb = tpcbCeiling(binary, url, BATON_CONNECTIONS, BATON_SECONDS);
    const ratio = baton.passesPerSecond / tpcb.tps;
    record(
      figure,
      `${(ratio * 100).toFixed(0)}% (${baton.passesPerSecond.toFixed(0)} / ${tpcb.tps.toFixed(0)} a second; TPC-B p99 ${tpcb.p99} ms, scale ${tpcb.scale})`,
      '≥ 40%',
      ratio >= 0.4,
    );
    return tpcb;
  } finally {
    await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

/**
 * passBatonAlone: the full run's pass-baton load on its own (BENCH_ONLY=baton): the organisation
 * seeded as benchEngine seeds it, everyone signed in, a warm-up of the same load, then the
 * measured seconds (decision 273).
 */
async function passBatonAlone(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-baton-'));
  const url = engine === 'postgres' ? await createDatabase('baton') : undefined;
  let server: ChildProcess | undefined;
  try {
    log(`${label}: pass-baton, seeding the full organisation`);
    const org = await seedInto(engine, url ?? dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startProcess(
      [path.join(root, 'scripts/start.mjs')],
      serverEnvOf(port, dataDir, url),
      `${label} server (baton)`,
    );
    await waitReady(base, server);
    const rss = sampleRss(server.pid as number);
    const cookies = await loginAll(base, org);
    // The warm-up on rotations of its own: a pass it sent may be answered after it stopped.
    const [warmUpState, state] = batonState(org);
    const at = `${BATON_CONNECTIONS} clients across rotations, ${label}`;
    const warmUp = await batonLoad(
      base,
      warmUpState,
      cookies,
      BATON_WARMUP_SECONDS,
      BATON_CONNECTIONS,
    );
    log(`${label}: pass-baton warm-up: p99 ${warmUp.p99} ms, ${warmUp.passesPerSecond} per s`);
    const cpuBefore = cpuMillis([server.pid as number]);
    const baton = await batonLoad(base, state, cookies, BATON_SECONDS, BATON_CONNECTIONS);
    const cpuPerPass = cpuSpent(cpuBefore, cpuMillis([server.pid as number])) / (baton.passes || 1);
    const rssMb = rss.stop();
    const loadAverage = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    log(
      `${label}: pass-baton per second: ${JSON.stringify(baton.perSecond)}; refused as ${JSON.stringify({ ...warmUp.refusedAs, ...baton.refusedAs })}`,
    );
    // PGlite's targets are issue 36's (one writer, a fair queue); PostgreSQL's the full run's.
    const target = engine === 'pglite' ? { p99: 1000, rate: 150 } : { p99: 15, rate: 1000 };
    record(
      `pass-baton, ${at}: p99 (p50, max)`,
      `${baton.p99} ms (${baton.p50}, ${baton.max} ms; ${baton.refused} refused, ${baton.errors} errors; load ${loadAverage})`,
      `≤ ${target.p99.toLocaleString('en')} ms`,
      baton.p99 <= target.p99 && baton.refused === 0 && baton.errors === 0,
    );
    record(
      `pass-baton, ${at}: throughput`,
      `${baton.passesPerSecond.toFixed(0)} handoffs/s (server CPU ${cpuPerPass.toFixed(1)} ms a pass)`,
      `≥ ${target.rate.toLocaleString('en')} handoffs/s`,
      baton.passesPerSecond >= target.rate,
    );
    const tpcb = engine === 'postgres' ? await recordTpcbRatio(label, baton) : undefined;
    record(
      `server memory under the pass-baton load, ${label}: peak RSS`,
      `${rssMb.toFixed(0)} MB`,
      '≤ 250 MB',
      rssMb <= 250,
    );
    return { warmUp, baton, cpuPerPass, rssMb, tpcb, loadAverage: os.loadavg() };
  } finally {
    if (server) await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

/** a real outage's load: the quiet reads and the outage, this many seconds each */
const OUTAGE_SECONDS = quick ? 15 : 60;

/**
 * outageLoad (issue 36): on an organisation of its own, 200 people's dashboard reads quiet and
 * then under an outage's writes (scripts/bench/outage.ts), with the loopback providers.
 */
async function outageLoad(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'baton-bench-outage-'));
  const url = engine === 'postgres' ? await createDatabase('outage') : undefined;
  const push = await startPushService();
  const twilio = await startFakeTwilio('AC_bench', 'bench-auth-token');
  const smtp = await startSmtpServer();
  let server: ChildProcess | undefined;
  try {
    const figures = await outageFigures(
      {
        label,
        quick,
        seed: (work) => withDatabase(engine, url ?? dataDir, work),
        startServer: async (extraEnv) => {
          const port = await freePort();
          const base = `http://127.0.0.1:${port}`;
          const serverEnv = { ...serverEnvOf(port, dataDir, url), ...extraEnv(base) };
          server = startProcess(
            [path.join(root, 'dist/server/main.js')],
            serverEnv,
            `${label} server (outage)`,
          );
          await waitReady(base, server);
          return { base, pid: server.pid as number };
        },
        stopServer: async () => {
          if (server) await stopProcess(server);
        },
        login,
        loginAll,
        sampleRss,
        setUpPeople: (base, adminCookie, people, rules) =>
          setUpPeople(base, adminCookie, people, push, rules),
        push,
        twilio,
        smtp,
        log,
      },
      OUTAGE_SECONDS,
    );
    for (const row of figures) record(row.figure, row.measured, row.target, row.met);
    return figures;
  } finally {
    if (server) await stopProcess(server);
    await push.close();
    await twilio.close();
    await smtp.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (url) await dropDatabase(url).catch((err) => log(`could not drop ${url}: ${err}`));
  }
}

/** the timer-lateness figure: this many open incidents, their next steps due over this long */
const TIMERS = quick
  ? { incidents: 1_000, spreadMs: 20_000 }
  : { incidents: 10_000, spreadMs: 60_000 };

/** A timer-lateness figure: what it seeds, what it watches, how it is named. */
interface LatenessFigure {
  /** the database's and the log's name */
  name: string;
  /** what is seeded, for the log: "raising 10000 incidents" */
  seeding: string;
  /** seeds and answers each item's due moment by its id, the first of them `startInMs` after the seed */
  seed: (
    db: Database['db'],
    cipher: ReturnType<typeof createCipher>,
    startInMs: number,
  ) => Promise<Map<number, number>>;
  /** how long after the seed the first item falls due: the server starts meanwhile */
  startInMs: number;
  watch: (
    url: string,
    dues: Map<number, number>,
    untilMs: number,
  ) => Promise<{ lateMs: number[]; missing: number }>;
  /** the figure's name, and its target in ms */
  figure: string;
  targetMs: number;
}

/**
 * timerLateness (issue 36, decisions 275 and 278): seeds items whose timers fall due over a spread
 * beginning `startInMs` after the seed ends, starts a server with the production engine interval
 * (15 s), and reads each item's lateness as the moment its commit is seen from a connection beside
 * the server minus its due moment. PostgreSQL only: PGlite's database is the server process's
 * alone, and cannot be read beside it.
 */
async function timerLateness(engine: EngineName, f: LatenessFigure, spreadMs: number) {
  if (engine !== 'postgres') {
    log(`${f.name} lateness: PostgreSQL only (PGlite cannot be read beside its server)`);
    return null;
  }
  const url = await createDatabase(f.name);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `baton-bench-${f.name}-`));
  let server: ChildProcess | undefined;
  try {
    log(`PostgreSQL: ${f.name} lateness, ${f.seeding}`);
    const dues = await withDatabase(engine, url, (db, cipher) => f.seed(db, cipher, f.startInMs));
    const dueFrom = Math.min(...dues.values());
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = startProcess(
      [path.join(root, 'dist/server/main.js')],
      serverEnvOf(port, dataDir, url),
      `PostgreSQL server (${f.name})`,
    );
    await waitReady(base, server);
    if (Date.now() > dueFrom) {
      throw new Error(`${f.name} lateness: the server started after the first timer fell due`);
    }
    log(`PostgreSQL: ${f.name} lateness, ${dues.size} due over ${spreadMs / 1000} s`);
    const watched = await f.watch(url, dues, dueFrom + spreadMs + 30_000);
    const late = [...watched.lateMs].sort((a, b) => a - b);
    const figures = {
      count: dues.size,
      taken: late.length,
      missing: watched.missing,
      p50: percentile(late, 50),
      p99: percentile(late, 99),
      max: late.at(-1) ?? 0,
      early: late.filter((ms) => ms < 0).length,
    };
    record(
      `${f.figure}, PostgreSQL (engine interval 15 s): lateness p50 / p99`,
      `${figures.p50} / ${figures.p99} ms (max ${figures.max} ms; ${figures.taken} taken, ${figures.missing} not, ${figures.early} early)`,
      `(p99 ≤ ${f.targetMs / 1000} s, none early or missing)`,
      figures.p99 <= f.targetMs && figures.missing === 0 && figures.early === 0,
    );
    return figures;
  } finally {
    if (server) await stopProcess(server);
    await dropDatabase(url);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** escalationTimers: TIMERS.incidents open incidents whose second step falls due over the spread. */
const escalationTimers = (engine: EngineName) =>
  timerLateness(
    engine,
    {
      name: 'timers',
      seeding: `raising ${TIMERS.incidents} incidents`,
      seed: (db, cipher, startInMs) =>
        seedOpenIncidents(db, cipher, TIMERS.incidents, TIMERS.spreadMs, startInMs),
      startInMs: 20_000,
      watch: watchSteps,
      figure: `escalation steps due over ${TIMERS.spreadMs / 1000} s with ${TIMERS.incidents} open incidents`,
      targetMs: 2_000,
    },
    TIMERS.spreadMs,
  );

/** the automatic-handoff figure: this many fixed rotations, their transfers due over this long */
const HANDOFFS = quick
  ? { rotations: 200, spreadMs: 20_000 }
  : { rotations: 1_000, spreadMs: 60_000 };

/**
 * handoffTimers (decision 278): HANDOFFS.rotations fixed rotations whose holder never passes the
 * baton, their automatic transfers (an hour after the boundary, the default) falling due over the
 * spread; the server's first tick meanwhile catches up on the boundaries' requests and
 * escalations, as after a restart.
 */
const handoffTimers = (engine: EngineName) =>
  timerLateness(
    engine,
    {
      name: 'handoffs',
      seeding: `writing ${HANDOFFS.rotations} rotations`,
      seed: (db, cipher, startInMs) =>
        seedDueTransfers(db, cipher, HANDOFFS.rotations, HANDOFFS.spreadMs, startInMs),
      startInMs: 30_000,
      watch: watchTransfers,
      figure: `automatic handoffs due over ${HANDOFFS.spreadMs / 1000} s on ${HANDOFFS.rotations} rotations`,
      targetMs: 5_000,
    },
    HANDOFFS.spreadMs,
  );

/** the layered window edges' figure: this many follow-the-sun rotations, all changing at one minute */
const WINDOW_EDGES = quick ? { rotations: 200 } : { rotations: 1_000 };

/**
 * windowEdgeTimers (issue 36): WINDOW_EDGES.rotations layered rotations, follow-the-sun pairs of
 * 12-hour shifts, whose windows all change hands at the same whole minute; each baton must move
 * within 5 s of the edge.
 */
const windowEdgeTimers = (engine: EngineName) =>
  timerLateness(
    engine,
    {
      name: 'edges',
      seeding: `writing ${WINDOW_EDGES.rotations} layered rotations`,
      seed: (db, cipher, startInMs) =>
        seedWindowEdges(db, cipher, WINDOW_EDGES.rotations, startInMs),
      startInMs: 30_000,
      watch: watchWindowEdges,
      figure: `window edges of ${WINDOW_EDGES.rotations} layered rotations (12-hour follow-the-sun pairs) at one minute`,
      targetMs: 5_000,
    },
    0,
  );

async function engineTick(engine: EngineName) {
  const label = engine === 'pglite' ? 'PGlite' : 'PostgreSQL';
  const sizes = [TICK, { rotations: TICK.rotations * 10, due: TICK.due * 10 }];
  const measured: { rotations: number; due: number; ms: number; handoffsWritten: number }[] = [];
  for (const size of sizes) {
    log(`${label}: engine tick over ${size.rotations} rotations, ${size.due} due`);
    const url = engine === 'postgres' ? await createDatabase('tick') : undefined;
    try {
      const r = await timeEngineTick({ engine, url }, env, size.rotations, size.due);
      measured.push({ rotations: size.rotations, ...r });
    } finally {
      if (url) await dropDatabase(url);
    }
  }
  const [small, large] = measured;
  record(
    `one engine tick, ${small.rotations} rotations / ${small.due} due, ${label}`,
    `${(small.ms / 1000).toFixed(2)} s`,
    quick ? '(full run: 10,000 / 1,000 ≤ 2 s)' : '≤ 2 s',
    quick ? null : small.ms <= 2000,
  );
  const ratio = large.ms / small.ms;
  record(
    `one engine tick, 10× (${large.rotations} / ${large.due} due), ${label}`,
    `${(large.ms / 1000).toFixed(2)} s = ${ratio.toFixed(1)}× the time`,
    '≤ 12×',
    ratio <= 12,
  );
  return measured;
}

async function statementCounts() {
  log('SQL statements per list request, at two sizes (PGlite)');
  const sizes = [
    { users: 100, rotations: 20, membersPerRotation: 6, handoffs: 1_000 },
    { users: 1_000, rotations: 200, membersPerRotation: 6, handoffs: 10_000 },
  ];
  const counted = await countStatements({ engine: 'pglite' }, env, sizes);
  for (const url of LIST_PATHS) {
    const [a, b] = counted.map((c) => c.statements[url]);
    const reused = [...new Set(counted.map((c) => c.reused[url]))].join(' / ');
    record(
      `SQL statements per request, GET ${url}`,
      `${a} at ${sizes[0].rotations} rotations, ${b} at ${sizes[1].rotations} (repeated: ${reused})`,
      'constant in the number of rows',
      a === b,
    );
  }
  return counted;
}

function frontEndSize() {
  const { bytes, chunks } = initialJsGzip(path.join(root, 'dist/client'));
  record(
    'front end: initial JS (gzip)',
    `${kB(bytes)} (${chunks.length} files)`,
    `≤ ${kB(INITIAL_JS_BUDGET_BYTES)}`,
    bytes <= INITIAL_JS_BUDGET_BYTES,
  );
  return { bytes, files: chunks.map((c) => c.file) };
}

function printTable() {
  const header = ['figure', 'measured', 'target', 'met?'];
  const body = rows.map((r) => [
    r.figure,
    r.measured,
    r.target,
    r.met === null ? '—' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const out = [
    line(header),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...body.map(line),
  ];
  process.stdout.write(`\n${out.join('\n')}\n`);
}

async function main() {
  const started = performance.now();
  if (only !== undefined && !(PARTS as readonly string[]).includes(only))
    throw new Error(`BENCH_ONLY takes: ${PARTS.join(', ')}`);
  if (!only) results.frontEndSize = frontEndSize();
  const wanted = (process.env.BENCH_ENGINES ?? 'pglite,postgres').split(',');
  const engines: EngineName[] = wanted.includes('pglite') ? ['pglite'] : [];
  if (!wanted.includes('postgres')) log('PostgreSQL skipped (BENCH_ENGINES)');
  else if (await postgresReachable()) {
    engines.push('postgres');
    results.postgresServer = decodeURIComponent(pgServerUrl.host);
    log(`PostgreSQL through ${results.postgresServer}`);
  } else log(`PostgreSQL at ${pgServerUrl.host} is not reachable: its figures are skipped`);
  results.engines = engines;
  if (runs('reads')) {
    for (const engine of engines) {
      results[engine] = await benchEngine(engine, { frontEnd: engine === 'pglite' });
    }
  }
  if (runs('alerts')) {
    results.alertIngestion = {};
    for (const engine of engines) {
      (results.alertIngestion as Record<string, unknown>)[engine] = await alertIngestion(engine);
    }
  }
  if (runs('live')) {
    results.liveStream = {};
    for (const engine of engines) {
      (results.liveStream as Record<string, unknown>)[engine] = await liveStreams(engine);
    }
  }
  if (runs('reach')) {
    results.reachThePerson = {};
    for (const engine of engines) {
      (results.reachThePerson as Record<string, unknown>)[engine] = await reachThePerson(engine);
    }
  }
  if (runs('import')) {
    results.importVerify = {};
    for (const engine of engines) {
      (results.importVerify as Record<string, unknown>)[engine] = await importVerify(engine);
    }
  }
  if (runs('start')) {
    log('production install: npm install --omit=dev in a temporary directory');
    let install: ProductionInstall | undefined;
    try {
      install = productionInstall(root);
      results.footprint = footprint(install);
    } catch (err) {
      log(`the production install failed, its figures are skipped: ${err}`);
    }
    try {
      results.coldStart = {};
      for (const engine of engines) {
        (results.coldStart as Record<string, unknown>)[engine] = await coldStart(engine, install);
      }
    } finally {
      install?.remove();
    }
  }
  if (runs('projection')) {
    results.layeredProjection = {};
    for (const engine of engines) {
      (results.layeredProjection as Record<string, unknown>)[engine] =
        await layeredProjection(engine);
    }
  }
  if (runs('timers')) {
    results.escalationTimers = {};
    for (const engine of engines) {
      (results.escalationTimers as Record<string, unknown>)[engine] =
        await escalationTimers(engine);
    }
  }
  if (runs('handoffs')) {
    results.handoffTimers = {};
    for (const engine of engines) {
      (results.handoffTimers as Record<string, unknown>)[engine] = await handoffTimers(engine);
    }
    results.windowEdgeTimers = {};
    for (const engine of engines) {
      (results.windowEdgeTimers as Record<string, unknown>)[engine] =
        await windowEdgeTimers(engine);
    }
  }
  if (runs('outage')) {
    results.outage = {};
    for (const engine of engines) {
      (results.outage as Record<string, unknown>)[engine] = await outageLoad(engine);
    }
  }
  if (only === 'baton') {
    results.passBaton = {};
    for (const engine of engines) {
      (results.passBaton as Record<string, unknown>)[engine] = await passBatonAlone(engine);
    }
  }
  if (!only) {
    results.statements = await statementCounts();
    results.engineTick = {};
    for (const engine of engines) {
      (results.engineTick as Record<string, unknown>)[engine] = await engineTick(engine);
    }
  }
  results.rows = rows;
  results.seconds = (performance.now() - started) / 1000;
  printTable();
  // Beside the figures, the domain's mutation score from its last report (issue 36, decision 281).
  process.stdout.write(`${mutationScoreLine(root)}\n`);
  const outDir = path.join(root, '.bench');
  mkdirSync(outDir, { recursive: true });
  const outFile = path.join(outDir, 'results.json');
  writeFileSync(outFile, `${JSON.stringify(results, null, 2)}\n`);
  const missed = rows.filter((r) => r.met === false).length;
  process.stdout.write(
    `\n${rows.length} figures, ${missed} missed; ${(results.seconds as number).toFixed(0)} s. Written to ${path.relative(process.cwd(), outFile)}\n`,
  );
}

async function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
  for (const name of [...createdDatabases]) {
    await adminQuery(`drop database if exists ${name} with (force)`).catch(() => {});
  }
}

process.on('SIGINT', () => {
  void cleanUp().finally(() => process.exit(130));
});

try {
  await main();
  await cleanUp();
} catch (err) {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await cleanUp();
  process.exit(1);
}
