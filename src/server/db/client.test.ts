import { chmod, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, mayChangeData, openPglite, selectRows, wrapPglite } from './client';

describe('mayChangeData', () => {
  test.each([
    ['select "id", "name" from "rotations" where "rotations"."id" = $1', false],
    ['  SELECT 1', false],
    ['select "updated_at", "inserted" from "x"', false],
    ['select pg_current_snapshot()::text', false],
    ['insert into "handoffs" ("id") values ($1)', true],
    ['update "sessions" set "last_seen_at" = $1', true],
    ['delete from "sessions" where "token_hash" = $1', true],
    [
      'with moved as (update "rotations" set "holder_user_id" = $1 returning *) select * from moved',
      true,
    ],
    ['begin', true],
    ['truncate "handoffs"', true],
    ["select nextval('notifications_id_seq') from generate_series(1, 3)", true],
    ['select pg_current_xact_id()', true],
    ['select * from "rotations" where "id" = $1 for update', true],
    ['select * from "rotations" for no key update skip locked', true],
    ['select * from "pages" for share', true],
    ['select * into "copy" from "rotations"', true],
    ["select set_config('x', 'y', false)", true],
    ["select pg_notify('channel', 'x')", true],
  ])('%s → %s', (query, expected) => {
    expect(mayChangeData(query)).toBe(expected);
  });
});

describe('the change count of a PGlite database', () => {
  let database: Database;
  const count = () => (database.changeCount as () => number)();
  beforeAll(async () => {
    database = wrapPglite(await PGlite.create(), 'pglite:memory');
    await database.db.execute(sql`create table things (id serial primary key, name text)`);
  });
  afterAll(() => database.close());

  test('counts each statement that may change data and each transaction, once it completed', async () => {
    const start = count();
    await database.db.execute(sql`select * from things`);
    expect(count()).toBe(start);
    await database.db.execute(sql`insert into things (name) values ('a')`);
    expect(count()).toBe(start + 1);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into things (name) values ('b')`);
      await tx.execute(sql`insert into things (name) values ('c')`);
      // Inside the transaction nothing is counted yet: it counts when it ends.
      expect(count()).toBe(start + 1);
    });
    expect(count()).toBe(start + 2);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into things (name) values ('d')`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(count()).toBe(start + 3);
    await expect(database.db.execute(sql`insert into nowhere values (1)`)).rejects.toThrow();
    expect(count()).toBe(start + 4);
  });
});

test('openPglite opens the data directory with a 16 MB buffer cache', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'baton-pglite-'));
  try {
    const database = await openPglite(dir);
    try {
      const [row] = await selectRows<{ shared_buffers: string }>(
        database.db,
        sql`show shared_buffers`,
      );
      expect(row.shared_buffers).toBe('16MB');
    } finally {
      await database.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

/** groupOrOtherAccessible lists what under `dir` (itself included) a group or other user can use. */
async function groupOrOtherAccessible(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  const modes = await Promise.all(
    ['.', ...entries].map(async (e) => [e, (await stat(path.join(dir, e))).mode & 0o777] as const),
  );
  return modes
    .filter(([, mode]) => (mode & 0o077) !== 0)
    .map(([e, mode]) => `${e} ${mode.toString(8)}`);
}

test('openPglite keeps what it puts in the data directory to its owner: directories 0700, files 0600', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'baton-pglite-'));
  const umask = process.umask(0o022);
  try {
    // An older Baton made PGlite's directory 0755 (and its files 0644 or 0666); opening closes it.
    await mkdir(path.join(dir, 'pgdata'), { mode: 0o755 });
    await chmod(path.join(dir, 'pgdata'), 0o755);
    const database = await openPglite(dir);
    try {
      await database.db.execute(sql`create table things (id serial primary key)`);
      await database.db.execute(sql`insert into things default values`);
      expect(await groupOrOtherAccessible(dir)).toEqual([]);
      expect((await stat(path.join(dir, 'pgdata', 'PG_VERSION'))).mode & 0o777).toBe(0o600);
    } finally {
      await database.close();
    }
  } finally {
    process.umask(umask);
    await rm(dir, { recursive: true, force: true });
  }
});
