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
 * or, when TEST_DATABASE_URL is set, a PostgreSQL database cloned from the run's template.
 */
export async function createTestDatabase(options: OpenOptions = {}): Promise<Database> {
  const template = inject('postgresTemplate');
  const url = process.env.TEST_DATABASE_URL;
  if (template && url) {
    const name = `${template.replace('baton_tpl_', 'baton_t_')}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      await admin.query(`create database "${name}" template "${template}"`);
    } finally {
      await admin.end();
    }
    const database = openPostgres(withDatabaseName(url, name), { ...options, max: 25 });
    const close = database.close;
    return {
      ...database,
      close: async () => {
        await close();
        const dropper = new pg.Client({ connectionString: url });
        await dropper.connect();
        await dropper
          .query(`drop database if exists "${name}" with (force)`)
          .finally(() => dropper.end());
      },
    };
  }
  return wrapPglite(await leasePglite(), 'pglite:memory', options);
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

async function shapeOf(client: PGlite): Promise<string> {
  return (await client.query<{ shape: string }>(SHAPE)).rows[0].shape;
}

async function readEmptyTemplate(client: PGlite): Promise<EmptyTemplate> {
  const { rows } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'`,
  );
  const tables = rows.map((r) => r.name);
  const kept: EmptyTemplate['rows'] = [];
  for (const table of tables) {
    const { rows: json } = await client.query<{ json: string | null }>(
      `select json_agg(t)::text as json from ${table} t`,
    );
    if (json[0].json) kept.push({ table, json: json[0].json });
  }
  return { tables, rows: kept, shape: await shapeOf(client) };
}

/**
 * emptyToTemplate truncates every table (triggers off: the audit log refuses TRUNCATE),
 * restarts every sequence, puts back the template's own rows and ends whatever the session
 * kept (settings, listens, advisory locks, prepared statements). False when the schema is no
 * longer the template's (a test changed it): that database is not handed out again.
 */
async function emptyToTemplate(client: PGlite, empty: EmptyTemplate): Promise<boolean> {
  await client.exec(
    `set session_replication_role = replica; truncate ${empty.tables.join(', ')} restart identity cascade`,
  );
  for (const { table, json } of empty.rows) {
    await client.query(
      `insert into ${table} select * from json_populate_recordset(null::${table}, $1)`,
      [json],
    );
  }
  const { rows: sequences } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, sequencename) as name from pg_sequences where schemaname = 'public'`,
  );
  for (const { name } of sequences) await client.exec(`alter sequence ${name} restart`);
  await client.exec('discard all');
  return (await shapeOf(client)) === empty.shape;
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
    pool.empty ??= readEmptyTemplate(first);
    await pool.empty;
  }
  const own = client;
  let closed = false;
  const listening = new Set<() => Promise<void>>();
  const open = () => {
    if (closed) throw new Error('PGlite is closed');
  };
  const lease = {
    query: (...args: Parameters<PGlite['query']>) => {
      open();
      return own.query(...args);
    },
    exec: (...args: Parameters<PGlite['exec']>) => {
      open();
      return own.exec(...args);
    },
    transaction: (...args: Parameters<PGlite['transaction']>) => {
      open();
      return own.transaction(...args);
    },
    listen: async (...args: Parameters<PGlite['listen']>) => {
      open();
      const unlisten = await own.listen(...args);
      const stop = async () => {
        listening.delete(stop);
        await unlisten();
      };
      listening.add(stop);
      return stop;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      const empty = await pool.empty;
      const reusable =
        listening.size === 0 &&
        pool.idle.length < POOL_KEEPS &&
        empty !== undefined &&
        (await emptyToTemplate(own, empty).catch(() => false));
      if (reusable && pools.__batonPglitePool === pool) pool.idle.push(own);
      else await own.close();
    },
  };
  return lease as unknown as PGlite;
}
