import { count } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  openSecondInstance,
  type SecondInstance,
  type TestApp,
} from '../../../../tests/setup/test-app';
import { INTEGRATION_MESSAGES } from '../../../shared/contracts/integrations';
import { alerts, pages } from '../../db/schema';
import { insertIntegration, insertRotation } from '../../seed/factories';
import { generateIntegrationKey } from '../integrations/integration-keys';
import { ALERT_PATHS } from './alert-paths';
import { clientKeyOf, KEY_GUESS_LIMIT_DEFAULT, KEY_GUESS_WINDOW_MS } from './key-guesses';

/**
 * Limits for clients that guess (issue 30, decision 235): wrong integration keys are counted per
 * client address on every keyed alert endpoint, in the database, so two instances on one database
 * share the count; past the limit every request of the address is answered 429, in its endpoint's
 * own shape, whatever its key. With the default limit (ALERT_KEY_GUESS_LIMIT unset).
 */

let t: TestApp;
let second: SecondInstance;
let other: FastifyInstance;
let key: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ALERT_KEY_GUESS_LIMIT: undefined } });
  // A second instance on the same database: its own pool on PostgreSQL, as another process's.
  second = await openSecondInstance(t);
  other = second.app;
  const holder = await t.createUser();
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  key = (await insertIntegration(t.database.db, t.cipher, { rotationId: rotation.id })).key;
}, 120_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
});

/** A request to each keyed endpoint with key `k`, from `address` (no Origin, no cookie). */
const REQUESTS: ((k: string, address: string) => InjectOptions)[] = [
  (k, address) => ({
    method: 'POST',
    url: ALERT_PATHS.pagerduty,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    payload: JSON.stringify({
      routing_key: k,
      event_action: 'trigger',
      payload: { summary: 'Disk full', source: 'db1', severity: 'critical' },
    }),
  }),
  (k, address) => ({
    method: 'POST',
    url: ALERT_PATHS.opsgenieCreate,
    headers: {
      'content-type': 'application/json',
      authorization: `GenieKey ${k}`,
      'x-forwarded-for': address,
    },
    payload: JSON.stringify({ message: 'Disk full' }),
  }),
  (k, address) => ({
    method: 'POST',
    url: '/api/alerts/opsgenie/v2/alerts/disk-full/close?identifierType=alias',
    headers: { authorization: `GenieKey ${k}`, 'x-forwarded-for': address },
  }),
  (k, address) => ({
    method: 'POST',
    url: '/api/alerts/opsgenie/v2/alerts/disk-full/acknowledge?identifierType=alias',
    headers: { authorization: `GenieKey ${k}`, 'x-forwarded-for': address },
  }),
  (k, address) => ({
    method: 'POST',
    url: `${ALERT_PATHS.alertmanager}?token=${k}`,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    payload: JSON.stringify({ version: '4', status: 'firing', alerts: [] }),
  }),
  (k, address) => ({
    method: 'POST',
    url: ALERT_PATHS.grafana,
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${k}`,
      'x-forwarded-for': address,
    },
    payload: JSON.stringify({ version: '1', status: 'firing', alerts: [] }),
  }),
  (k, address) => ({
    method: 'POST',
    url: `${ALERT_PATHS.generic}?token=${k}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': address },
    payload: 'summary=Backup+failed',
  }),
];

const generic = (k: string, address: string, app: FastifyInstance = t.app) =>
  app.inject(REQUESTS[6](k, address));

const stored = async () => ({
  alerts: (await t.database.db.select({ n: count() }).from(alerts))[0].n,
  pages: (await t.database.db.select({ n: count() }).from(pages))[0].n,
});

test.each([
  ['203.0.113.7', '203.0.113.7'],
  ['::ffff:203.0.113.7', '203.0.113.7'],
  ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
  ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
  ['2001:DB8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
  ['::1', '0:0:0:0::/64'],
])('clientKeyOf(%s) is %s: an IPv6 host counts by its /64', (address, client) => {
  expect(clientKeyOf(address)).toBe(client);
});

describe('wrong keys from one address', () => {
  test('2,000 sent fast meet 429 within the limit, on every endpoint, in its own shape', async () => {
    const address = '198.51.100.23';
    const batch = 10;
    let sent = 0;
    let refusedForKey = 0;
    const limited: { status: number; body: Record<string, unknown>; retryAfter: unknown }[] = [];
    while (sent < 2_000 && limited.length === 0) {
      const answers = await Promise.all(
        Array.from({ length: batch }, (_, i) =>
          t.app.inject(REQUESTS[(sent + i) % REQUESTS.length](generateIntegrationKey(), address)),
        ),
      );
      sent += batch;
      for (const res of answers) {
        if (res.statusCode === 429) {
          limited.push({ status: 429, body: res.json(), retryAfter: res.headers['retry-after'] });
        } else {
          expect([400, 401], res.body).toContain(res.statusCode);
          expect(res.body).toContain('Unknown integration key');
          refusedForKey += 1;
        }
      }
    }
    expect(limited.length).toBeGreaterThan(0);
    // Exactly the limit's worth were told the key is wrong; the 429 came within one batch.
    expect(refusedForKey).toBe(KEY_GUESS_LIMIT_DEFAULT);
    expect(sent).toBeLessThanOrEqual(KEY_GUESS_LIMIT_DEFAULT + batch);
    const [first] = limited;
    expect(first.body.message).toMatch(/^Too many wrong integration keys from this address/);
    expect(first.body.code).toBe('RATE_LIMITED');
    expect(Number(first.retryAfter)).toBeGreaterThan(0);
    expect(Number(first.retryAfter)).toBeLessThanOrEqual(60);

    // Every endpoint answers the blocked address 429 in its vendor's shape.
    for (const request of REQUESTS) {
      const res = await t.app.inject(request(generateIntegrationKey(), address));
      expect(res.statusCode, res.body).toBe(429);
      const body = res.json();
      if (request === REQUESTS[0]) expect(body).toMatchObject({ status: 'error' });
      if (request === REQUESTS[1]) expect(typeof body.requestId).toBe('string');
      expect(body.message).toMatch(/^Too many wrong integration keys/);
    }
  });

  test('a blocked address is refused even with the right key until its window ends; others are not', async () => {
    const address = '198.51.100.24';
    // No key at all is no guess: it is not counted.
    for (let i = 0; i < KEY_GUESS_LIMIT_DEFAULT + 5; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: ALERT_PATHS.generic,
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        payload: JSON.stringify({ summary: 'x' }),
      });
      expect(res.json().message).toBe(INTEGRATION_MESSAGES.keyMissing);
    }
    for (let i = 0; i < KEY_GUESS_LIMIT_DEFAULT; i++) {
      expect((await generic(generateIntegrationKey(), address)).statusCode).toBe(401);
    }
    expect((await generic(generateIntegrationKey(), address)).statusCode).toBe(429);
    const before = await stored();
    // The right key now: a guesser cannot tell a hit from a miss.
    const hit = await generic(key, address);
    expect(hit.statusCode, hit.body).toBe(429);
    expect(await stored()).toEqual(before);
    // Another address is not held up by it.
    expect((await generic(key, '198.51.100.25')).statusCode).toBe(202);
    t.clock.advance(KEY_GUESS_WINDOW_MS);
    expect((await generic(key, address)).statusCode).toBe(202);
  });

  test('two instances on one database share the count', async () => {
    const address = '198.51.100.27';
    const codes: number[] = [];
    for (let i = 0; i < KEY_GUESS_LIMIT_DEFAULT + 2; i++) {
      const app = i % 2 === 0 ? t.app : other;
      codes.push((await generic(generateIntegrationKey(), address, app)).statusCode);
    }
    // Per process, each would have let the address make the limit's worth of guesses.
    expect(codes).toEqual([...Array(KEY_GUESS_LIMIT_DEFAULT).fill(401), 429, 429]);
    // Each instance learned of the block from the shared count: the right key is refused on both.
    expect((await generic(key, address, t.app)).statusCode).toBe(429);
    expect((await generic(key, address, other)).statusCode).toBe(429);
    t.clock.advance(KEY_GUESS_WINDOW_MS);
  });
});
