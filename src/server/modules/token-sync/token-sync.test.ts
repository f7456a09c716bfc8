import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { desc, eq, lte } from 'drizzle-orm';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../../../../tests/setup/oidc-test-issuer';
import {
  cookieFrom,
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
} from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { ManualClock } from '../../core/clock';
import { notifications, sessions, tokenSyncs } from '../../db/schema';
import { type DeliveryDeps, decryptContent, deliverDue } from '../notifications/outbox';
import { sweepExpiredSessions } from '../sessions/session-sweep-task';
import { createTokenSyncChannel } from './token-sync-channel';
import { TOKEN_MAX_AGE_MS } from './token-sync-rules';
import { tokenSyncCtx } from './token-sync-service';
import { tokenSyncTask } from './token-sync-task';

/**
 * Token sync (issue 21, decision 228) end to end at the API: sign-in through the loopback OpenID
 * provider, the engine's renewals and expiries on a moved clock, and the outbox's delivery to a
 * loopback companion service that verifies nothing itself: the test checks every token it got.
 */

interface Hit {
  method: string;
  token: string;
  idempotencyKey: string;
  /** the app's clock when it arrived */
  at: Date;
}

interface Companion {
  url: string;
  hits: Hit[];
  /** answered with `failStatus` while true */
  failing: boolean;
  failStatus: number;
  attempts: number;
  /** while set, an answer waits for it (and `onHeld` is told the request arrived) */
  hold: Promise<void> | null;
  onHeld: (() => void) | null;
  close(): Promise<void>;
}

async function startCompanion(clock: ManualClock): Promise<Companion> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      if (companion.hold) {
        companion.onHeld?.();
        await companion.hold;
      }
      companion.attempts += 1;
      if (companion.failing) {
        res.writeHead(companion.failStatus).end('down for maintenance');
        return;
      }
      const auth = String(req.headers.authorization ?? '');
      companion.hits.push({
        method: String(req.method),
        token: auth.replace(/^Bearer /, ''),
        idempotencyKey: String(req.headers['idempotency-key'] ?? ''),
        at: clock.now(),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const companion: Companion = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/baton/session`,
    hits: [],
    failing: false,
    failStatus: 503,
    attempts: 0,
    hold: null,
    onHeld: null,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return companion;
}

const CLIENT = 'baton-test-client';
const MIN = 60_000;

let clock: ManualClock;
let issuer: TestIssuer;
let companion: Companion;
let t: TestApp;
let outbox: DeliveryDeps;
let admin: User;
let seq = 0;

beforeAll(async () => {
  clock = new ManualClock('2026-11-02T12:00:00Z');
  issuer = await startTestIssuer({ clientId: CLIENT, now: () => clock.now() });
  companion = await startCompanion(clock);
  t = await createTestApp({
    clock,
    env: {
      OIDC_ISSUER: issuer.issuer,
      OIDC_CLIENT_ID: CLIENT,
      OIDC_CLIENT_SECRET: 'baton-test-secret',
      PUBLIC_URL: 'http://baton.test',
      TOKEN_SYNC_URL: companion.url,
      SESSION_IDLE_HOURS: '1',
    },
  });
  outbox = {
    db: t.database.db,
    cipher: t.cipher,
    clock,
    channels: {
      'token-sync': createTokenSyncChannel({
        db: t.database.db,
        cipher: t.cipher,
        clock,
        url: companion.url,
        timeoutMs: 2_000,
      }),
    },
    random: () => 0.5,
  };
  admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
  await companion.close();
});
beforeEach(() => {
  companion.hits = [];
  companion.failing = false;
  companion.failStatus = 503;
});

const keys = () => createRemoteJWKSet(new URL(issuer.jwksUrl));

/** verified checks a token the companion got against the provider's keys, at the app's clock. */
async function verified(token: string) {
  const { payload } = await jwtVerify(token, keys(), {
    issuer: issuer.issuer,
    audience: CLIENT,
    currentDate: clock.now(),
  });
  return payload;
}

async function person(): Promise<User & { sub: string }> {
  seq += 1;
  const user = await t.createUser({
    name: `Synced Person ${seq}`,
    email: `synced.${seq}@example.com`,
    roles: ['on-call'],
  });
  return { ...user, sub: `google-synced-${seq}` };
}

/** signIn plays the sign-in popup through the loopback provider; returns the session cookie. */
async function signIn(who: User & { sub: string }, app = t): Promise<string> {
  const start = await app.app.inject({ url: '/api/auth/oidc/start' });
  const location = String(start.headers.location);
  const flowCookie = [start.headers['set-cookie']].flat().find((c) => c?.startsWith('baton_oidc='));
  const query = issuer.authorize(location, {
    sub: who.sub,
    email: who.email,
    email_verified: true,
    name: who.name,
  });
  const res = await app.app.inject({
    url: `/api/auth/oidc/callback?${query}`,
    headers: { cookie: String(flowCookie).split(';')[0] },
  });
  expect(res.statusCode, res.body).toBe(200);
  return cookieFrom(res.headers['set-cookie']);
}

/** One engine tick of the token sync, then one outbox round of its channel. */
async function tick() {
  await tokenSyncTask(
    { config: t.config, database: t.database, cipher: t.cipher, clock },
    clock.now(),
  );
  return deliverDue(outbox, 50, 'token-sync');
}

/** uses the app as a person with the tab open would. */
async function use(cookie: string) {
  const res = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
  expect(res.statusCode).toBe(200);
}

const hitsOf = (who: { sub: string }) =>
  companion.hits.filter((h) => decodeJwt(h.token).sub === who.sub);

describe('token sync on: the companion service is told who is signed in', () => {
  test('sign-in posts the ID token as a bearer token: it verifies against the provider and is at most 5 minutes old', async () => {
    const who = await person();
    await signIn(who);
    // Nothing is sent during the sign-in itself: the outbox sends it.
    expect(hitsOf(who)).toHaveLength(0);
    const report = await tick();
    expect(report.sent).toBeGreaterThanOrEqual(1);
    const [hit] = hitsOf(who);
    expect(hit.method).toBe('POST');
    const claims = await verified(hit.token);
    expect(claims).toMatchObject({ sub: who.sub, email: who.email, aud: CLIENT });
    expect(hit.at.getTime() - (claims.iat as number) * 1000).toBeLessThanOrEqual(TOKEN_MAX_AGE_MS);
  });

  test('sign-in asks the provider for offline access on a consent prompt, the account chooser still forced', async () => {
    const start = await t.app.inject({ url: '/api/auth/oidc/start' });
    const params = new URL(String(start.headers.location)).searchParams;
    expect(params.get('scope')).toBe('openid email profile offline_access');
    expect(params.get('prompt')).toBe('select_account consent');
  });

  test('the tokens wait sealed in the synced session; the outbox row holds none, and both go once the DELETE is delivered', async () => {
    const who = await person();
    const cookie = await signIn(who);
    const [sync] = await t.database.db.select().from(tokenSyncs).orderBy(desc(tokenSyncs.id));
    await tick();
    const token = hitsOf(who)[0].token;
    expect(sync.idTokenEnc).not.toContain(token.split('.')[1]);
    expect(t.cipher.decrypt(sync.idTokenEnc, tokenSyncCtx('id_token', sync.id))).toBe(token);
    const refresh = t.cipher.decrypt(
      sync.refreshTokenEnc as string,
      tokenSyncCtx('refresh_token', sync.id),
    );
    expect(sync.refreshTokenEnc).not.toContain(refresh);
    const rows = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.channel, 'token-sync'));
    for (const row of rows) {
      const content = JSON.stringify(decryptContent(row, t.cipher));
      expect(content).not.toContain(token.split('.')[1]);
      expect(content).not.toContain(refresh);
    }
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    await tick();
    await tick();
    expect(await t.database.db.select().from(tokenSyncs).where(eq(tokenSyncs.id, sync.id))).toEqual(
      [],
    );
  });

  test('an hour of activity on a moved clock: the companion always holds a token less than 5 minutes old', async () => {
    const who = await person();
    const cookie = await signIn(who);
    await tick();
    for (let minute = 1; minute <= 60; minute += 1) {
      for (let half = 0; half < 4; half += 1) {
        clock.advance(MIN / 4);
        await use(cookie);
        await tick();
        const latest = hitsOf(who).at(-1) as Hit;
        const iat = (decodeJwt(latest.token).iat as number) * 1000;
        expect(clock.now().getTime() - iat).toBeLessThan(TOKEN_MAX_AGE_MS);
      }
    }
    const posts = hitsOf(who);
    expect(posts.every((h) => h.method === 'POST')).toBe(true);
    // Renewed every 3 min 40 s: the sign-in's token and 16 fresh ones in the hour, each once.
    expect(posts.length).toBe(17);
    expect(new Set(posts.map((h) => h.idempotencyKey)).size).toBe(posts.length);
    expect(new Set(posts.map((h) => h.token)).size).toBe(posts.length);
    for (const hit of posts) {
      const claims = await verified(hit.token).catch(() => decodeJwt(hit.token));
      expect(claims.sub).toBe(who.sub);
      expect(hit.at.getTime() - (claims.iat as number) * 1000).toBeLessThanOrEqual(
        TOKEN_MAX_AGE_MS,
      );
    }
  });

  test('a renewal while the waiting POST is on its way: the renewed token follows it once', async () => {
    const engine = () =>
      tokenSyncTask(
        { config: t.config, database: t.database, cipher: t.cipher, clock },
        clock.now(),
      );
    const who = await person();
    const cookie = await signIn(who);
    await tick();
    // The first renewal queues its POST...
    clock.advance(4 * MIN);
    await use(cookie);
    await engine();
    // ...which the companion takes its time over...
    let release = () => {};
    companion.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    const arrived = new Promise<void>((resolve) => {
      companion.onHeld = resolve;
    });
    const delivering = deliverDue(outbox, 50, 'token-sync');
    await arrived;
    // ...while the engine renews again: it sees that POST waiting and queues none.
    clock.advance(4 * MIN);
    await use(cookie);
    const before = await t.database.db.select().from(notifications);
    await engine();
    expect(await t.database.db.select().from(notifications)).toHaveLength(before.length);
    companion.hold = null;
    release();
    await delivering;
    await tick();
    await tick();
    const posts = hitsOf(who);
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((p) => p.token)).size).toBe(3);
    const iats = posts.map((p) => decodeJwt(p.token).iat as number);
    expect(iats).toEqual([...iats].sort((a, b) => a - b));
    expect(posts[2].at.getTime() - iats[2] * 1000).toBeLessThanOrEqual(TOKEN_MAX_AGE_MS);
  });

  test('an idle person is not renewed; signing out sends DELETE with the last token, then forgets it', async () => {
    const who = await person();
    const cookie = await signIn(who);
    await tick();
    // Signing in was a use: the first renewal may still come within the active window.
    for (let i = 0; i < 11; i += 1) {
      clock.advance(MIN / 2);
      await tick();
    }
    const [before] = await t.database.db.select().from(tokenSyncs).orderBy(desc(tokenSyncs.id));
    const sent = hitsOf(who).length;
    for (let i = 0; i < 20; i += 1) {
      clock.advance(MIN / 2);
      await tick();
    }
    const [after] = await t.database.db
      .select()
      .from(tokenSyncs)
      .where(eq(tokenSyncs.id, before.id));
    expect(after.issuedAt).toEqual(before.issuedAt);
    expect(hitsOf(who)).toHaveLength(sent);
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie },
    });
    expect(logout.statusCode).toBe(200);
    await tick();
    const hits = hitsOf(who);
    expect(hits).toHaveLength(sent + 1);
    expect(hits.at(-1)).toMatchObject({ method: 'DELETE', token: hits.at(-2)?.token });
    await tick();
    expect(hitsOf(who)).toHaveLength(sent + 1);
    const left = await t.database.db.select().from(tokenSyncs);
    expect(left.some((s) => s.endedAt !== null)).toBe(false);
  });

  test('the session expiring sends DELETE', async () => {
    const who = await person();
    await signIn(who);
    await tick();
    clock.advance(61 * MIN);
    await tick();
    expect(hitsOf(who).map((h) => h.method)).toEqual(['POST', 'DELETE']);
    expect(hitsOf(who)[1].token).toBe(hitsOf(who)[0].token);
  });

  test('the expired sessions sweep (decision 229), even run before the token sync, still lets the DELETE go, then the row is gone', async () => {
    const first = await person();
    const second = await person();
    await signIn(first);
    await signIn(second);
    await tick();
    clock.advance(61 * MIN);
    // the worst order: the rows go before the token sync sees them expire (it runs first in the engine)
    const swept = await sweepExpiredSessions(t.database.db, clock.now());
    expect(swept).toBeGreaterThanOrEqual(2);
    await tick();
    for (const who of [first, second]) {
      expect(hitsOf(who).map((h) => h.method)).toEqual(['POST', 'DELETE']);
    }
    const live = await t.database.db
      .select()
      .from(sessions)
      .where(lte(sessions.idleExpiresAt, clock.now()));
    expect(live).toEqual([]);
  });

  test('an administrator deleting the person sends DELETE', async () => {
    const who = await person();
    await signIn(who);
    await tick();
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${who.id}`,
      headers: { cookie: await t.cookieFor(admin) },
    });
    expect(res.statusCode, res.body).toBe(200);
    await tick();
    expect(hitsOf(who).map((h) => h.method)).toEqual(['POST', 'DELETE']);
  });

  test('a companion down for ten minutes gets every message once when it returns, with a fresh token', async () => {
    const who = await person();
    companion.failing = true;
    const attemptsBefore = companion.attempts;
    const cookie = await signIn(who);
    for (let i = 0; i < 40; i += 1) {
      await tick();
      clock.advance(MIN / 4);
      await use(cookie);
    }
    expect(companion.attempts).toBeGreaterThan(attemptsBefore);
    expect(hitsOf(who)).toHaveLength(0);
    companion.failing = false;
    // The outbox's backoff brings the waiting POST back within minutes.
    for (let i = 0; i < 40 && hitsOf(who).length === 0; i += 1) {
      clock.advance(MIN / 4);
      await use(cookie);
      await tick();
    }
    const [post] = hitsOf(who);
    expect(post.method).toBe('POST');
    const claims = await verified(post.token);
    expect(post.at.getTime() - (claims.iat as number) * 1000).toBeLessThanOrEqual(TOKEN_MAX_AGE_MS);
    // Renewed while the companion was down; the waiting POST carried the latest token only.
    expect(hitsOf(who)).toHaveLength(1);
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    for (let i = 0; i < 4; i += 1) {
      clock.advance(MIN / 4);
      await tick();
    }
    expect(hitsOf(who).map((h) => h.method)).toEqual(['POST', 'DELETE']);
    const failed = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.status, 'failed'));
    expect(failed.filter((r) => r.channel === 'token-sync')).toHaveLength(0);
  });

  test('a companion that refuses shows in the administrators’ outbox as failed', async () => {
    const who = await person();
    companion.failing = true;
    companion.failStatus = 401;
    await signIn(who);
    await tick();
    const res = await t.app.inject({
      url: '/api/admin/notifications?status=failed',
      headers: { cookie: await t.cookieFor(admin) },
    });
    expect(res.statusCode).toBe(200);
    const entry = res.json().find((e: { channel: string }) => e.channel === 'token-sync');
    expect(entry).toMatchObject({
      channel: 'token-sync',
      status: 'failed',
      lastError: 'The companion service answered 401',
      kind: 'token-sync.post',
    });
    expect(entry.text).not.toMatch(/eyJ/);
  });

  test('the token exchange (POST /api/auth/firebase) posts the exchanged token; without a refresh token it is not renewed, and expires rather than go stale', async () => {
    const exchange = async (who: User & { sub: string }) => {
      const token = await issuer.sign({
        aud: CLIENT,
        sub: who.sub,
        email: who.email,
        email_verified: true,
      });
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/firebase',
        payload: { token },
      });
      expect(res.statusCode, res.body).toBe(200);
      return { token, cookie: cookieFrom(res.headers['set-cookie']) };
    };
    const who = await person();
    const { token, cookie } = await exchange(who);
    await tick();
    expect(hitsOf(who)).toEqual([expect.objectContaining({ method: 'POST', token })]);
    for (let i = 0; i < 24; i += 1) {
      clock.advance(MIN / 4);
      await use(cookie);
      await tick();
    }
    expect(hitsOf(who)).toHaveLength(1);

    // A companion down for longer than five minutes never gets the stale token.
    const late = await person();
    companion.failing = true;
    await exchange(late);
    for (let i = 0; i < 14; i += 1) {
      await tick();
      clock.advance(MIN / 2);
    }
    companion.failing = false;
    for (let i = 0; i < 10; i += 1) {
      clock.advance(MIN / 2);
      await tick();
    }
    expect(hitsOf(late)).toHaveLength(0);
    const [expired] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.status, 'failed'))
      .orderBy(desc(notifications.id));
    expect(expired).toMatchObject({ channel: 'token-sync', kind: 'token-sync.post' });
    expect(expired.lastError).toMatch(/minutes old when the companion service could take it/);
  });

  test('local sign-in sends nothing: it has no identity token', async () => {
    const before = await t.database.db.select().from(tokenSyncs);
    const who = await person();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: who.email, password: TEST_PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.database.db.select().from(tokenSyncs)).toHaveLength(before.length);
    await tick();
    expect(companion.hits.filter((h) => decodeJwt(h.token).email === who.email)).toHaveLength(0);
  });

  test('the browser is never involved: the content-security policy still connects to its own origin only', async () => {
    const res = await t.app.inject({ url: '/api/auth/options' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('127.0.0.1');
  });
});

describe('token sync off', () => {
  test('nothing is stored or sent, and no offline access is asked for', async () => {
    const off = await createTestApp({
      clock,
      env: {
        OIDC_ISSUER: issuer.issuer,
        OIDC_CLIENT_ID: CLIENT,
        OIDC_CLIENT_SECRET: 'baton-test-secret',
        PUBLIC_URL: 'http://baton.test',
      },
    });
    try {
      const start = await off.app.inject({ url: '/api/auth/oidc/start' });
      const params = new URL(String(start.headers.location)).searchParams;
      expect(params.get('scope')).toBe('openid email profile');
      expect(params.get('prompt')).toBe('select_account');
      const who = { ...(await off.createUser({ email: 'off.person@example.com' })), sub: 'off-1' };
      await signIn(who, off);
      await tokenSyncTask(
        { config: off.config, database: off.database, cipher: off.cipher, clock },
        clock.now(),
      );
      expect(await off.database.db.select().from(tokenSyncs)).toHaveLength(0);
      expect(
        await off.database.db
          .select()
          .from(notifications)
          .where(eq(notifications.channel, 'token-sync')),
      ).toHaveLength(0);
      expect(hitsOf(who)).toHaveLength(0);
    } finally {
      await off.close();
    }
  });
});
