import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect, test } from 'vitest';
import { isDatabaseUnavailable } from '../http/database-unavailable';
import { openPostgres, selectRows } from './client';

// PostgreSQL only (node-postgres pools): vitest.config.ts runs *.pg.test.ts files when
// TEST_DATABASE_URL is set, as `npm run test:api:pg` and .ci/run do.
const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

test('a connection lost between two statements of a transaction fails the transaction, not the process', async () => {
  const database = openPostgres(url, { max: 2 });
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const err = await database.db
      .transaction(async (tx) => {
        const [{ pid }] = await selectRows<{ pid: number }>(
          tx,
          sql`select pg_backend_pid() as pid`,
        );
        // The server ends this connection (57P01) while no statement of it runs: node-postgres
        // emits 'error' on the checked-out client, which must not be an unhandled event.
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await sleep(200);
        await tx.execute(sql`select 1`);
      })
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).not.toBeNull();
    expect(isDatabaseUnavailable(err)).toBe(true);
    // The pool dropped the broken client and connects again.
    await database.ping();
  } finally {
    await admin.end();
    await database.close();
  }
});
