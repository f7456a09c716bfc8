import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/setup/test-app';
import { buildApp, redactUrl } from './app';
import { BATON_VERSION } from './core/version';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (
  payload: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => t.app.inject({ method: 'POST', url: '/api/auth/login', payload, headers });

describe('errors are JSON { message, code?, fields? } and never 500 for bad input', () => {
  test.each([
    ['malformed JSON', () => post('{"email": '), 400, 'The request body is not valid JSON.'],
    ['an empty JSON body', () => post(''), 400, 'The request body is not valid JSON.'],
    [
      'wrong types',
      () => post('{"email": [], "password": 5}'),
      400,
      'email: Invalid input: expected string, received array',
    ],
    [
      'an oversized body',
      () => post(JSON.stringify({ email: 'a', password: 'x'.repeat(200_000) })),
      413,
      'The request body is too large.',
    ],
    [
      'another content type',
      () => post('email=a', { 'content-type': 'application/x-www-form-urlencoded' }),
      415,
      'Unsupported content type; send JSON.',
    ],
    ['an unknown API path', () => t.app.inject({ url: '/api/no-such-thing' }), 404, 'Not found'],
    [
      'an unknown API method',
      () => t.app.inject({ method: 'DELETE', url: '/api/auth/user' }),
      404,
      'Not found',
    ],
  ])('%s', async (_name, send, status, message) => {
    const res = await send();
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    const body = res.json();
    expect(body.message).toBe(message);
    expect(JSON.stringify(body)).not.toMatch(/stack|node_modules|at \w+ \(/);
  });

  test('field errors name each field', async () => {
    const res = await post('{"email": "", "password": ""}');
    expect(res.json()).toEqual({
      message: 'email: Email is required',
      code: 'VALIDATION_FAILED',
      fields: { email: 'Email is required', password: 'Password is required' },
    });
  });
});

describe('cross-site requests', () => {
  test('a state change from another origin is refused with 403', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'https://evil.example.net', host: 'baton.example.com' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Cross-site request refused.');
  });

  test('a state change from Baton itself passes', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { origin: 'http://baton.example.com', host: 'baton.example.com' },
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('health and the single-page app', () => {
  test('healthz, /api/health and readyz, each naming the version', async () => {
    const alive = { status: 'ok', version: BATON_VERSION };
    expect((await t.app.inject({ url: '/healthz' })).json()).toEqual(alive);
    expect((await t.app.inject({ url: '/api/health' })).json()).toEqual(alive);
    expect(BATON_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    const ready = await t.app.inject({ url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', version: BATON_VERSION });
  });

  test('readyz answers 503 when the database is gone', async () => {
    const broken = await buildApp({
      ...t,
      logger: false,
      database: { ...t.database, ping: () => Promise.reject(new Error('down')) },
    });
    const res = await broken.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({
      message: 'Database is not reachable',
      code: 'SERVICE_UNAVAILABLE',
    });
    await broken.close();
  });

  test('every other path serves the app, which shows its own not-found screen', async () => {
    const clientDir = await mkdtemp(path.join(os.tmpdir(), 'baton-client-'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await writeFile(path.join(clientDir, 'app.js'), 'console.log(1)');
    const app = await buildApp({ ...t, clientDir, logger: false });
    for (const url of ['/', '/rotations/12', '/some/unknown/path', '/login?next=%2F']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
    const asset = await app.inject({ url: '/app.js' });
    expect(asset.headers['content-type']).toMatch(/javascript/);
    const csp = String((await app.inject({ url: '/' })).headers['content-security-policy']);
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self'");
    expect((await app.inject({ url: '/api/missing' })).statusCode).toBe(404);
    await app.close();
  });

  test('the hash-named files of the build are kept by the browser and sent compressed; the rest is asked again (decision 276)', async () => {
    const clientDir = await mkdtemp(path.join(os.tmpdir(), 'baton-client-'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    await mkdir(path.join(clientDir, 'assets'));
    await writeFile(path.join(clientDir, 'assets', 'index-CBvpcqpQ.js'), 'console.log(1)');
    await writeFile(path.join(clientDir, 'sw.js'), 'self.skipWaiting()');
    await writeFile(path.join(clientDir, 'manifest.webmanifest'), '{}');
    const app = await buildApp({ ...t, clientDir, logger: false });
    const asset = await app.inject({ url: '/assets/index-CBvpcqpQ.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // the build's compressed copy, to a browser that accepts it (the file itself otherwise)
    await writeFile(
      path.join(clientDir, 'assets', 'index-CBvpcqpQ.js.br'),
      brotliCompressSync('console.log(1)'),
    );
    const packed = await app.inject({
      url: '/assets/index-CBvpcqpQ.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(packed.headers['content-encoding']).toBe('br');
    expect(packed.headers['content-type']).toMatch(/javascript/);
    expect(packed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(packed.rawPayload).toString()).toBe('console.log(1)');
    const plain = await app.inject({
      url: '/assets/index-CBvpcqpQ.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    for (const url of ['/sw.js', '/manifest.webmanifest']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('public, max-age=0');
    }
    // a missing asset is the API's 404, never a cached answer
    const missing = await app.inject({ url: '/assets/gone-0000.js' });
    expect(missing.headers['cache-control']).not.toContain('immutable');
    await app.close();
  });

  test('an unknown path under a reserved prefix answers 404 JSON, never the app (decision 182)', async () => {
    const clientDir = await mkdtemp(path.join(os.tmpdir(), 'baton-client-'));
    await writeFile(path.join(clientDir, 'index.html'), '<!doctype html><div id="root"></div>');
    const app = await buildApp({ ...t, clientDir, logger: false });
    const requests: Array<[string, string]> = [
      ['GET', '/metrics'],
      ['GET', '/metrics?format=prometheus'],
      ['GET', '/openapi'],
      // /openapi.json itself leads to the API's document (decision 224); the rest stays 404.
      ['GET', '/openapi.yaml'],
      ['GET', '/openapi/v1'],
      ['GET', '/healthz/deep'],
      ['GET', '/.well-known/security.txt'],
      ['GET', '/api/nope'],
      ['POST', '/api/nope'],
      ['POST', '/metrics'],
      ['HEAD', '/openapi'],
    ];
    for (const [method, url] of requests) {
      const res = await app.inject({
        method: method as 'GET',
        url,
        headers: { origin: 'http://localhost:80' },
      });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers['content-type'], `${method} ${url}`).toMatch(/application\/json/);
      if (method !== 'HEAD') {
        expect(res.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND' });
      }
    }
    const page = await app.inject({ url: '/no-such-page' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('<div id="root">');
    await app.close();
  });
});

describe('request URLs in the logs carry no secrets', () => {
  test.each([
    ['/api/invitations/abc.def/validate', '/api/invitations/:token/validate'],
    ['/api/pages/ack/v1.secret-token', '/api/pages/ack/:token'],
    ['/api/calendar/feeds/feed-secret-123/me.ics', '/api/calendar/feeds/:token/me.ics'],
    [
      '/api/calendar/feeds/feed-secret-123/rotations/4.ics',
      '/api/calendar/feeds/:token/rotations/4.ics',
    ],
    ['/api/rotations?search=alice@example.com', '/api/rotations'],
    ['/api/rotations/7', '/api/rotations/7'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
