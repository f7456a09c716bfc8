import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  cookieFrom,
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../../../../tests/setup/test-app';
import { invitations, sessions } from '../../db/schema';
import { insertInvitation } from '../invitations/invitation-repository';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, password = TEST_PASSWORD, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, headers });

describe('local sign-in', () => {
  test('signs in an existing user with an HttpOnly, SameSite=Lax session cookie', async () => {
    const user = await t.createUser({
      name: 'Lin Local',
      email: 'lin.local@example.com',
      roles: ['manager'],
    });
    const res = await login('Lin.Local@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/baton_session=[\w-]{43};/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/); // only in production

    const me = await t.app.inject({
      url: '/api/auth/user',
      headers: { cookie: cookieFrom(res.headers['set-cookie']) },
    });
    expect(me.json()).toEqual({ user });
  });

  // Production's cookie (__Host- prefixed, Secure) is tested in sessions/session-cookie.test.ts:
  // production has no local password.

  test('stores only a hash of the session token', async () => {
    await t.createUser({ email: 'hash.check@example.com' });
    const res = await login('hash.check@example.com');
    const token = cookieFrom(res.headers['set-cookie']).split('=')[1];
    const rows = await t.database.db.select().from(sessions);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  test('refuses a wrong password and an unknown address with 401 and a message', async () => {
    await t.createUser({ email: 'wrong.pw@example.com' });
    const wrong = await login('wrong.pw@example.com', 'not-the-password');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: 'Invalid credentials', code: 'INVALID_CREDENTIALS' });
    const unknown = await login('nobody@example.com');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe('Invalid credentials');
  });

  test('signs in the invitee of a pending invitation, creating the user with the invited role', async () => {
    const { invitation } = await insertInvitation(t.database.db, t.cipher, {
      name: 'Ivy Invitee',
      email: 'ivy.invitee@example.com',
      role: 'member',
      expiresAt: new Date(t.clock.now().getTime() + 86_400_000),
    });
    const res = await login('IVY.invitee@example.com');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      name: 'Ivy Invitee',
      roles: ['on-call'],
      role: 'on-call',
    });
    const [row] = await t.database.db
      .select()
      .from(invitations)
      .where(eq(invitations.id, invitation.id));
    expect(row.status).toBe('accepted');
    expect(row.acceptedUserId).toBe(res.json().user.id);
    // Signing in again finds the user; the invitation is not used twice.
    const again = await login('ivy.invitee@example.com');
    expect(again.json().user.id).toBe(res.json().user.id);
  });

  test('refuses an expired invitation', async () => {
    await insertInvitation(t.database.db, t.cipher, {
      name: 'Old Invite',
      email: 'old.invite@example.com',
      role: 'manager',
      expiresAt: new Date(t.clock.now().getTime() - 1000),
    });
    expect((await login('old.invite@example.com')).statusCode).toBe(401);
  });

  test('validates input with field errors', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 42 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { email: expect.any(String), password: expect.any(String) },
    });
  });
});

describe('sessions', () => {
  test('GET /api/auth/user answers 401 without a session or with an unknown token', async () => {
    expect((await t.app.inject({ url: '/api/auth/user' })).statusCode).toBe(401);
    const res = await t.app.inject({
      url: '/api/auth/user',
      headers: { cookie: 'baton_session=forged' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'Not authenticated', code: 'UNAUTHENTICATED' });
  });

  test('identity headers sent by the client are never trusted', async () => {
    const admin = await t.createUser({ roles: ['admin'] });
    const member = await t.createUser({ roles: ['on-call'] });
    const forged = await t.app.inject({
      url: '/api/auth/user',
      headers: { 'x-user-id': String(admin.id), 'x-user-role': 'admin' },
    });
    expect(forged.statusCode).toBe(401);
    const asMember = await t.app.inject({
      url: '/api/auth/user',
      headers: {
        cookie: await t.cookieFor(member),
        'x-user-id': String(admin.id),
        'x-user-role': 'admin',
      },
    });
    expect(asMember.json().user.id).toBe(member.id);
  });

  test('logout deletes the session row and the cookie stops working', async () => {
    const user = await t.createUser();
    const cookie = await t.cookieFor(user);
    const before = await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(before).toHaveLength(1);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/baton_session=;/);
    expect(
      await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id)),
    ).toHaveLength(0);
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(
      401,
    );
  });

  test('a session ends after the idle timeout, and after the absolute limit even when used', async () => {
    const user = await t.createUser();
    const idleCookie = await t.cookieFor(user);
    t.clock.advance(t.config.session.idleMs + 1000);
    expect(
      (await t.app.inject({ url: '/api/auth/user', headers: { cookie: idleCookie } })).statusCode,
    ).toBe(401);

    const busyCookie = await t.cookieFor(user);
    const step = t.config.session.idleMs / 2;
    for (let used = 0; used < t.config.session.absoluteMs - step; used += step) {
      t.clock.advance(step);
      const res = await t.app.inject({ url: '/api/auth/user', headers: { cookie: busyCookie } });
      expect(res.statusCode).toBe(200);
    }
    t.clock.advance(step * 2);
    expect(
      (await t.app.inject({ url: '/api/auth/user', headers: { cookie: busyCookie } })).statusCode,
    ).toBe(401);
  });
});

describe('sign-in options and rate limit', () => {
  test('the login screen learns which ways of signing in are on', async () => {
    const res = await t.app.inject({ url: '/api/auth/options' });
    expect(res.json()).toEqual({ localLogin: true, google: false, companyDomain: 'example.com' });
  });

  test('local sign-in is off (404) without LOCAL_LOGIN_PASSWORD', async () => {
    const off = await createTestApp({ env: { LOCAL_LOGIN_PASSWORD: undefined } });
    try {
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: 'a@example.com', password: 'anything-at-all' },
      });
      expect(res.statusCode).toBe(404);
      expect((await off.app.inject({ url: '/api/auth/options' })).json().localLogin).toBe(false);
    } finally {
      await off.close();
    }
  });

  test('without TRUST_PROXY a forged X-Forwarded-For does not escape the limit', async () => {
    const direct = await createTestApp({ env: { TRUST_PROXY: 'false', SIGN_IN_RATE_LIMIT: '3' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await direct.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { email: 'brute@example.com', password: 'guess-guess' },
          headers: { 'x-forwarded-for': `198.51.100.${i}` },
        });
        codes.push(res.statusCode);
      }
      expect(codes).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await direct.close();
    }
  });

  test('repeated attempts are rate limited with a 429 message', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.9' };
    const codes: number[] = [];
    for (let i = 0; i < 12; i++)
      codes.push((await login('brute@example.com', 'guess-guess', headers)).statusCode);
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    const limited = await login('brute@example.com', 'guess-guess', headers);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toMatch(/Too many attempts/);
  });
});

describe('cross-site requests', () => {
  test('a state change whose Origin is not Baton’s own is refused with 403; reads and own origin pass', async () => {
    const admin = await t.createUser({ roles: ['admin'] });
    const cookie = await t.cookieFor(admin);
    const evil = { cookie, origin: 'https://evil.example.com' };
    for (const [method, url, payload] of [
      ['POST', '/api/invitations', { email: 'csrf.victim@example.com', name: 'C', role: 'member' }],
      ['DELETE', `/api/users/${admin.id + 1000}`, undefined],
      ['PATCH', `/api/admin/users/${admin.id}/roles`, { roles: ['on-call'] }],
      ['POST', '/api/auth/logout', undefined],
    ] as const) {
      const res = await t.app.inject({ method, url, payload, headers: evil });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toEqual({ message: 'Cross-site request refused.', code: 'FORBIDDEN' });
    }
    // 'null' (a sandboxed or privacy-redirected page) is not Baton's origin either.
    const nullOrigin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'null' },
    });
    expect(nullOrigin.statusCode).toBe(403);
    // The session survived every refused request.
    expect((await t.app.inject({ url: '/api/auth/user', headers: { cookie } })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: '/api/users', headers: evil })).statusCode).toBe(200);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(own.statusCode).toBe(200);
  });

  test('with PUBLIC_URL, its origin is Baton’s own', async () => {
    const app = await createTestApp({ env: { PUBLIC_URL: 'https://baton.example.com' } });
    try {
      const user = await app.createUser();
      const res = await app.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie: await app.cookieFor(user), origin: 'https://baton.example.com' },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
