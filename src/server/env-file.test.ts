import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { ConfigError } from './core/config';
import { loadEnvFile } from './env-file';

/** `.env` (decision 225): read when present, with what the environment already sets winning. */

const names = ['BATON_ENV_FILE_TEST_A', 'BATON_ENV_FILE_TEST_B', 'BATON_ENV_FILE_TEST_C'];
let dir: string | undefined;
afterEach(async () => {
  for (const name of names) delete process.env[name];
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('reads KEY=value lines, comments and quotes; a variable already set wins', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'baton-env-'));
  const file = path.join(dir, '.env');
  await writeFile(
    file,
    [
      '# settings for this machine',
      'BATON_ENV_FILE_TEST_A=from-file',
      'BATON_ENV_FILE_TEST_B="quoted # not a comment"',
      'BATON_ENV_FILE_TEST_C=from-file',
      '',
    ].join('\n'),
  );
  process.env.BATON_ENV_FILE_TEST_C = 'from-environment';
  expect(loadEnvFile(file)).toBe(file);
  expect(process.env.BATON_ENV_FILE_TEST_A).toBe('from-file');
  expect(process.env.BATON_ENV_FILE_TEST_B).toBe('quoted # not a comment');
  expect(process.env.BATON_ENV_FILE_TEST_C).toBe('from-environment');
});

test('no file: nothing is read; a file that cannot be read stops start-up naming it', async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'baton-env-'));
  expect(loadEnvFile(path.join(dir, '.env'))).toBeNull();
  const notAFile = path.join(dir, 'folder.env');
  await mkdir(notAFile);
  expect(() => loadEnvFile(notAFile)).toThrow(ConfigError);
  expect(() => loadEnvFile(notAFile)).toThrow(`Could not read the settings file ${notAFile}`);
});
