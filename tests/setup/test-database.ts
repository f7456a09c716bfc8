import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import {
  type Database,
  type OpenOptions,
  openPostgres,
  wrapPglite,
} from '../../src/server/db/client';

function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * createTestDatabase gives a test file its own migrated database: a copy of the PGlite template,
 * or, when TEST_DATABASE_URL is set, a PostgreSQL database cloned from the run's template. Either
 * comes from the worker's pool when an earlier file closed one (`POOL_KEEPS`).
 */
export async function createTestDatabase(options: OpenOptions = {}): Promise<Database> {
  const template = inject('postgresTemplate');
  const url = process.env.TEST_DATABASE_URL;
  if (template && url) return leasePostgres(url, template, options);
  return wrapPglite(await leasePglite(), 'pglite:memory', options);
}

/** a query on one connection: PGlite's or a node-postgres client's */
type Sql = (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * The PostgreSQL databases a test worker keeps between its files: creating one from the template
 * and dropping it cost the server a checkpoint's worth of writes each, seconds on a busy machine;
 * emptying one costs a truncate. A database still connected when its file closes it, or whose
 * reset fails, is dropped as before.
 */
interface PostgresPool {
  template: string;
  idle: string[];
  empty?: Promise<EmptyTemplate>;
}
const postgresPools = globalThis as typeof globalThis & { __batonPostgresPool?: PostgresPool };

async function withClient<T>(url: string, work: (sql: Sql) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work((text, params) => client.query(text, params));
  } finally {
    await client.end();
  }
}

async function leasePostgres(
  url: string,
  template: string,
  options: OpenOptions,
): Promise<Database> {
  if (postgresPools.__batonPostgresPool?.template !== template) {
    postgresPools.__batonPostgresPool = { template, idle: [] };
  }
  const pool = postgresPools.__batonPostgresPool;
  let name = pool.idle.pop();
  if (!name) {
    name = `${template.replace('baton_tpl_', 'baton_t_')}_${randomBytes(4).toString('hex')}`;
    await withClient(url, (sql) => sql(`create database "${name}" template "${template}"`));
    const fresh = withDatabaseName(url, name);
    pool.empty ??= withClient(fresh, readEmptyTemplate);
    await pool.empty;
  }
  const own = name;
  const database = openPostgres(withDatabaseName(url, own), { ...options, max: 25 });
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      const empty = await pool.empty;
      const reusable =
        pool.idle.length < POOL_KEEPS &&
        empty !== undefined &&
        (await withClient(withDatabaseName(url, own), async (sql) => {
          await sql(`set lock_timeout = '5s'`);
          const { rows } = await sql(
            'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
          );
          return rows[0].n === 0 && (await emptyToTemplate(sql, empty));
        }).catch(() => false));
      if (reusable && postgresPools.__batonPostgresPool === pool) {
        pool.idle.push(own);
        return;
      }
      await withClient(url, (sql) => sql(`drop database if exists "${own}" with (force)`));
    },
  };
}

/**
 * The PGlite databases a test worker keeps between its files (decision 245). Starting PGlite
 * from the template dump costs about a second of CPU, emptying one back to the template about a
 * tenth: a closed test database goes back to its worker's pool emptied, and the next file gets
 * it. Files share their worker's modules (isolate: false), so the pool lives as long as the
 * worker.
 */
interface PglitePool {
  template: string;
  idle: PGlite[];
  /** what emptying puts back: the template's tables, sequences and rows, and its schema's shape */
  empty?: Promise<EmptyTemplate>;
}
interface EmptyTemplate {
  tables: string[];
  rows: { table: string; json: string }[];
  shape: string;
}
const POOL_KEEPS = 2;
const pools = globalThis as typeof globalThis & { __batonPglitePool?: PglitePool };

/** the schema's shape: its relations, columns, constraints, triggers, functions and migrations */
const SHAPE = `select md5(string_agg(x, ',' order by x)) as shape from (
  select 'c:' || c.relname || ':' || c.relkind::text from pg_class c
    join pg_namespace n on n.oid = c.relnamespace where n.nspname in ('public', 'drizzle')
  union all select 'a:' || a.attrelid::regclass || ':' || a.attname || ':' || a.atttypid || ':' || a.attnotnull
    from pg_attribute a join pg_class c on c.oid = a.attrelid
    where c.relnamespace = 'public'::regnamespace and a.attnum > 0 and not a.attisdropped
  union all select 'k:' || conrelid::regclass || ':' || conname || ':' || convalidated from pg_constraint
    where connamespace = 'public'::regnamespace
  union all select 't:' || tgrelid::regclass || ':' || tgname || ':' || tgenabled::text from pg_trigger where not tgisinternal
  union all select 'p:' || proname || ':' || md5(prosrc) from pg_proc where pronamespace = 'public'::regnamespace
  union all select 'm:' || count(*) from drizzle.__drizzle_migrations
) s(x)`;

async function shapeOf(sql: Sql): Promise<string> {
  return String((await sql(SHAPE)).rows[0].shape);
}

async function readEmptyTemplate(sql: Sql): Promise<EmptyTemplate> {
  const { rows } = await sql(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
  );
  const tables = rows.map((r) => String(r.name));
  const kept: EmptyTemplate['rows'] = [];
  for (const table of tables) {
    const { rows: json } = await sql(`select json_agg(t)::text as json from ${table} t`);
    if (json[0].json) kept.push({ table, json: String(json[0].json) });
  }
  return { tables, rows: kept, shape: await shapeOf(sql) };
}

/**
 * emptyToTemplate truncates every table (triggers off: the audit log refuses TRUNCATE),
 * restarts every sequence, puts back the template's own rows and ends whatever the session
 * kept (settings, listens, advisory locks, prepared statements). False when the schema is no
 * longer the template's (a test changed it): that database is not handed out again.
 */
async function emptyToTemplate(sql: Sql, empty: EmptyTemplate): Promise<boolean> {
  await sql('set session_replication_role = replica');
  await sql(`truncate ${empty.tables.join(', ')} restart identity cascade`);
  for (const { table, json } of empty.rows) {
    await sql(`insert into ${table} select * from json_populate_recordset(null::${table}, $1)`, [
      json,
    ]);
  }
  const { rows: sequences } = await sql(
    `select format('%I.%I', schemaname, sequencename) as name from pg_sequences where schemaname = 'public'`,
  );
  for (const { name } of sequences) await sql(`alter sequence ${String(name)} restart`);
  await sql('discard all');
  return (await shapeOf(sql)) === empty.shape;
}

/**
 * leasePglite answers a PGlite database as the template left it, from the worker's pool or
 * started from the dump. Its close hands it back: queries through the lease fail from then on,
 * as they would on a closed PGlite, and a lease closed while still listening is not reused.
 */
async function leasePglite(): Promise<PGlite> {
  const template = inject('pgliteTemplate');
  if (pools.__batonPglitePool?.template !== template) {
    pools.__batonPglitePool = { template, idle: [] };
  }
  const pool = pools.__batonPglitePool;
  let client = pool.idle.pop();
  if (!client) {
    client = await PGlite.create({ loadDataDir: new Blob([await readFile(template)]) });
    const first = client;
    pool.empty ??= readEmptyTemplate((text, params) => first.query(text, params));
    await pool.empty;
  }
  const own = client;
  let closed = false;
  const listening = new Set<() => Promise<void>>();
  const open = () => {
    if (closed) throw new Error('PGlite is closed');
  };
  const listen = async (...args: Parameters<PGlite['listen']>) => {
    open();
    const unlisten = await own.listen(...args);
    const stop = async () => {
      listening.delete(stop);
      await unlisten();
    };
    listening.add(stop);
    return stop;
  };
  const close = async () => {
    if (closed) return;
    closed = true;
    const empty = await pool.empty;
    const reusable =
      listening.size === 0 &&
      pool.idle.length < POOL_KEEPS &&
      empty !== undefined &&
      (await emptyToTemplate((text, params) => own.query(text, params), empty).catch(() => false));
    if (reusable && pools.__batonPglitePool === pool) pool.idle.push(own);
    else await own.close();
  };
  // The PGlite itself but for these two, and every other method refused once closed (the way
  // Baton runs statements uses more of PGlite than query and transaction: pglite-query.ts).
  const lease = new Proxy(own, {
    get(target, key) {
      if (key === 'listen') return listen;
      if (key === 'close') return close;
      const value = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        open();
        return value.apply(target, args);
      };
    },
  });
  return lease as unknown as PGlite;
}
