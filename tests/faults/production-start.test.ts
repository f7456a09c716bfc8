import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, expect, test } from 'vitest';
import { LOCAL_PASSWORD_IN_PRODUCTION } from '../../src/server/core/config';
import {
  FAULTS_KEY,
  LOCAL_PASSWORD,
  removeDir,
  spawnBaton,
  stopAll,
  tempDir,
} from './support/processes';

/**
 * The shared local password in production (issue 14, §1): a real `node dist/server/main.js` with
 * NODE_ENV=production and LOCAL_LOGIN_PASSWORD set refuses to start, with one clear line naming
 * the variable and why, no stack trace, and without touching its data directory. The same
 * process without the password starts, so the refusal is the password's.
 */

let dataDir: string;
beforeEach(async () => {
  dataDir = await tempDir('production');
});
afterEach(async () => {
  await stopAll();
  await removeDir(dataDir);
});
afterAll(async () => {
  await stopAll();
});

const production = () => ({
  NODE_ENV: 'production',
  ENCRYPTION_KEY: FAULTS_KEY,
  COMPANY_DOMAIN: 'example.com',
  DATA_DIR: path.join(dataDir, 'data'),
});

test('NODE_ENV=production with LOCAL_LOGIN_PASSWORD exits 1, naming the variable and why', async () => {
  const proc = spawnBaton({
    name: 'production-with-password',
    env: { ...production(), LOCAL_LOGIN_PASSWORD: LOCAL_PASSWORD },
  });
  // Without the refusal it would listen: that ends the wait at once, as a failure.
  const outcome = await Promise.race([
    proc.exited,
    proc.listening.then(() => 'listening' as const),
  ]);
  expect(outcome, proc.stdout()).not.toBe('listening');
  const { code, signal } = await proc.exited;
  expect(signal).toBeNull();
  expect(code).toBe(1);
  expect(proc.stderr()).toBe(
    `Invalid configuration:\n  LOCAL_LOGIN_PASSWORD: ${LOCAL_PASSWORD_IN_PRODUCTION}\n`,
  );
  expect(proc.stderr()).not.toMatch(/\n\s+at /);
  expect(proc.stderr()).not.toContain(LOCAL_PASSWORD);
  expect(proc.stdout()).not.toContain('Baton is running');
  expect(existsSync(path.join(dataDir, 'data'))).toBe(false);
});

test('the same production start without the password listens, and offers no local sign-in', async () => {
  // Listening (the banner), not /readyz: readiness in production has conditions of its own.
  const proc = spawnBaton({
    name: 'production-without-password',
    env: { ...production(), LOCAL_LOGIN_PASSWORD: '' },
  });
  await proc.listening;
  expect(proc.stdout()).not.toMatch(/password/i);
  const options = await fetch(`${proc.url}/api/auth/options`);
  expect(await options.json()).toMatchObject({ localLogin: false });
  const login = await fetch(`${proc.url}/api/auth/login`, {
    method: 'POST',
    headers: { origin: proc.url, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'avery.admin@example.com', password: LOCAL_PASSWORD }),
  });
  expect(login.status).toBe(404);
});
