import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CommandError, parseArgs } from '../../../../scripts/import-command';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { ManualClock } from '../../core/clock';
import { fakeAccount, IMPORT_NOW, readersFor } from './import-routes.fixtures';

/**
 * `npm run import` (issue 34, decision 268): the command run as a process against a listening
 * Baton with an administrator's API token, the source's key in IMPORT_API_KEY: it prints the plan,
 * applies and verifies, and exits non-zero on a refusal.
 */

const TSX = path.resolve('node_modules/tsx/dist/cli.mjs');
const SCRIPT = path.resolve('scripts/import.ts');

let t: TestApp;
let baton: string;
let token: string;
let readToken: string;
const account = fakeAccount();

beforeAll(async () => {
  t = await createTestApp({
    clock: new ManualClock(IMPORT_NOW),
    importReaders: readersFor(() => account),
  });
  const admin = await t.createUser({
    name: 'Ada Admin',
    email: 'admin@example.com',
    roles: ['admin'],
  });
  for (const [name, email] of [
    ['Ada Baton', 'ada@example.com'],
    ['Ben Baton', 'ben@example.com'],
    ['Cy Baton', 'cy@example.com'],
  ]) {
    await t.createUser({ name, email, roles: ['on-call'] });
  }
  const made = async (scope: 'read' | 'write') =>
    (await t.call(admin, 'POST', '/api/user/tokens', { name: `import ${scope}`, scope })).json()
      .token as string;
  token = await made('write');
  readToken = await made('read');
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baton = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
});

function run(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [TSX, SCRIPT, ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('the command line', () => {
  test('flags: one mode, no key as a flag', () => {
    expect(parseArgs(['pagerduty', '--plan', '--api-url', 'https://api.pagerduty.com'])).toEqual({
      source: 'pagerduty',
      mode: 'plan',
      apiUrl: 'https://api.pagerduty.com',
    });
    expect(() => parseArgs(['pagerduty', '--plan', '--api-key', 'secret'])).toThrow(
      new CommandError(
        'Give the key in IMPORT_API_KEY, not as a flag: a flag lands in the shell history',
      ),
    );
    expect(() => parseArgs(['jira', '--plan'])).toThrow(/Choose a source/);
    expect(() => parseArgs(['csv'])).toThrow(/Give --plan or --apply/);
  });

  test('--plan prints the plan and writes nothing else', async () => {
    const { code, out } = await run(['pagerduty', '--plan'], {
      BATON_URL: baton,
      BATON_TOKEN: token,
      IMPORT_API_KEY: 'read-only-key',
    });
    expect(out).toContain('5 to create, 0 to update, 0 unchanged, 1 to invite');
    expect(out).toContain('invite   Dee New <dee@example.com>');
    expect(out).toContain('create    rotation “Platform” (P123)');
    expect(out).toContain('Nothing written yet. To apply: npm run import -- pagerduty --apply');
    expect(code).toBe(0);
  }, 60_000);

  test('--apply applies, lists the endpoints, verifies and exits 0 when complete', async () => {
    const { code, out } = await run(['pagerduty', '--apply'], {
      BATON_URL: baton,
      BATON_TOKEN: token,
      IMPORT_API_KEY: 'read-only-key',
    });
    expect(out).toMatch(
      /Platform API \(replaces PagerDuty Platform API\)\n {4}URL: http\S+\n {4}Key: \S{20,}/,
    );
    expect(out).toContain('Baton matches the source. Import complete.');
    expect(code).toBe(0);
  }, 60_000);

  test('refusals exit 1 with the message: no key, a read-only token, no Baton', async () => {
    const noKey = await run(['pagerduty', '--plan'], { BATON_URL: baton, BATON_TOKEN: token });
    expect(noKey.out).toContain("Set IMPORT_API_KEY to the source's read-only API key");
    expect(noKey.code).toBe(1);
    const readOnly = await run(['pagerduty', '--plan'], {
      BATON_URL: baton,
      BATON_TOKEN: readToken,
      IMPORT_API_KEY: 'k',
    });
    expect(readOnly.out).toMatch(/^Baton refused \(403\): /);
    expect(readOnly.code).toBe(1);
    const unavailable = await run(['opsgenie', '--plan'], {
      BATON_URL: baton,
      BATON_TOKEN: token,
      IMPORT_API_KEY: 'k',
    });
    expect(unavailable.out).toBe('Baton refused (422): This source is not available yet\n');
    expect(unavailable.code).toBe(1);
    const nobody = await run(['pagerduty', '--plan'], {
      BATON_URL: 'http://127.0.0.1:9',
      BATON_TOKEN: token,
      IMPORT_API_KEY: 'k',
    });
    expect(nobody.out).toContain('Could not reach Baton at http://127.0.0.1:9');
    expect(nobody.code).toBe(1);
  }, 120_000);
});
