import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { createTestDatabase } from '../../../tests/setup/test-database';
import { isDatabaseBusy, isDatabaseUnavailable } from '../http/database-unavailable';
import { insertRotation } from '../seed/factories';
import { selectRows } from './client';

// PostgreSQL only: runs with TEST_DATABASE_URL set. The session time-outs openPostgres starts
// every connection with (decision 168), and the migration that must not be cut short by them.

const failureOf = (work: Promise<unknown>) =>
  work.then(
    () => null,
    (e: unknown) => e,
  );

test('every connection starts with the configured time-outs', async () => {
  const database = await createTestDatabase({
    timeouts: { lockMs: 1_234, statementMs: 5_678, idleInTransactionMs: 9_012 },
  });
  try {
    const [row] = await selectRows<Record<string, string>>(
      database.db,
      sql`select current_setting('lock_timeout') as lock,
                 current_setting('statement_timeout') as statement,
                 current_setting('idle_in_transaction_session_timeout') as idle`,
    );
    expect(row).toEqual({ lock: '1234ms', statement: '5678ms', idle: '9012ms' });
  } finally {
    await database.close();
  }
});

test('a statement running past the statement time-out fails as busy (57014)', async () => {
  const database = await createTestDatabase({ timeouts: { statementMs: 200 } });
  try {
    const started = performance.now();
    const err = await failureOf(database.db.execute(sql`select pg_sleep(3)`));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(isDatabaseBusy(err)).toBe(true);
    await database.ping();
  } finally {
    await database.close();
  }
});

test('a transaction left idle past the time-out is ended by the server, and its row locks go with it', async () => {
  const database = await createTestDatabase({
    timeouts: { lockMs: 5_000, idleInTransactionMs: 300 },
  });
  try {
    const { id } = await insertRotation(database.db, { name: 'Held' });
    const stalled = failureOf(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select id from rotations where id = ${id} for update`);
        // The instance stops here (SIGSTOP, a frozen VM): nothing more reaches the server.
        await sleep(1_500);
        await tx.execute(sql`select 1`);
      }),
    );
    await sleep(100);
    // Another connection wants the row: it gets it once the server ends the idle session,
    // well before its own 5 s lock time-out.
    const started = performance.now();
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select id from rotations where id = ${id} for update`);
    });
    const waited = performance.now() - started;
    expect(waited).toBeLessThan(1_300);
    // The stalled transaction learns it was ended when it goes on: it fails, nothing commits.
    const err = await stalled;
    expect(err).not.toBeNull();
    expect(isDatabaseUnavailable(err) || isDatabaseBusy(err)).toBe(true);
    await database.ping();
  } finally {
    await database.close();
  }
});

test('migrating waits for another instance migrating, past the lock and statement time-outs', async () => {
  const database = await createTestDatabase({
    timeouts: { lockMs: 100, statementMs: 100, idleInTransactionMs: 10_000 },
  });
  try {
    // Another connection (an instance starting at the same time) holds the migration lock for
    // a while, as during a long migration of its own.
    const holding = database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_lock(7411001)`);
      await sleep(800);
      await tx.execute(sql`select pg_advisory_unlock(7411001)`);
    });
    await sleep(100);
    await database.migrate();
    await holding;
    // The time-outs are back for the connection's later users.
    const [row] = await selectRows<{ lock: string }>(
      database.db,
      sql`select current_setting('lock_timeout') as lock`,
    );
    expect(row.lock).toBe('100ms');
  } finally {
    await database.close();
  }
});
