import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { sessions, users } from '../../db/schema';
import { SessionMemo } from './session-memo';

const T = Date.parse('2026-11-02T12:00:00.000Z');
const MINUTE = 60_000;

describe('SessionMemo', () => {
  let changes = 0;
  const memo = () => new SessionMemo<string>(() => changes, 3);
  const session = (
    value: string,
    values: { lastSeen?: number; idle?: number; absolute?: number },
  ) => ({
    value,
    lastSeenAt: new Date(values.lastSeen ?? T),
    idleExpiresAt: new Date(values.idle ?? T + 60 * MINUTE),
    absoluteExpiresAt: new Date(values.absolute ?? T + 120 * MINUTE),
  });
  beforeEach(() => {
    changes = 0;
  });

  test('gives a session back while the change count stays where it was read', () => {
    const m = memo();
    m.remember('h1', m.count(), session('alice', {}));
    expect(m.get('h1', new Date(T))).toBe('alice');
    expect(m.get('h2', new Date(T))).toBeUndefined();
    changes += 1;
    expect(m.get('h1', new Date(T))).toBeUndefined();
    // Forgotten for good, even if the count were to read the same again.
    changes -= 1;
    expect(m.get('h1', new Date(T))).toBeUndefined();
  });

  test('does not keep a session when something changed while it was read', () => {
    const m = memo();
    const count = m.count();
    changes += 1; // say, the session's own last-seen write
    m.remember('h1', count, session('alice', {}));
    expect(m.get('h1', new Date(T))).toBeUndefined();
  });

  test.each([
    ['at its idle expiry', { idle: T + 30_000 }, T + 30_000],
    ['at its absolute expiry', { absolute: T + 30_000 }, T + 30_000],
    ['when its last use is over a minute old (the database records the use)', {}, T + MINUTE + 1],
  ])('does not give a session out %s', (_label, values, at) => {
    const m = memo();
    m.remember('h1', m.count(), session('alice', values));
    expect(m.get('h1', new Date(at - 1))).toBe('alice');
    expect(m.get('h1', new Date(at))).toBeUndefined();
  });

  test('keeps at most its number of sessions, the oldest forgotten first', () => {
    const m = memo();
    for (const name of ['a', 'b', 'c', 'd']) m.remember(name, m.count(), session(name, {}));
    expect(m.get('a', new Date(T))).toBeUndefined();
    expect(['b', 'c', 'd'].map((h) => m.get(h, new Date(T)))).toEqual(['b', 'c', 'd']);
  });
});

/**
 * Through the API on both engines: whatever is remembered (PGlite), a session and its user are
 * what the database holds at the next request. On PostgreSQL every request reads them.
 */
describe('sessions through the API', () => {
  let t: TestApp;
  let statements = 0;
  beforeAll(async () => {
    t = await createTestApp({ db: { onQuery: () => (statements += 1) } });
  });
  afterAll(() => t.close());
  beforeEach(() => t.clock.set(new Date(T)));

  async function me(cookie: string) {
    statements = 0;
    const res = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    return {
      status: res.statusCode,
      user: res.statusCode === 200 ? (res.json().user as User) : null,
      statements,
    };
  }

  /** signedIn returns a cookie whose session has been used, so PGlite remembers it. */
  async function signedIn(user: User) {
    const cookie = await t.cookieFor(user);
    expect((await me(cookie)).status).toBe(200);
    return cookie;
  }

  test('a remembered session costs no statement on PGlite, the session read on PostgreSQL', async () => {
    const cookie = await signedIn(await t.createUser());
    // On PostgreSQL the read is always there; a pair with no change between shows it on PGlite.
    const counts = [(await me(cookie)).statements, (await me(cookie)).statements];
    expect(Math.min(...counts)).toBe(t.database.engine === 'pglite' ? 0 : 1);
  });

  test('logout ends a remembered session at once', async () => {
    const cookie = await signedIn(await t.createUser());
    await me(cookie);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(out.statusCode).toBe(200);
    expect((await me(cookie)).status).toBe(401);
  });

  test('roles changed in the database (another process, a script) apply to the next request', async () => {
    const admin = await t.createUser({ roles: ['admin'] });
    const cookie = await signedIn(admin);
    const adminEvents = () =>
      t.app.inject({ url: '/api/audit-log/admin-events', headers: { cookie } });
    expect((await adminEvents()).statusCode).toBe(200);
    await t.database.db
      .update(users)
      .set({ roles: ['on-call'] })
      .where(eq(users.id, admin.id));
    expect((await me(cookie)).user?.roles).toEqual(['on-call']);
    expect((await adminEvents()).statusCode).toBe(403);
  });

  test("a deleted user's remembered session stops at once", async () => {
    const user = await t.createUser();
    const cookie = await signedIn(user);
    await me(cookie);
    await t.database.db.delete(users).where(eq(users.id, user.id));
    expect((await me(cookie)).status).toBe(401);
  });

  test('a used session records its last use once a minute, remembered or not', async () => {
    const user = await t.createUser();
    const cookie = await signedIn(user);
    t.clock.advance(MINUTE + 1);
    expect((await me(cookie)).status).toBe(200);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(row.lastSeenAt.getTime()).toBe(T + MINUTE + 1);
  });

  test('a remembered session ends at its absolute limit, to the millisecond', async () => {
    const user = await t.createUser();
    const cookie = await t.cookieFor(user);
    const limit = T + t.config.session.absoluteMs;
    // Used often enough not to go idle, and 30 seconds before the limit: the idle expiry is
    // then capped at the limit.
    const step = t.config.session.idleMs / 2;
    for (let at = T + step; at < limit - 30_000; at += step) {
      t.clock.set(new Date(at));
      expect((await me(cookie)).status).toBe(200);
    }
    t.clock.set(new Date(limit - 30_000));
    expect((await me(cookie)).status).toBe(200);
    expect((await me(cookie)).status).toBe(200);
    t.clock.set(new Date(limit - 1));
    expect((await me(cookie)).status).toBe(200);
    t.clock.set(new Date(limit));
    expect((await me(cookie)).status).toBe(401);
  });
});
