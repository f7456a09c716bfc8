import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, TEST_ORIGIN, type TestApp } from '../../../tests/setup/test-app';
import { countRows } from '../db/client';
import { CROSS_SITE_REFUSED, ORIGIN_REQUIRED, SIGNATURE_REQUIRED } from './cross-site';

/**
 * Cross-site writes (decision 160): a state change (POST, PUT, PATCH, DELETE) passes with Baton's
 * own Origin, or without an Origin when the browser says `Sec-Fetch-Site: same-origin`; anything
 * else is refused with 403 in the app's error shape, before anything is written. These tests use
 * the app's raw inject, which adds no Origin of its own.
 */

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.createUser({ email: 'ada.origin@example.com', roles: ['admin'] });
  cookie = await t.cookieFor(admin);
});
afterAll(async () => {
  await t.close();
});

const rotations = () => countRows(t.database.db, 'rotations');

function createRotation(headers: Record<string, string>) {
  return t.rawInject({
    method: 'POST',
    url: '/api/rotations',
    headers: { cookie, ...headers },
    payload: { name: `Origin check ${Math.random()}` },
  });
}

describe('a state change without an Origin header', () => {
  test('is refused with 403 and writes nothing when Sec-Fetch-Site does not vouch for it', async () => {
    const before = await rotations();
    const res = await createRotation({});
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: ORIGIN_REQUIRED, code: 'FORBIDDEN' });
    expect(await rotations()).toBe(before);
  });

  test('passes with Sec-Fetch-Site: same-origin', async () => {
    const before = await rotations();
    const res = await createRotation({ 'sec-fetch-site': 'same-origin' });
    expect(res.statusCode, res.body).toBe(201);
    expect(await rotations()).toBe(before + 1);
  });

  test.each(['cross-site', 'same-site', 'none'])(
    'is refused with Sec-Fetch-Site: %s',
    async (site) => {
      const before = await rotations();
      const res = await createRotation({ 'sec-fetch-site': site });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: CROSS_SITE_REFUSED, code: 'FORBIDDEN' });
      expect(await rotations()).toBe(before);
    },
  );

  test('PATCH, PUT and DELETE are state changes too', async () => {
    const created = await createRotation({ origin: TEST_ORIGIN });
    expect(created.statusCode).toBe(201);
    const id = created.json().id;
    for (const [method, url, payload] of [
      ['PATCH', '/api/user/settings', { timeZone: 'Europe/Paris' }],
      ['PATCH', `/api/rotations/${id}`, { name: 'Renamed without origin' }],
      // No route answers PUT: refused all the same, before routing would say 404.
      ['PUT', `/api/rotations/${id}`, { name: 'Renamed without origin' }],
      ['DELETE', `/api/rotations/${id}`, undefined],
    ] as const) {
      const res = await t.rawInject({ method, url, headers: { cookie }, payload });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(ORIGIN_REQUIRED);
    }
    const still = await t.rawInject({ url: `/api/rotations/${id}`, headers: { cookie } });
    expect(still.statusCode).toBe(200);
    expect(still.json().name).toMatch(/^Origin check /);
  });

  test('sign-in and the public acknowledgement link are refused too (no login forgery)', async () => {
    const login = await t.rawInject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'ada.origin@example.com', password: t.config.localLoginPassword },
    });
    expect(login.statusCode).toBe(403);
    expect(login.headers['set-cookie']).toBeUndefined();
    const ack = await t.rawInject({ method: 'POST', url: '/api/pages/ack/1.abc' });
    expect(ack.statusCode).toBe(403);
  });
});

describe('a state change with an Origin header', () => {
  test("passes from Baton's own origin", async () => {
    const res = await createRotation({ origin: TEST_ORIGIN });
    expect(res.statusCode).toBe(201);
  });

  test('is refused from another origin, even when Sec-Fetch-Site claims same-origin', async () => {
    const before = await rotations();
    for (const origin of ['https://evil.example.net', 'http://localhost:8080', 'null']) {
      const res = await createRotation({ origin, 'sec-fetch-site': 'same-origin' });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toEqual({ message: CROSS_SITE_REFUSED, code: 'FORBIDDEN' });
    }
    expect(await rotations()).toBe(before);
  });
});

test('safe methods need neither header', async () => {
  const list = await t.rawInject({ url: '/api/rotations', headers: { cookie } });
  expect(list.statusCode).toBe(200);
  const options = await t.rawInject({ method: 'HEAD', url: '/api/auth/options' });
  expect(options.statusCode).toBe(200);
  const ack = await t.rawInject({ url: '/api/pages/ack/1.abc' });
  expect(ack.statusCode).not.toBe(403);
});

describe('routes authenticated by their own signature (decision 201)', () => {
  test('a signature header opens no other route', async () => {
    const before = await rotations();
    const res = await createRotation({ 'x-twilio-signature': 'c2lnbmVk' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: ORIGIN_REQUIRED, code: 'FORBIDDEN' });
    expect(await rotations()).toBe(before);
  });

  test('the signed route without its signature header is refused with 401', async () => {
    const res = await t.rawInject({
      method: 'POST',
      url: '/api/twilio/sms',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'From=%2B15550100001&Body=1234',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: SIGNATURE_REQUIRED, code: 'UNAUTHENTICATED' });
  });

  test('with its signature header it passes to the route, which verifies it (off here: 404)', async () => {
    const res = await t.rawInject({
      method: 'POST',
      url: '/api/twilio/sms',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': 'c2lnbmVk',
      },
      payload: 'From=%2B15550100001&Body=1234',
    });
    expect(res.statusCode).toBe(404);
  });
});
