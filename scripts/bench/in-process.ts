// The benchmark's in-process figures: one engine tick timed against a seeded database with the
// clock passed in, and SQL statements counted per list request at two sizes.
import { PGlite } from '@electric-sql/pglite';
import { buildApp } from '../../src/server/app';
import { createCipher } from '../../src/server/bootstrap';
import { loadConfig } from '../../src/server/core/config';
import { type Database, openPostgres, wrapPglite } from '../../src/server/db/client';
import { runEngineTick } from '../../src/server/engine-tasks';
import { insertUsers } from '../../src/server/modules/users/user-repository';
import type { Role } from '../../src/shared/domain/roles';
import { countDue, type OrganisationSize, seedEngineRotations, seedOrganisation } from './seed';

export type EngineName = 'pglite' | 'postgres';

export interface Target {
  engine: EngineName;
  /** a URL of a fresh, empty PostgreSQL database (engine postgres) */
  url?: string;
}

export function benchConfig(env: Record<string, string>) {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    COMPANY_DOMAIN: 'example.com',
    LOCAL_LOGIN_PASSWORD: env.LOCAL_LOGIN_PASSWORD,
    ENCRYPTION_KEY: env.ENCRYPTION_KEY,
    DATA_DIR: env.DATA_DIR ?? '.bench/unused',
  });
}

type App = Awaited<ReturnType<typeof buildApp>>;

/** inProcessApp builds the app over `database` with the clock `now`, ready for `inject`. */
export async function inProcessApp(
  database: Database,
  env: { config: ReturnType<typeof benchConfig>; cipher: ReturnType<typeof createCipher> },
  now: () => Date = () => new Date(),
): Promise<App> {
  const app = await buildApp({ ...env, database, clock: { now }, logger: false });
  await app.ready();
  return app;
}

/**
 * signIn signs `email` in with the local password and answers the headers of their requests: the
 * session cookie, and the Origin a state change needs (inject's Host is localhost:80).
 */
export async function signIn(
  app: App,
  email: string,
  password: string,
): Promise<{ origin: string; cookie: string }> {
  const origin = 'http://localhost:80';
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { origin },
    payload: { email, password },
  });
  if (res.statusCode !== 200) throw new Error(`login ${email}: ${res.statusCode} ${res.body}`);
  return { origin, cookie: String(res.headers['set-cookie']).split(';')[0] };
}

export async function openTarget(target: Target, onQuery?: (q: string) => void): Promise<Database> {
  const database =
    target.engine === 'postgres'
      ? openPostgres(target.url as string, { onQuery })
      : wrapPglite(await PGlite.create(), 'pglite:memory', { onQuery });
  await database.migrate();
  return database;
}

/**
 * timeEngineTick seeds `rotations` fixed rotations (`due` of them past their boundary) over 1,000
 * users and times one engine tick at `now` over them. Answers the tick's milliseconds.
 */
export async function timeEngineTick(
  target: Target,
  env: Record<string, string>,
  rotations: number,
  due: number,
): Promise<{ ms: number; due: number; handoffsWritten: number }> {
  const config = benchConfig(env);
  const cipher = createCipher(config);
  const database = await openTarget(target);
  try {
    const now = new Date('2026-06-03T10:00:00Z');
    const users = await insertUsers(
      database.db,
      cipher,
      Array.from({ length: 1000 }, (_, i) => ({
        name: `Engine User ${i}`,
        email: `engine.user.${i}@example.com`,
        roles: ['on-call'] as Role[],
      })),
    );
    await seedEngineRotations(
      database.db,
      users.map((u) => u.id),
      rotations,
      due,
      now,
    );
    const dueNow = await countDue(database.db, now);
    const before = await countHandoffs(database);
    const clock = { now: () => now };
    const started = performance.now();
    await runEngineTick({ config, database, cipher, clock }, now);
    const ms = performance.now() - started;
    const after = await countHandoffs(database);
    return { ms, due: dueNow, handoffsWritten: after - before };
  } finally {
    await database.close();
  }
}

async function countHandoffs(database: Database): Promise<number> {
  const result = (await database.db.execute(
    'select count(*)::int as n from handoffs',
  )) as unknown as {
    rows: { n: number }[];
  };
  return Number(result.rows[0]?.n ?? 0);
}

export const LIST_PATHS = [
  '/api/rotations',
  '/api/user/rotations',
  '/api/handoffs/recent?limit=5',
  '/api/audit-log/handoffs?limit=20&search=Adams',
] as const;

export interface StatementCount {
  size: OrganisationSize;
  /** statements of a request that computes its answer */
  statements: Record<string, number>;
  /** statements of the same request repeated at once (answered from the read cache, if cached) */
  reused: Record<string, number>;
}

/**
 * countStatements seeds an organisation of each size into a fresh database, signs in its
 * administrator and a member, and counts the SQL statements each list request runs.
 */
export async function countStatements(
  target: Target,
  env: Record<string, string>,
  sizes: OrganisationSize[],
): Promise<StatementCount[]> {
  const out: StatementCount[] = [];
  for (const size of sizes) {
    let counting = false;
    let statements = 0;
    const database = await openTarget(target, () => {
      if (counting) statements += 1;
    });
    try {
      const config = benchConfig(env);
      const cipher = createCipher(config);
      const org = await seedOrganisation(database.db, cipher, size, new Date());
      const app = await inProcessApp(database, { config, cipher });
      const cookieOf = async (email: string) =>
        (await signIn(app, email, env.LOCAL_LOGIN_PASSWORD)).cookie;
      const admin = await cookieOf(org.admin.email);
      const member = await cookieOf(org.users[0].email);
      const counts: Record<string, number> = {};
      const reused: Record<string, number> = {};
      const counted = async (url: string, cookie: string) => {
        statements = 0;
        counting = true;
        const res = await app.inject({ method: 'GET', url, headers: { cookie } });
        counting = false;
        if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
        return statements;
      };
      for (const url of LIST_PATHS) {
        const cookie = url.startsWith('/api/user/') ? member : admin;
        // Once to warm up; then a committed transaction changes the database snapshot, so the
        // counted request computes its answer (decision 140); then once more, from the cache.
        await app.inject({ method: 'GET', url, headers: { cookie } });
        await database.db.execute('select pg_current_xact_id()');
        counts[url] = await counted(url, cookie);
        reused[url] = await counted(url, cookie);
      }
      out.push({ size, statements: counts, reused });
      await app.close();
    } finally {
      await database.close();
    }
  }
  return out;
}
