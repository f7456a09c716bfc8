import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { ApiToken, CreatedApiToken } from '../../../shared/contracts/api-tokens';
import type { User } from '../../../shared/contracts/users';
import { hashToken } from '../../crypto/bearer-secrets';
import { apiTokens, auditEvents, rotations } from '../../db/schema';
import { insertIntegration, insertRotation } from '../../seed/factories';
import { liveSessions } from '../live/live-repository';

/**
 * Personal API tokens (issue 20, decision 223) through the API, on PGlite and (with
 * TEST_DATABASE_URL) PostgreSQL: made in a session, shown once, used as `Authorization: Bearer`
 * with the person's permissions narrowed by the scope, revoked, expired, and rate limited.
 */
let t: TestApp;
let admin: User;
let priya: User;
let noah: User;
const cookies = new Map<number, string>();
const START = '2026-11-02T12:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp({ env: { API_TOKEN_RATE_LIMIT: '5' } });
  admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
  priya = await t.createUser({ name: 'Priya Shah', roles: ['on-call'] });
  noah = await t.createUser({ name: 'Noah Nakamura', roles: ['on-call'] });
  for (const user of [admin, priya, noah]) cookies.set(user.id, await t.cookieFor(user));
});
afterAll(() => t.close());
beforeEach(() => t.clock.set(START));

const cookie = (user: User) => ({ cookie: cookies.get(user.id) as string });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createToken(
  user: User,
  body: Record<string, unknown> = { name: 'Script', scope: 'read' },
): Promise<CreatedApiToken> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/user/tokens',
    headers: cookie(user),
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A request made as a script does: a bearer token, no cookie, no Origin. */
function asScript(token: string, method: string, url: string, payload?: unknown) {
  return t.rawInject({
    method: method as 'GET',
    url,
    headers: bearer(token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

// Tokens are rate limited at 5 a minute in this file: each test moves the clock past the window.
let minute = 0;
function nextWindow() {
  minute += 2;
  t.clock.set(new Date(Date.parse(START) + minute * 60_000).toISOString());
}

describe('making and listing tokens', () => {
  test('a token is baton_ and 256 random bits, answered once, stored as its hash', async () => {
    const created = await createToken(priya, { name: 'Deploy bot', scope: 'write' });
    expect(created.token).toMatch(/^baton_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.token.slice('baton_'.length), 'base64url')).toHaveLength(32);
    expect(created).toMatchObject({
      name: 'Deploy bot',
      scope: 'write',
      tokenHint: created.token.slice(-4),
      createdAt: START,
      lastUsedAt: null,
      expiresAt: '2027-01-31T12:00:00.000Z', // 90 days by default
      owner: { id: priya.id, name: 'Priya Shah' },
    });
    const [row] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.token);
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);

    const list = await t.app.inject({
      method: 'GET',
      url: '/api/user/tokens',
      headers: cookie(priya),
    });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(created.token);
    const tokens = list.json().tokens as ApiToken[];
    expect(tokens.map((x) => x.id)).toContain(created.id);
    expect(tokens.every((x) => x.owner.id === priya.id)).toBe(true);
    expect(tokens.find((x) => x.id === created.id)).not.toHaveProperty('token');
  });

  test('the expiry is chosen in days, at most a year; bad input is 400 in the one shape', async () => {
    const yearly = await createToken(priya, { name: 'Yearly', scope: 'read', expiresInDays: 365 });
    expect(yearly.expiresAt).toBe('2027-11-02T12:00:00.000Z');
    for (const [body, field] of [
      [{ name: 'Long', scope: 'read', expiresInDays: 366 }, 'expiresInDays'],
      [{ name: 'Zero', scope: 'read', expiresInDays: 0 }, 'expiresInDays'],
      [{ name: 'Admin', scope: 'admin' }, 'scope'],
      [{ name: '', scope: 'read' }, 'name'],
      [{ name: 'a\u0000b', scope: 'read' }, 'name'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/user/tokens',
        headers: cookie(priya),
        payload: body,
      });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect(Object.keys(res.json().fields)).toContain(field);
    }
  });

  test('creating and revoking are in the audit trail, without the token', async () => {
    const created = await createToken(noah, { name: 'Audit me', scope: 'read' });
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/tokens/${created.id}`,
      headers: cookie(noah),
    });
    expect(revoked.statusCode).toBe(204);
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(noah.id)));
    const mine = events.filter((e) => (e.details as { tokenId?: number }).tokenId === created.id);
    expect(mine.map((e) => e.action).sort()).toEqual(['api_token.created', 'api_token.revoked']);
    expect(JSON.stringify(mine)).not.toContain(created.token);
    const trail = await t.app.inject({
      method: 'GET',
      url: '/api/audit-log/admin-events?action=api_token.created',
      headers: cookie(admin),
    });
    expect(trail.json().events[0]).toMatchObject({
      action: 'api_token.created',
      target: 'Noah Nakamura',
    });
  });
});

describe('using a token', () => {
  test('a read token lists rotations and is refused a pass with 403 naming its scope', async () => {
    nextWindow();
    const rotation = await insertRotation(t.database.db, {
      memberIds: [priya.id, noah.id],
      holderId: priya.id,
    });
    const { token } = await createToken(priya, { name: 'Reader', scope: 'read' });
    const list = await asScript(token, 'GET', '/api/rotations');
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json() as { id: number }[]).map((r) => r.id)).toContain(rotation.id);
    const pass = await asScript(token, 'POST', `/api/rotations/${rotation.id}/handoff`, {
      toUserId: noah.id,
    });
    expect(pass.statusCode).toBe(403);
    expect(pass.json()).toEqual({
      code: 'FORBIDDEN',
      message: expect.stringContaining("This API token's scope is read"),
    });
    const me = await asScript(token, 'GET', '/api/auth/user');
    expect(me.json()).toMatchObject({ user: { id: priya.id } });
  });

  test('a write token passes the baton without Origin or cookie; a cookie without Origin is still refused', async () => {
    nextWindow();
    const rotation = await insertRotation(t.database.db, {
      memberIds: [priya.id, noah.id],
      holderId: priya.id,
    });
    const { token } = await createToken(priya, { name: 'Writer', scope: 'write' });
    const refused = await t.rawInject({
      method: 'POST',
      url: `/api/rotations/${rotation.id}/handoff`,
      headers: cookie(priya),
      payload: { toUserId: noah.id },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/Origin/);
    const pass = await asScript(token, 'POST', `/api/rotations/${rotation.id}/handoff`, {
      toUserId: noah.id,
    });
    expect(pass.statusCode, pass.body).toBe(200);
    const [after] = await t.database.db
      .select({ holder: rotations.holderUserId })
      .from(rotations)
      .where(eq(rotations.id, rotation.id));
    expect(after.holder).toBe(noah.id);
  });

  test("a token has exactly its person's permissions: an on-call member's write token cannot delete a rotation", async () => {
    nextWindow();
    const rotation = await insertRotation(t.database.db, { memberIds: [priya.id] });
    const { token } = await createToken(priya, { name: 'Writer', scope: 'write' });
    const res = await asScript(token, 'DELETE', `/api/rotations/${rotation.id}`);
    expect(res.statusCode).toBe(403);
    const users = await asScript(token, 'GET', '/api/invitations');
    expect(users.statusCode).toBe(403);
  });

  test('a token cannot list, make or revoke tokens: those need a session', async () => {
    nextWindow();
    const { token, id } = await createToken(priya, { name: 'Writer', scope: 'write' });
    for (const [method, url, payload] of [
      ['GET', '/api/user/tokens', undefined],
      ['POST', '/api/user/tokens', { name: 'Child', scope: 'write' }],
      ['DELETE', `/api/user/tokens/${id}`, undefined],
    ] as const) {
      const res = await asScript(token, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toMatch(/managed from your profile/);
    }
  });

  test('a revoked token gets 401; so does an unknown one; the last use is recorded once a minute', async () => {
    nextWindow();
    const created = await createToken(noah, { name: 'Short lived', scope: 'read' });
    expect((await asScript(created.token, 'GET', '/api/rotations')).statusCode).toBe(200);
    const [used] = await t.database.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(used.lastUsedAt?.toISOString()).toBe(t.clock.now().toISOString());
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/tokens/${created.id}`,
      headers: cookie(noah),
    });
    expect(del.statusCode).toBe(204);
    const after = await asScript(created.token, 'GET', '/api/rotations');
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({
      code: 'UNAUTHENTICATED',
      message: 'The API token is not valid: it is unknown or was revoked.',
    });
    expect(after.headers['www-authenticate']).toMatch(/^Bearer/);
    for (const wrong of ['baton_nope', 'not-a-baton-token', '']) {
      expect((await asScript(wrong, 'GET', '/api/rotations')).statusCode, wrong).toBe(401);
    }
  });

  test('an expired token gets 401 saying so', async () => {
    nextWindow();
    const created = await createToken(noah, { name: 'Day', scope: 'read', expiresInDays: 1 });
    expect((await asScript(created.token, 'GET', '/api/rotations')).statusCode).toBe(200);
    t.clock.advance(86_400_000);
    const res = await asScript(created.token, 'GET', '/api/rotations');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(
      `The API token expired at ${created.expiresAt}. Create a new one in your profile.`,
    );
  });

  test("a deleted person's tokens stop working", async () => {
    nextWindow();
    const leaving = await t.createUser({ name: 'Leaving Soon', roles: ['on-call'] });
    cookies.set(leaving.id, await t.cookieFor(leaving));
    const { token } = await createToken(leaving, { name: 'Mine', scope: 'read' });
    expect((await asScript(token, 'GET', '/api/rotations')).statusCode).toBe(200);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${leaving.id}`,
      headers: cookie(admin),
    });
    expect(del.statusCode, del.body).toBeLessThan(300);
    expect((await asScript(token, 'GET', '/api/rotations')).statusCode).toBe(401);
  });

  test('the live stream opens with a token, and its re-check ends with the revocation', async () => {
    nextWindow();
    const created = await createToken(noah, { name: 'Watcher', scope: 'read' });
    const res = await asScript(created.token, 'GET', '/api/events');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.body).toContain('event: ready');
    const hash = hashToken(created.token);
    const live = await liveSessions(t.database.db, [hash], t.clock.now());
    expect(live).toEqual([expect.objectContaining({ tokenHash: hash, userId: noah.id })]);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/user/tokens/${created.id}`,
      headers: cookie(noah),
    });
    expect(await liveSessions(t.database.db, [hash], t.clock.now())).toEqual([]);
  });

  test('a bearer token wins over a cookie sent beside it', async () => {
    nextWindow();
    const { token } = await createToken(priya, { name: 'Reader', scope: 'read' });
    const res = await t.rawInject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { ...bearer(token), ...cookie(admin) },
    });
    expect(res.json()).toMatchObject({ user: { id: priya.id } });
  });

  test('integration keys are not API tokens: a bearer integration key opens no other route', async () => {
    nextWindow();
    const rotation = await insertRotation(t.database.db, { memberIds: [priya.id] });
    const { key } = await insertIntegration(t.database.db, t.cipher, {
      name: 'Grafana',
      rotationId: rotation.id,
    });
    const res = await asScript(key, 'GET', '/api/rotations');
    expect(res.statusCode).toBe(401);
  });
});

describe('revoking', () => {
  test("a person cannot revoke another's token (404), an administrator can", async () => {
    const created = await createToken(priya, { name: 'Theirs', scope: 'read' });
    const byNoah = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/tokens/${created.id}`,
      headers: cookie(noah),
    });
    expect(byNoah.statusCode).toBe(404);
    expect(byNoah.json()).toEqual({ code: 'NOT_FOUND', message: 'API token not found.' });
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/api-tokens',
      headers: cookie(admin),
    });
    expect(all.statusCode).toBe(200);
    expect(all.body).not.toContain(created.token);
    const owners = new Set((all.json().tokens as ApiToken[]).map((x) => x.owner.name));
    expect(owners.has('Priya Shah')).toBe(true);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/api-tokens', headers: cookie(noah) }))
        .statusCode,
    ).toBe(403);
    const byAdmin = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/tokens/${created.id}`,
      headers: cookie(admin),
    });
    expect(byAdmin.statusCode).toBe(204);
    expect((await asScript(created.token, 'GET', '/api/rotations')).statusCode).toBe(401);
  });
});

describe('rate limit', () => {
  test('each token answers RateLimit-* headers and 429 past its limit, in the one error shape', async () => {
    nextWindow();
    const { token } = await createToken(priya, { name: 'Busy', scope: 'read' });
    const other = await createToken(priya, { name: 'Quiet', scope: 'read' });
    for (let i = 1; i <= 5; i += 1) {
      const res = await asScript(token, 'GET', '/api/rotations');
      expect(res.statusCode).toBe(200);
      expect(res.headers['ratelimit-limit']).toBe('5');
      expect(res.headers['ratelimit-remaining']).toBe(String(5 - i));
      expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    }
    const over = await asScript(token, 'GET', '/api/rotations');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many requests with this API token. Try again in 60 seconds.',
    });
    expect(over.headers['retry-after']).toBe('60');
    expect(over.headers['ratelimit-remaining']).toBe('0');
    // Another token of the same person counts on its own; the window passes.
    expect((await asScript(other.token, 'GET', '/api/rotations')).statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await asScript(token, 'GET', '/api/rotations')).statusCode).toBe(200);
    // Sessions are not limited by it.
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/rotations',
      headers: cookie(priya),
    });
    expect(session.headers['ratelimit-limit']).toBeUndefined();
  });
});
