import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestIssuer, type TestIssuer } from '../../../../tests/setup/oidc-test-issuer';
import { cookieFrom, createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { SESSION_COOKIE, sessionCookie } from './session-service';

/**
 * The session cookie's name (decision 162): `__Host-baton_session` in production, so a browser
 * keeps it only Secure, on Path=/ and without a Domain; `baton_session` elsewhere. Production has
 * no local password (issue 14), so its sessions come from an identity provider: Firebase ID
 * tokens signed by a loopback issuer.
 */

const PROJECT = 'baton-cookie';
const ORIGIN = 'http://localhost:80';

test('sessionCookie: the prefixed name and Secure in production only, Path=/ always', () => {
  expect(sessionCookie({ isProduction: true })).toEqual({
    name: `__Host-${SESSION_COOKIE}`,
    options: { path: '/', httpOnly: true, sameSite: 'lax', secure: true },
  });
  expect(sessionCookie({ isProduction: false })).toMatchObject({
    name: SESSION_COOKIE,
    options: { path: '/', secure: false },
  });
});

describe('in production', () => {
  let issuer: TestIssuer;
  let t: TestApp;
  beforeAll(async () => {
    issuer = await startTestIssuer({ now: () => t.clock.now() });
    t = await createTestApp({
      env: {
        NODE_ENV: 'production',
        LOCAL_LOGIN_PASSWORD: undefined,
        FIREBASE_PROJECT_ID: PROJECT,
        FIREBASE_JWKS_URL: issuer.jwksUrl,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await issuer?.close();
  });

  async function signIn(email: string) {
    const user = await t.createUser({ email });
    const token = await issuer.sign({
      iss: `https://securetoken.google.com/${PROJECT}`,
      aud: PROJECT,
      sub: `uid-${user.id}`,
      email,
      email_verified: true,
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/firebase',
      headers: { origin: ORIGIN },
      payload: { token },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  }

  test('sign-in sets __Host-baton_session: Secure, HttpOnly, Path=/, no Domain', async () => {
    const res = await signIn('hana.host@example.com');
    const setCookie = [res.headers['set-cookie']].flat().join('\n');
    expect(setCookie).toMatch(/^__Host-baton_session=[\w-]{43}; /);
    expect(setCookie).toMatch(/; Path=\/(;|$)/);
    expect(setCookie).toMatch(/; Secure/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Lax/);
    expect(setCookie).not.toMatch(/Domain=/i);
  });

  test('the app reads the prefixed cookie and no longer the unprefixed one', async () => {
    const res = await signIn('ravi.reader@example.com');
    const cookie = cookieFrom(res.headers['set-cookie'], `__Host-${SESSION_COOKIE}`);
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().user.email).toBe('ravi.reader@example.com');

    // The same token under the unprefixed name (as a sibling subdomain could plant it) is no session.
    const planted = cookie.replace(`__Host-${SESSION_COOKIE}=`, `${SESSION_COOKIE}=`);
    const refused = await t.app.inject({ url: '/api/auth/user', headers: { cookie: planted } });
    expect(refused.statusCode).toBe(401);
  });

  test('logout clears the prefixed cookie with the attributes a browser needs to accept it', async () => {
    const res = await signIn('lou.logout@example.com');
    const cookie = cookieFrom(res.headers['set-cookie'], `__Host-${SESSION_COOKIE}`);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: ORIGIN },
    });
    expect(out.statusCode).toBe(200);
    const cleared = String(out.headers['set-cookie']);
    expect(cleared).toMatch(/^__Host-baton_session=; /);
    expect(cleared).toMatch(/; Path=\/(;|$)/);
    expect(cleared).toMatch(/; Secure/);
    const after = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(after.statusCode).toBe(401);
  });
});
