import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { startRuntime } from '../bootstrap';
import { ManualClock } from '../core/clock';
import { findUserRowByEmail, toUser } from '../modules/users/user-repository';
import { secretsPath } from '../secrets';
import {
  BACKUP_DUMP,
  BACKUP_MANIFEST,
  BACKUP_SECRETS,
  backupPglite,
  restorePglite,
} from './backup';

const dirs: string[] = [];
const tempDir = async (name: string) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), `baton-${name}-`));
  dirs.push(dir);
  return dir;
};
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

test('a demo data directory backed up and restored into a new one reads the same people, personal fields included', async () => {
  const dataDir = await tempDir('data');
  const outDir = await tempDir('backups');
  const restoredDir = path.join(await tempDir('restored'), 'data');
  const env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  const clock = new ManualClock('2026-11-28T05:00:00Z');

  const before = await startRuntime(env, clock);
  const email = `priya.patel@${before.config.companyDomain}`;
  const original = await findUserRowByEmail(before.database.db, before.cipher, email);
  expect(original).toBeDefined();
  const originalUser = toUser(original as never, before.cipher);

  // While Baton holds the data directory the backup is refused, naming why.
  await expect(
    backupPglite({ dataDir, outDir, now: clock.now(), batonVersion: 'test' }),
  ).rejects.toThrow(/Stop Baton first/);
  await before.database.close();

  const { folder, manifest } = await backupPglite({
    dataDir,
    outDir,
    now: clock.now(),
    batonVersion: 'test',
  });
  expect(path.basename(folder)).toBe('baton-backup-2026-11-28T05-00-00-000Z');
  expect(existsSync(path.join(folder, BACKUP_DUMP))).toBe(true);
  expect(await readFile(path.join(folder, BACKUP_SECRETS), 'utf8')).toBe(
    await readFile(secretsPath(dataDir), 'utf8'),
  );
  expect(JSON.parse(await readFile(path.join(folder, BACKUP_MANIFEST), 'utf8'))).toEqual(manifest);
  expect(manifest.withSecrets).toBe(true);
  expect(manifest.migrations).toBeGreaterThan(10);

  await restorePglite({ folder, dataDir: restoredDir });
  const after = await startRuntime({ ...env, DATA_DIR: restoredDir }, clock);
  try {
    const restored = await findUserRowByEmail(after.database.db, after.cipher, email);
    expect(toUser(restored as never, after.cipher)).toEqual(originalUser);
  } finally {
    await after.database.close();
  }

  // Never over a database: a restore into a data directory that has one is refused.
  await expect(restorePglite({ folder, dataDir: restoredDir })).rejects.toThrow(
    /already holds a database/,
  );
});

test('a folder that is not a backup, and a data directory without a database, are refused with a message', async () => {
  const empty = await tempDir('empty');
  await expect(
    backupPglite({ dataDir: empty, outDir: empty, now: new Date(), batonVersion: 'test' }),
  ).rejects.toThrow(`There is no Baton database in ${empty} to back up.`);
  await expect(restorePglite({ folder: empty, dataDir: path.join(empty, 'data') })).rejects.toThrow(
    /is not a Baton backup/,
  );
  // the refused restore created no database
  expect(existsSync(path.join(empty, 'data', 'pgdata'))).toBe(false);
});
