import net from 'node:net';
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

test("a connection cut at a transaction's BEGIN goes back to the pool (the pool does not run dry)", async () => {
  // A loopback proxy that cuts the connection when it sees BEGIN go by, while armed.
  const target = new URL(url);
  let armed = true;
  const sockets = new Set<net.Socket>();
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut).on('close', cut);
    upstream.on('error', cut).on('close', cut);
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('data', (chunk) => {
      if (armed && /begin/i.test(chunk.toString('latin1'))) cut();
      else upstream.write(chunk);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const through = new URL(url);
  through.hostname = '127.0.0.1';
  through.port = String((proxy.address() as net.AddressInfo).port);
  const database = openPostgres(through.toString(), { max: 2 });
  try {
    // Before the fix, each of these left its client checked out for good (drizzle's BEGIN comes
    // before its try/finally), and with both gone the ping below waited out the 5 s time-out.
    for (let i = 0; i < 3; i++) {
      const err = await database.db
        .transaction(async (tx) => tx.execute(sql`select 1`))
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(isDatabaseUnavailable(err)).toBe(true);
    }
    armed = false;
    const started = Date.now();
    await database.ping();
    await database.db.transaction(async (tx) => tx.execute(sql`select 1`));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(database.poolStats?.()).toMatchObject({ waiting: 0 });
  } finally {
    await database.close();
    for (const s of sockets) s.destroy();
    proxy.close();
  }
});
