import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import {
  acquireDataDirLock,
  type DataDirLock,
  LockHeldError,
  type LockOptions,
} from './data-dir-lock';
import { fusedQuery } from './pglite-query';
import { createTurns, type RequestKind, type Turns } from './pglite-turns';
import * as schema from './schema';

/** PostgreSQL's lock_timeout, statement_timeout and idle_in_transaction_session_timeout. */
export interface DbTimeouts {
  lockMs: number;
  statementMs: number;
  idleInTransactionMs: number;
}

/** Db is the Drizzle handle both engines share: every query is written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** Tx is a transaction handle; services take it so a state change happens in one transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Engine = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  engine: Engine;
  /** where the data lives, without credentials (for diagnostics) */
  location: string;
  ping(): Promise<void>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * changeCount returns how many statements and transactions that may have changed data this
   * process has completed. Present only where this process is the database's one writer (PGlite,
   * whose data directory it locks): an unchanged count then means unchanged data (decision 141).
   */
  changeCount?: () => number;
  /**
   * listen subscribes to a NOTIFY channel (the live stream's change feed, decision 220) and
   * resolves once subscribed. PGlite delivers in process; PostgreSQL through one dedicated
   * connection, which reconnects after a loss and then calls `onReconnect` (what was sent while
   * it was down is lost). The answer unsubscribes.
   */
  listen(channel: string, handlers: ListenHandlers): Promise<() => Promise<void>>;
  /**
   * poolStats: PostgreSQL only, the connection pool now (node-postgres' counts), for the
   * metrics (decision 225). PGlite has one connection in process and no pool.
   */
  poolStats?: () => PoolStats;
  /**
   * inArrivalOrder: PGlite only, runs a request (`next`) so that its database work goes before
   * that of requests arriving later, and a read's after waiting changes', four at most
   * (decisions 273, 291 and 293; `pglite-turns.ts`).
   */
  inArrivalOrder?: <T>(next: () => T, kind: RequestKind) => T;
}

/** A connection pool's use: connections open, idle among them, callers waiting, the most allowed. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface ListenHandlers {
  onNotify(payload: string): void;
  /** PostgreSQL: the connection came back after a loss; notifications in between are lost */
  onReconnect?(): void;
  /** PostgreSQL: the connection was lost (it is being re-established) */
  onLost?(err: unknown): void;
}

export interface OpenOptions {
  /** called for every SQL statement; tests count queries with it */
  onQuery?: (query: string) => void;
  /**
   * PostgreSQL only: the session time-outs every connection starts with (decision 168); a 0 or
   * a missing value sends none, so the server's own setting applies. PGlite has one connection
   * and nobody to wait for.
   */
  timeouts?: Partial<DbTimeouts>;
  /**
   * PGlite: called when another process took or removed the data directory's lock while this one
   * held it; the default writes why and ends the process, since two writers corrupt the data.
   */
  onLockLost?: (err: Error) => void;
}

export class DataDirLockedError extends Error {
  constructor(dir: string) {
    super(
      `Another Baton process is already using the data directory ${dir}. Stop that process, or set DATA_DIR to a different directory.`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** migrationsFolder finds the committed SQL migrations whether running from src/ or dist/. */
export function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'drizzle');
    if (existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('Cannot find the drizzle/ migrations folder');
}

function logger(options: OpenOptions) {
  const onQuery = options.onQuery;
  return onQuery ? { logQuery: (query: string) => onQuery(query) } : undefined;
}

/**
 * PGlite's defaults with a 16 MB buffer cache instead of 128 MB (decision 142). PGlite is
 * PostgreSQL in this process's WebAssembly memory, and it touches its whole buffer cache at start:
 * 128 MB cost about 115 MB more resident memory than 16 MB before the first query. Against the
 * bench's organisation, 16 MB measured no slower reads or searches; the operating system's file
 * cache holds the rest of the data.
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

/**
 * lockDataDir takes the data directory's lock (its `baton.lock`) for this process; throws
 * DataDirLockedError when another live process holds it. The embedded database admits one process.
 */
export async function lockDataDir(dataDir: string, options?: LockOptions): Promise<DataDirLock> {
  try {
    return await acquireDataDirLock(path.join(dataDir, 'baton.lock'), options);
  } catch (err) {
    if (err instanceof LockHeldError) throw new DataDirLockedError(dataDir);
    throw err;
  }
}

/** openPglite opens (creating when needed) the embedded database in dataDir, locking the directory. */
export async function openPglite(dataDir: string, options: OpenOptions = {}): Promise<Database> {
  const pgDir = path.join(dataDir, 'pgdata');
  await ownerOnlyDirectory(pgDir);
  const lock = await lockDataDir(dataDir, {
    onCompromised: options.onLockLost ?? exitOnLockLost,
  });
  try {
    const client = await PGlite.create(pgDir, { startParams: PGLITE_START_PARAMS });
    closeToOthers(pgDir);
    return wrapPglite(client, `pglite:${pgDir}`, options, lock.release);
  } catch (err) {
    await lock.release();
    throw err;
  }
}

function exitOnLockLost(err: Error): void {
  process.stderr.write(`${err.message} Baton stops so that two processes never write the data.\n`);
  process.exit(1);
}

/**
 * ownerOnlyDirectory creates the data directory 0700 when it does not exist, makes PGlite's
 * directory 0700, and has what this process creates from now on made for its owner only
 * (umask 077): they hold everything Baton stores. An existing DATA_DIR keeps its mode (it may be
 * a directory Baton does not own alone, such as /srv); what Baton puts in it is closed. The
 * umask is the process's, so it is set here, before PGlite opens, for every way Baton opens a
 * directory (the server, the scripts, the tests). Worker threads cannot set it.
 */
export async function ownerOnlyDirectory(pgDir: string): Promise<void> {
  if (isMainThread) process.umask(0o077);
  await mkdir(pgDir, { recursive: true, mode: 0o700 });
  // mkdir leaves an existing directory's mode alone: an older Baton created it 0755.
  await chmod(pgDir, 0o700);
}

/**
 * closeToOthers takes group and other permissions off everything under dir. PGlite writes a new
 * database from its initdb archive with the archive's modes (files 0666, whatever the umask), and
 * an older Baton left files 0644; PostgreSQL creates its later files under the umask. About 1,000
 * files on a new database: some 30 ms, once per start.
 */
export function closeToOthers(dir: string): void {
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    const stat = lstatSync(file, { throwIfNoEntry: false });
    if (!stat || stat.isSymbolicLink() || (stat.mode & 0o077) === 0) continue;
    chmodSync(file, stat.isDirectory() ? 0o700 : stat.mode & 0o700);
  }
}

// A statement that starts with SELECT and calls nothing that writes or locks. Anything else may
// change data: it is counted, and a false alarm only costs a cache miss (decision 141).
const PLAIN_SELECT = /^\s*select\b/i;
const MAY_WRITE =
  /\b(nextval|setval|pg_current_xact_id|txid_current|pg_notify|set_config|lo_\w+)\s*\(|\bfor\s+(no\s+key\s+update|update|key\s+share|share)\b|\binto\b/i;

/** mayChangeData tells whether a SQL statement could change data (anything but a plain SELECT). */
export function mayChangeData(query: string): boolean {
  return !PLAIN_SELECT.test(query) || MAY_WRITE.test(query);
}

/**
 * watchChanges returns the PGlite client as Drizzle uses it (`query`, `transaction`) with a count
 * of what may have changed data: every transaction and every statement but a plain SELECT,
 * counted once it has completed, so a reader that sees the old count began before the change
 * was acknowledged to anyone. Each statement and each transaction waits for its turn (decisions
 * 273 and 291), and goes into PostgreSQL in one call (decision 292, `pglite-query.ts`).
 */
function watchChanges(client: PGlite, turns: Turns) {
  let changes = 0;
  const fused = fusedQuery(client);
  const watched = {
    query: (query: string, params?: unknown[], options?: QueryOptions) =>
      turns.take(async () => {
        try {
          return await fused.query(query, params, options);
        } finally {
          if (mayChangeData(query)) changes += 1;
        }
      }),
    transaction: <T>(work: (tx: Transaction) => Promise<T>) =>
      turns.take(async () => {
        try {
          return await client.transaction((tx) => work(fused.inTransaction(tx)));
        } finally {
          changes += 1;
        }
      }),
  };
  return { watched: watched as unknown as PGlite, changeCount: () => changes };
}

/** wrapPglite turns an open PGlite instance (tests load one from a template dump) into a Database. */
export function wrapPglite(
  client: PGlite,
  location: string,
  options: OpenOptions = {},
  release?: () => Promise<void>,
): Database {
  const turns = createTurns();
  const { watched, changeCount } = watchChanges(client, turns);
  const db = drizzlePglite({
    client: watched,
    schema,
    logger: logger(options),
  }) as unknown as Db;
  return {
    db,
    engine: 'pglite',
    location,
    changeCount,
    inArrivalOrder: turns.inArrivalOrder,
    ping: async () => {
      await client.query('select 1');
    },
    listen: async (channel, handlers) => {
      const unsubscribe = await client.listen(channel, (payload) => handlers.onNotify(payload));
      return unsubscribe;
    },
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder: migrationsFolder() });
    },
    close: async () => {
      await client.close();
      await release?.();
    },
  };
}

/** openPostgres connects a node-postgres pool to a PostgreSQL server. */
export function openPostgres(url: string, options: OpenOptions & { max?: number } = {}): Database {
  const timeouts = options.timeouts ?? {};
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    // Sent in each connection's start-up packet (node-postgres leaves out a 0). A statement
    // waiting longer for a lock fails with 55P03 and one running longer with 57014 (both
    // answered 503 with Retry-After); the server ends a session idle inside a transaction for
    // longer (25P03), which releases the row locks of an instance that was paused or cut off
    // while holding them, so the others take its work over (decision 168).
    lock_timeout: timeouts.lockMs || undefined,
    statement_timeout: timeouts.statementMs || undefined,
    idle_in_transaction_session_timeout: timeouts.idleInTransactionMs || undefined,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // Nor may a checked-out one (the pool listens only while a client is idle): when the server
  // stops between two statements of a transaction, node-postgres emits 'error' on the client,
  // and an 'error' event without a listener ends the process. The transaction's next statement
  // fails instead (answered 503), and the pool drops the broken client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
    releaseOnFailedBegin(client);
  });
  const db = drizzleNodePg(pool, { schema, logger: logger(options) }) as unknown as Db;
  return {
    db,
    engine: 'postgres',
    location: describePostgresUrl(url),
    poolStats: () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }),
    ping: async () => {
      await pool.query('select 1');
    },
    listen: (channel, handlers) => listenPostgres(url, channel, handlers),
    migrate: async () => {
      // Several instances may start at once: one migrates while the others wait on the lock.
      // Neither that wait nor a long migration is cut short by the time-outs (decision 168).
      const client = await pool.connect();
      try {
        await client.query('set lock_timeout = 0; set statement_timeout = 0');
        await client.query('select pg_advisory_lock(7411001)');
        await migrateNodePg(drizzleNodePg(client, { schema }), {
          migrationsFolder: migrationsFolder(),
        });
      } finally {
        await client.query('select pg_advisory_unlock(7411001)').catch(() => {});
        await client.query('reset lock_timeout; reset statement_timeout').catch(() => {});
        client.release();
      }
    },
    close: async () => {
      await pool.end();
    },
  };
}

const BEGIN = /^\s*begin\b/i;

/**
 * releaseOnFailedBegin makes a pooled client go back to the pool, with its error (which removes
 * it), when its BEGIN fails. Drizzle's transaction on a pool (drizzle-orm 0.45) checks a client
 * out and sends BEGIN before its try/finally, so a connection cut at that moment was never
 * released: after `max` of them the pool had no client left and every request waited out the
 * connection time-out, for good (tests/faults/alert-ingestion.test.ts, a proxy failing 30% of
 * the database's messages). A release after this one, until the next checkout, does nothing.
 */
function releaseOnFailedBegin(client: pg.PoolClient): void {
  const query = client.query as (...args: unknown[]) => unknown;
  client.query = function (this: pg.PoolClient, ...args: unknown[]) {
    const result = query.apply(this, args);
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: unknown })?.text;
    if (!(result instanceof Promise) || typeof text !== 'string' || !BEGIN.test(text)) {
      return result;
    }
    return result.catch((err: Error) => {
      const release = client.release;
      client.release = () => {};
      release(err);
      throw err;
    });
  } as typeof client.query;
}

/** how long a lost LISTEN connection waits before each new attempt: 0.5 s doubling to 10 s */
const LISTEN_RETRY_MS = { first: 500, max: 10_000 };

/**
 * listenPostgres holds one connection of its own (a pooled one would be handed back and lose
 * its LISTEN) that LISTENs on the channel. When it is lost it tries again, 0.5 s doubling to
 * 10 s, and after it is back calls `onReconnect`: what was notified in between is lost, so the
 * listener must assume anything changed. It resolves after the first LISTEN, or rejects.
 */
async function listenPostgres(
  url: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<() => Promise<void>> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Not a channel name: ${channel}`);
  let stopped = false;
  let current: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delay = LISTEN_RETRY_MS.first;

  const connect = async (): Promise<void> => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    client.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) handlers.onNotify(msg.payload);
    });
    let lost = false;
    const onLoss = (err?: unknown) => {
      if (lost) return;
      lost = true;
      if (current === client) current = null;
      client.end().catch(() => {});
      if (stopped) return;
      handlers.onLost?.(err);
      scheduleRetry();
    };
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (err) {
      lost = true;
      await client.end().catch(() => {});
      throw err;
    }
    client.on('error', onLoss);
    client.on('end', () => onLoss());
    current = client;
    delay = LISTEN_RETRY_MS.first;
  };

  const scheduleRetry = () => {
    retry = setTimeout(async () => {
      retry = null;
      if (stopped) return;
      try {
        await connect();
        if (stopped) {
          await current?.end().catch(() => {});
          return;
        }
        handlers.onReconnect?.();
      } catch (err) {
        handlers.onLost?.(err);
        delay = Math.min(delay * 2, LISTEN_RETRY_MS.max);
        scheduleRetry();
      }
    }, delay);
    retry.unref();
  };

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const client = current;
    current = null;
    await client?.end().catch(() => {});
  };
}

/** describePostgresUrl returns host, port and database of a URL, never its credentials. */
function describePostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    return `postgres://${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'postgres://(unparsable url)';
  }
}

/** openDatabase opens PostgreSQL when a URL is given, else PGlite in dataDir. */
export async function openDatabase(
  settings: { databaseUrl?: string; dataDir: string; dbTimeouts?: DbTimeouts },
  options: OpenOptions = {},
): Promise<Database> {
  return settings.databaseUrl
    ? openPostgres(settings.databaseUrl, { timeouts: settings.dbTimeouts, ...options })
    : openPglite(settings.dataDir, options);
}

/** selectRows runs raw SQL and returns its rows; both engines answer `{ rows }`. */
export async function selectRows<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** countRows is a small helper for health and seed checks. */
export async function countRows(db: Db, table: 'users' | 'rotations'): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql.raw(`select count(*)::int as n from ${table}`),
  );
  return Number(rows[0]?.n ?? 0);
}
