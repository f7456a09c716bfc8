import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import { SESSION_ELEMENT_ID } from '../../shared/contracts/page-session';
import { buildApp } from '../app';
import { pageWithSession } from './app-page';

/*
 * The app's page carries the signed-in user (issue 35): what GET /api/auth/user answers, in a JSON
 * data block, for the session's browser only and never stored; nobody else's page has it.
 */

let t: TestApp;
let app: Awaited<ReturnType<typeof buildApp>>;
const INDEX =
  '<!doctype html><html><head><title>Baton</title></head><body><div id="root"></div></body></html>';
const BLOCK = new RegExp(
  `<script type="application/json" id="${SESSION_ELEMENT_ID}">(.*?)</script>`,
);

beforeAll(async () => {
  t = await createTestApp();
  const clientDir = await mkdtemp(path.join(os.tmpdir(), 'baton-client-'));
  await writeFile(path.join(clientDir, 'index.html'), INDEX);
  await writeFile(path.join(clientDir, 'app.js'), 'console.log(1)');
  app = await buildApp({ ...t, clientDir, logger: false });
});
afterAll(async () => {
  await app.close();
  await t.close();
});

const page = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { accept: 'text/html,application/xhtml+xml', ...headers } });

describe('a page of the app', () => {
  test('signed in: it carries the answer of GET /api/auth/user in the head, and is never stored', async () => {
    const user = await t.createUser({ name: 'Olivia </script><b>Ortiz', roles: ['on-call'] });
    const cookie = await t.cookieFor(user);
    const me = await app.inject({ url: '/api/auth/user', headers: { cookie } });
    for (const url of ['/', '/rotations/12']) {
      const res = await page(url, { cookie });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
      const block = BLOCK.exec(res.body);
      expect(block, res.body).not.toBeNull();
      // Escaped: the name cannot close the block.
      expect(block?.[1]).not.toContain('<');
      expect(JSON.parse(block?.[1] ?? '')).toEqual(me.json());
      expect(res.body.indexOf(block?.[0] ?? '')).toBeLessThan(res.body.indexOf('</head>'));
    }
  });

  test('signed out, with a forged or ended session, or asked for a file: the page as built', async () => {
    for (const headers of [{}, { cookie: 'baton_session=forged' }] as Record<string, string>[]) {
      const res = await page('/', headers);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
    const user = await t.createUser({ roles: ['on-call'] });
    const cookie = await t.cookieFor(user);
    await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie, origin: 'http://localhost:80' },
    });
    expect((await page('/', { cookie })).body).toBe(INDEX);
    const asset = await app.inject({ url: '/app.js', headers: { cookie } });
    expect(asset.body).toBe('console.log(1)');
  });
});

describe('pageWithSession', () => {
  test('nobody signed in: the page unchanged', () => {
    expect(pageWithSession(INDEX, null)).toBe(INDEX);
  });
  test('escapes what could end the block or start markup', async () => {
    const user = await t.createUser({ name: 'A\u2028B & <C>', roles: ['on-call'] });
    const html = pageWithSession(INDEX, user);
    const json = BLOCK.exec(html)?.[1] ?? '';
    expect(json).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(json).user.name).toBe('A\u2028B & <C>');
  });
});
