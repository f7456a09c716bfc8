import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  cookieFrom,
  TEST_KEY,
  TEST_PASSWORD,
  testConfig,
  withOwnOrigin,
} from '../../tests/setup/test-app';
import { createTestDatabase } from '../../tests/setup/test-database';
import { buildApp } from './app';
import { ManualClock } from './core/clock';
import { FieldCipher, parseMasterKey } from './crypto/field-crypto';
import type { Database } from './db/client';
import { insertUser } from './seed/factories';

/**
 * Logs are JSON lines with a request id, and carry no personal data, tokens or cookies: what a
 * request sends (an email and password, a session cookie, a token in the URL) and what it gets
 * back (a name, a phone number) stays out of them.
 */

let database: Database;
let app: FastifyInstance;
const lines: string[] = [];
const cipher = new FieldCipher(parseMasterKey(TEST_KEY));

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildApp({
    // trace: the most the app ever writes
    config: testConfig({ LOG_LEVEL: 'trace' }),
    database,
    cipher,
    clock: new ManualClock('2026-11-02T12:00:00Z'),
    logStream: { write: (line: string) => void lines.push(line) },
  });
  await app.ready();
  withOwnOrigin(app);
});
afterAll(async () => {
  await app.close();
  await database.close();
});

test('every log line is JSON with a request id and without personal data or secrets', async () => {
  await insertUser(database.db, cipher, {
    name: 'Priya Logwatch',
    email: 'priya.logwatch@example.com',
    phone: '+15557654321',
    roles: ['admin'],
  });

  // A local sign-in: email and password in the body, the session token in Set-Cookie.
  const login = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'Priya.Logwatch@example.com', password: TEST_PASSWORD },
  });
  expect(login.statusCode, login.body).toBe(200);
  const cookie = cookieFrom(login.headers['set-cookie']);
  const sessionToken = cookie.split('=')[1];
  expect(sessionToken.length).toBeGreaterThan(20);

  // Requests with the session cookie, one of them sending an invitee's name and email.
  const me = await app.inject({ url: '/api/auth/user', headers: { cookie } });
  expect(me.json().user).toMatchObject({ name: 'Priya Logwatch', phone: '+15557654321' });
  const invited = await app.inject({
    method: 'POST',
    url: '/api/invitations',
    payload: { name: 'Quentin Invitee', email: 'quentin.invitee@example.com', role: 'manager' },
    headers: { cookie },
  });
  expect(invited.statusCode, invited.body).toBe(201);
  const invitationToken = String(invited.json().inviteUrl).split('/invite/')[1];
  expect(invitationToken.length).toBeGreaterThan(20);

  // The invitation token in the URL, and a refused sign-in naming an unknown address.
  const valid = await app.inject({ url: `/api/invitations/${invitationToken}/validate?src=mail` });
  expect(valid.statusCode).toBe(200);
  const refused = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email: 'stranger.danger@example.com', password: TEST_PASSWORD },
  });
  expect(refused.statusCode).toBe(401);

  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  // Something was logged for every request, under its request id.
  expect(entries.length).toBeGreaterThanOrEqual(10);
  for (const entry of entries)
    expect(entry.reqId, JSON.stringify(entry)).toEqual(expect.any(String));
  const requestIds = new Set(entries.map((e) => e.reqId));
  expect(requestIds.size).toBe(5);
  const urls = entries.flatMap((e) => {
    const req = e.req as { url?: string } | undefined;
    return req?.url ? [req.url] : [];
  });
  expect(urls).toContain('/api/invitations/:token/validate');
  expect(entries.map((e) => e.msg)).toContain('signed in with local password');

  const all = lines.join('\n').toLowerCase();
  for (const secret of [
    'priya',
    'logwatch',
    '7654321',
    'quentin',
    'invitee',
    'stranger.danger',
    TEST_PASSWORD,
    sessionToken,
    invitationToken,
    'src=mail',
  ]) {
    expect(all, `the logs contain ${secret}`).not.toContain(secret.toLowerCase());
  }
});
