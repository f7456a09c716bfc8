import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openEventStream } from '../../../../tests/setup/event-stream';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { CreatedApiToken } from '../../../shared/contracts/api-tokens';
import { buildApp } from '../../app';
import { type Database, openPostgres } from '../../db/client';
import { insertRotation } from '../../seed/factories';

// PostgreSQL only: two app instances on one database, as two Baton processes behind a load
// balancer (decision 223): a token revoked through one is refused by the other at once, and a
// live stream it opened there ends.
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
  const url = new URL(process.env.TEST_DATABASE_URL as string);
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

test('a token revoked on one instance gets 401 from the other within a second', async () => {
  const priya = await one.createUser({ roles: ['on-call'] });
  const cookie = await one.cookieFor(priya);
  await insertRotation(one.database.db, { memberIds: [priya.id], holderId: priya.id });
  const made = await fetch(`${urlOne}/api/user/tokens`, {
    method: 'POST',
    headers: { cookie, origin: urlOne, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Two instances', scope: 'read' }),
  });
  expect(made.status).toBe(201);
  const { id, token } = (await made.json()) as CreatedApiToken;
  const onTwo = () =>
    fetch(`${urlTwo}/api/rotations`, { headers: { authorization: `Bearer ${token}` } });
  // Used on the second instance first, so anything it might keep of the token is there.
  expect((await onTwo()).status).toBe(200);
  expect((await onTwo()).status).toBe(200);

  const revoked = await fetch(`${urlOne}/api/user/tokens/${id}`, {
    method: 'DELETE',
    headers: { cookie, origin: urlOne },
  });
  expect(revoked.status).toBe(204);
  const started = Date.now();
  let status = 0;
  while (Date.now() - started < 1_000) {
    status = (await onTwo()).status;
    if (status === 401) break;
  }
  expect(status).toBe(401);
  expect(Date.now() - started).toBeLessThan(1_000);
});

test('a live stream opened with a token on one instance ends when it is revoked on the other', async () => {
  const noah = await one.createUser({ roles: ['on-call'] });
  const cookie = await one.cookieFor(noah);
  const made = await fetch(`${urlOne}/api/user/tokens`, {
    method: 'POST',
    headers: { cookie, origin: urlOne, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Watcher', scope: 'read' }),
  });
  const { id, token } = (await made.json()) as CreatedApiToken;
  const stream = await openEventStream(urlTwo, '/api/events', {
    authorization: `Bearer ${token}`,
  });
  expect(stream.status).toBe(200);
  await stream.waitFor((e) => e.event === 'ready');
  const revoked = await fetch(`${urlOne}/api/user/tokens/${id}`, {
    method: 'DELETE',
    headers: { cookie, origin: urlOne },
  });
  expect(revoked.status).toBe(204);
  const ended = await Promise.race([
    stream.ended.then(() => 'ended'),
    new Promise((resolve) => setTimeout(() => resolve('still open'), 3_000)),
  ]);
  expect(ended).toBe('ended');
  stream.close();
});
