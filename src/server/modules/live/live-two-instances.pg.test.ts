import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { changeData, openEventStream } from '../../../../tests/setup/event-stream';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { buildApp } from '../../app';
import { type Database, openPostgres } from '../../db/client';
import { insertRotation } from '../../seed/factories';

// PostgreSQL only: two app instances on one database (as two Baton processes behind a load
// balancer), each with its own pool and its own LISTEN connection (decision 220).
let one: TestApp;
let twoDatabase: Database;
let two: FastifyInstance;
let urlOne: string;
let urlTwo: string;

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

beforeAll(async () => {
  one = await createTestApp();
  const base = process.env.TEST_DATABASE_URL as string;
  const url = new URL(base);
  url.pathname = new URL(one.database.location).pathname;
  twoDatabase = openPostgres(url.toString());
  two = await buildApp({ ...one, database: twoDatabase, logger: false });
  urlOne = await listen(one.app);
  urlTwo = await listen(two);
});
afterAll(async () => {
  await two?.close();
  await twoDatabase?.close();
  await one?.close();
});

test('a pass through one instance reaches a stream on the other within 2 seconds', async () => {
  const priya = await one.createUser({ roles: ['on-call'] });
  const noah = await one.createUser({ roles: ['on-call'] });
  const rotation = await insertRotation(one.database.db, {
    memberIds: [priya.id, noah.id],
    holderId: priya.id,
  });
  const onTwo = await openEventStream(urlTwo, '/api/events', { cookie: await one.cookieFor(noah) });
  await onTwo.waitFor((e) => e.event === 'ready');
  const started = Date.now();
  const res = await fetch(`${urlOne}/api/rotations/${rotation.id}/handoff`, {
    method: 'POST',
    headers: {
      cookie: await one.cookieFor(priya),
      origin: urlOne,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ toUserId: noah.id }),
  });
  expect(res.status).toBe(200);
  const seen = await onTwo.waitFor(
    (e) => e.event === 'change' && changeData(e).kind === 'handoff',
    2_000,
  );
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(changeData(seen).rotationId).toBe(rotation.id);
  // The same event id on every instance: the log's.
  const onOne = await openEventStream(urlOne, `/api/events?lastEventId=${Number(seen.id) - 1}`, {
    cookie: await one.cookieFor(noah),
  });
  const replayed = await onOne.waitFor((e) => e.id === seen.id);
  expect(changeData(replayed)).toEqual(changeData(seen));
  onOne.close();
  onTwo.close();
});

test('when the LISTEN connection is lost, it comes back and streams are told to re-read everything', async () => {
  const noah = await one.createUser({ roles: ['on-call'] });
  const stream = await openEventStream(urlTwo, '/api/events', {
    cookie: await one.cookieFor(noah),
  });
  await stream.waitFor((e) => e.event === 'ready');
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    // Both instances listen; end every LISTEN connection of this database.
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = $1 and query ilike 'LISTEN%'`,
      [new URL(one.database.location).pathname.slice(1)],
    );
  } finally {
    await admin.end();
  }
  await stream.waitFor((e) => e.event === 'resync', 5_000);
  // And it listens again: a change made now arrives.
  const rotation = await insertRotation(one.database.db, {});
  await one.database.db.execute(sql`update rotations set name = 'After' where id = ${rotation.id}`);
  await stream.waitFor(
    (e) => e.event === 'change' && changeData(e).entityId === rotation.id,
    5_000,
  );
  stream.close();
});
