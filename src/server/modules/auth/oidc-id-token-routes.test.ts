import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../../../../tests/setup/oidc-test-issuer';
import {
  cookieFrom,
  createTestApp,
  type TestApp,
  withOwnOrigin,
} from '../../../../tests/setup/test-app';
import { buildApp } from '../../app';
import { users } from '../../db/schema';
import { insertInvitation } from '../invitations/invitation-repository';

const PROJECT = 'baton-corpus';
const FIREBASE_ISSUER = `https://securetoken.google.com/${PROJECT}`;
const DAY = 86_400_000;

let issuer: TestIssuer;
let t: TestApp;
let seq = 0;

beforeAll(async () => {
  issuer = await startTestIssuer({ now: () => t.clock.now() });
  t = await createTestApp({
    env: { FIREBASE_PROJECT_ID: PROJECT, FIREBASE_JWKS_URL: issuer.jwksUrl },
  });
});
afterAll(async () => {
  await t.close();
  await issuer.close();
});

/** A fresh person's claims, as the provider would sign them for a valid token. */
function claims(overrides: Record<string, unknown> = {}) {
  seq += 1;
  return {
    iss: FIREBASE_ISSUER,
    aud: PROJECT,
    sub: `firebase-uid-${seq}`,
    email: `person.${seq}@example.com`,
    email_verified: true,
    name: `Person ${seq}`,
    nonce: `nonce-${seq}-${Math.random()}`,
    ...overrides,
  };
}

// Every token-corpus request comes from its own address: the endpoint is rate limited.
const post = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/firebase',
    payload: { token },
    headers: { 'x-forwarded-for': `198.51.100.${(seq % 250) + 1}` },
  });

const inviteFor = (email: string, role = 'manager') =>
  insertInvitation(t.database.db, t.cipher, {
    name: 'Invited Person',
    email,
    role,
    expiresAt: new Date(t.clock.now().getTime() + DAY),
    createdAt: t.clock.now(),
  });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('POST /api/auth/firebase: a token corpus, each refused with the right status', () => {
  test('a valid token of an invitee signs in, creating the user with the invited role', async () => {
    const c = claims();
    await inviteFor(c.email.toUpperCase());
    const res = await post(await issuer.sign(c));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ email: c.email, roles: ['manager'] });
    expect(cookieFrom(res.headers['set-cookie'])).toMatch(/^baton_session=/);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, res.json().user.id));
    expect(row.oidcIssuer).toBe(FIREBASE_ISSUER);
    expect(row.oidcSubject).toBe(c.sub);
  });

  const cases: [string, number, () => Promise<string>][] = [
    ['wrong audience', 401, async () => issuer.sign(claims({ aud: 'someone-else' }))],
    ['wrong issuer', 401, async () => issuer.sign(claims({ iss: 'https://evil.example.com' }))],
    [
      'expired',
      401,
      async () => {
        const iat = Math.floor(t.clock.now().getTime() / 1000) - 7200;
        return issuer.sign(claims({ iat, exp: iat + 3600 }));
      },
    ],
    [
      'not yet valid (nbf in the future)',
      401,
      async () => issuer.sign(claims({ nbf: Math.floor(t.clock.now().getTime() / 1000) + 600 })),
    ],
    [
      'issued in the future',
      401,
      async () => issuer.sign(claims({ iat: Math.floor(t.clock.now().getTime() / 1000) + 600 })),
    ],
    [
      'bad signature (another key claiming a published key id)',
      401,
      async () => {
        const forger = await issuer.addKey({ published: false });
        return issuer.sign(claims(), { key: forger, header: { kid: (await firstKid()) ?? '' } });
      },
    ],
    [
      'tampered payload',
      401,
      async () => {
        const [h, , s] = (await issuer.sign(claims())).split('.');
        return `${h}.${b64(claims({ email: 'avery.admin@example.com' }))}.${s}`;
      },
    ],
    [
      'alg none',
      401,
      async () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(await signedClaims())}.`,
    ],
    [
      'an algorithm outside the allow-list (HS256)',
      401,
      async () =>
        `${b64({ alg: 'HS256', kid: await firstKid() })}.${b64(await signedClaims())}.c2ln`,
    ],
    [
      'unknown key id',
      401,
      async () => issuer.sign(claims(), { key: await issuer.addKey({ published: false }) }),
    ],
    ['another party (azp)', 401, async () => issuer.sign(claims({ azp: 'other-client' }))],
    ['unverified email', 401, async () => issuer.sign(claims({ email_verified: false }))],
    ['no email', 401, async () => issuer.sign(claims({ email: undefined }))],
    [
      'wrong email domain',
      403,
      async () => issuer.sign(claims({ email: `outsider.${seq}@example.org` })),
    ],
    ['another hosted domain (hd)', 403, async () => issuer.sign(claims({ hd: 'example.org' }))],
    [
      'a verified person with neither a user nor an invitation',
      403,
      async () => issuer.sign(claims()),
    ],
  ];

  async function firstKid() {
    const res = await fetch(issuer.jwksUrl);
    return ((await res.json()) as { keys: { kid: string }[] }).keys[0]?.kid;
  }
  async function signedClaims() {
    const now = Math.floor(t.clock.now().getTime() / 1000);
    return { ...claims(), iat: now, exp: now + 3600 };
  }

  test.each(cases)('%s → %i', async (_name, status, make) => {
    const res = await post(await make());
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toEqual(expect.any(String));
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  test('a verified person without user or invitation gets the specification’s sentence, not their address', async () => {
    const c = claims();
    const res = await post(await issuer.sign(c));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message:
        'You do not have permission to access this application. Ask an administrator for an invitation.',
      code: 'FORBIDDEN',
    });
  });

  test('a replayed nonce is refused, even in a freshly signed token', async () => {
    const c = claims();
    await inviteFor(c.email);
    expect((await post(await issuer.sign(c))).statusCode).toBe(200);
    t.clock.advance(1000);
    const replay = await post(await issuer.sign(c));
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/already used/);
  });

  test('a token used on one instance is refused on another sharing the database', async () => {
    const c = claims();
    await inviteFor(c.email);
    const token = await issuer.sign(c);
    const other = await buildApp({ ...t, logger: false });
    withOwnOrigin(other);
    try {
      expect((await post(token)).statusCode).toBe(200);
      const replay = await other.inject({
        method: 'POST',
        url: '/api/auth/firebase',
        payload: { token },
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(replay.statusCode).toBe(401);
      expect(replay.json().message).toMatch(/already used/);
    } finally {
      await other.close();
    }
  });

  test('the same token twice is refused the second time', async () => {
    const c = claims({ nonce: undefined });
    await inviteFor(c.email);
    const token = await issuer.sign(c);
    expect((await post(token)).statusCode).toBe(200);
    expect((await post(token)).statusCode).toBe(401);
  });

  test('a returning user is recognised by the provider subject, whatever the email says now', async () => {
    const c = claims();
    await inviteFor(c.email, 'member');
    const first = await post(await issuer.sign(c));
    expect(first.statusCode).toBe(200);
    const again = await post(
      await issuer.sign({ ...c, email: `renamed.${seq}@example.com`, nonce: `n-${seq}-again` }),
    );
    expect(again.statusCode).toBe(200);
    expect(again.json().user.id).toBe(first.json().user.id);
  });

  test('an existing user is linked to the subject on first sign-in; another subject for the same email is refused', async () => {
    const user = await t.createUser({ email: `linked.${Date.now()}@example.com` });
    const c = claims({ email: user.email });
    expect((await post(await issuer.sign(c))).json().user.id).toBe(user.id);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row.oidcSubject).toBe(c.sub);
    const imposter = await post(await issuer.sign(claims({ email: user.email })));
    expect(imposter.statusCode).toBe(403);
  });

  test('the key set is refetched for an unknown key id at most every 30 s', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const before = issuer.jwksFetches();
      const late = await issuer.addKey({ alg: 'ES256' });
      const c = claims();
      await inviteFor(c.email);
      // Within the cooldown, the new key id is unknown and the set is not fetched again.
      const early = await post(await issuer.sign(c, { key: late }));
      expect(early.statusCode).toBe(401);
      expect(issuer.jwksFetches()).toBeLessThanOrEqual(before + 1);
      const fetchesAfterEarly = issuer.jwksFetches();
      expect((await post(await issuer.sign(claims(), { key: late }))).statusCode).toBe(401);
      expect(issuer.jwksFetches()).toBe(fetchesAfterEarly);
      vi.setSystemTime(Date.now() + 31_000);
      const res = await post(await issuer.sign({ ...c, nonce: 'after-cooldown' }, { key: late }));
      expect(res.statusCode, res.body).toBe(200);
      expect(issuer.jwksFetches()).toBe(fetchesAfterEarly + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  test('bad input is a 400, and the endpoint is off without an issuer', async () => {
    const bad = await t.app.inject({ method: 'POST', url: '/api/auth/firebase', payload: {} });
    expect(bad.statusCode).toBe(400);
    const off = await createTestApp();
    try {
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/auth/firebase',
        payload: { token: 'x' },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  test('sign-in attempts are rate limited', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.77' };
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/firebase',
        payload: { token: 'not.a.token' },
        headers,
      });
      codes.push(res.statusCode);
    }
    expect(codes.slice(0, 10).every((c) => c === 401)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});
