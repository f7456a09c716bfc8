import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestApp,
  openSecondInstance,
  type SecondInstance,
  type TestApp,
  withOwnOrigin,
} from '../../../tests/setup/test-app';
import { rateLimitHits } from '../db/schema';
import { hitRateLimit } from './rate-limit-store';

/**
 * The sign-in rate limit is counted in the database (decision 161), so it holds across instances:
 * two apps on one database share it. On PostgreSQL (TEST_DATABASE_URL) the second app has its
 * own connection pool, as a second instance would; on PGlite both share the embedded database.
 */

const LIMIT = 4;
let t: TestApp;
let second: SecondInstance;
let other: FastifyInstance;

beforeAll(async () => {
  t = await createTestApp({ env: { SIGN_IN_RATE_LIMIT: String(LIMIT) } });
  second = await openSecondInstance(t);
  other = second.app;
  withOwnOrigin(other);
}, 120_000);
afterAll(async () => {
  await second?.close();
  await t?.close();
});

const attempt = (app: FastifyInstance, address: string, url = '/api/auth/login') =>
  app.inject({
    method: 'POST',
    url,
    headers: { 'x-forwarded-for': address },
    payload: { email: 'brute.force@example.com', password: 'wrong-password-guess' },
  });

describe('the sign-in limit across two instances on one database', () => {
  test('attempts on either instance count towards one limit, with Retry-After', async () => {
    const address = '203.0.113.20';
    const codes: number[] = [];
    for (let i = 0; i < LIMIT + 2; i++) {
      codes.push((await attempt(i % 2 === 0 ? t.app : other, address)).statusCode);
    }
    // Per process, each instance would have allowed LIMIT attempts: 2 × LIMIT in all.
    expect(codes).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    const limited = await attempt(other, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(limited.json().message).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
  });

  test('another address, and another rate-limited route, count on their own', async () => {
    const address = '203.0.113.21';
    for (let i = 0; i < LIMIT; i++) expect((await attempt(t.app, address)).statusCode).toBe(401);
    expect((await attempt(other, address)).statusCode).toBe(429);
    expect((await attempt(other, '203.0.113.22')).statusCode).toBe(401);
    // The Firebase exchange has its own count (it answers 404: no Firebase project here).
    expect((await attempt(t.app, address, '/api/auth/firebase')).statusCode).toBe(404);
  });

  test('the window ends for every instance at once, and ended windows are swept', async () => {
    const address = '203.0.113.23';
    for (let i = 0; i < LIMIT; i++) await attempt(other, address);
    expect((await attempt(t.app, address)).statusCode).toBe(429);
    t.clock.advance(61_000);
    expect((await attempt(t.app, address)).statusCode).toBe(401);
    expect((await attempt(other, address)).statusCode).toBe(401);
    // The earlier tests' rows have ended; the sweep (at most once a minute) removed them.
    t.clock.advance(61_000);
    await attempt(t.app, address);
    await attempt(other, address);
    const rows = await t.database.db.select().from(rateLimitHits);
    expect(rows.length).toBe(1);
    expect(rows[0].hits).toBe(2);
  });

  test('the client address is stored only as a keyed hash', async () => {
    await attempt(t.app, '198.51.100.77');
    const rows = await t.database.db.select().from(rateLimitHits);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.keyHash).toMatch(/^[\w-]{43}$/);
      expect(row.keyHash).not.toContain('198.51.100');
    }
  });
});

test('hits counted at once on one key are each counted once', async () => {
  const now = t.clock.now();
  const counts = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      hitRateLimit(i % 2 === 0 ? t.database.db : second.database.db, 'concurrent-key', now, 60_000),
    ),
  );
  expect(counts.map((c) => c.current).sort((a, b) => a - b)).toEqual(
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  expect(counts.every((c) => c.ttl === 60_000)).toBe(true);
});
