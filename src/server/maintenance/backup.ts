import { existsSync, readdirSync } from 'node:fs';
import { chmod, copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import {
  closeToOthers,
  DataDirLockedError,
  lockDataDir,
  ownerOnlyDirectory,
  PGLITE_START_PARAMS,
} from '../db/client';
import type { DataDirLock } from '../db/data-dir-lock';
import { secretsPath } from '../secrets';

/**
 * Backups of the embedded database (decision 227, docs/backup-and-upgrade.md): `npm run backup`
 * writes a folder with PGlite's own dump of its data directory (`dumpDataDir`, a gzipped tar),
 * the demo secrets file when there is one (the encryption key: without it the personal fields
 * of a backup cannot be read), and a manifest; `npm run restore` loads such a folder into an
 * empty data directory. PGlite admits one process, so both hold the data directory's lock, and
 * refuse while Baton runs on it. PostgreSQL is backed up with `pg_dump`.
 */

export const BACKUP_DUMP = 'pgdata.tar.gz';
export const BACKUP_MANIFEST = 'manifest.json';
export const BACKUP_SECRETS = 'secrets.json';

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

export interface BackupManifest {
  createdAt: string;
  batonVersion: string;
  /** how many migrations the database had applied: a restore needs a Baton at least this new */
  migrations: number;
  /** whether the encryption key (the demo secrets file) is in the backup */
  withSecrets: boolean;
}

/** holdDataDir runs work with the data directory's lock, refusing while Baton runs on it. */
async function holdDataDir<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  let lock: DataDirLock;
  try {
    lock = await lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      throw new BackupError(
        `${err.message} Stop Baton first: the embedded database admits one process.`,
      );
    }
    throw err;
  }
  try {
    return await work();
  } finally {
    await lock.release();
  }
}

/** backupPglite writes a backup of dataDir's database into a new folder under outDir. */
export async function backupPglite(input: {
  dataDir: string;
  outDir: string;
  now: Date;
  batonVersion: string;
}): Promise<{ folder: string; manifest: BackupManifest }> {
  const pgDir = path.join(input.dataDir, 'pgdata');
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    throw new BackupError(`There is no Baton database in ${input.dataDir} to back up.`);
  }
  const stamp = input.now.toISOString().replace(/[:.]/g, '-');
  const folder = path.join(input.outDir, `baton-backup-${stamp}`);
  if (existsSync(folder)) throw new BackupError(`${folder} already exists.`);
  return holdDataDir(input.dataDir, async () => {
    const client = await PGlite.create(pgDir, { startParams: PGLITE_START_PARAMS });
    let dump: Blob;
    let migrations: number;
    try {
      const applied = await client.query<{ count: number }>(
        'select count(*)::int as count from drizzle.__drizzle_migrations',
      );
      migrations = applied.rows[0]?.count ?? 0;
      dump = await client.dumpDataDir('gzip');
    } finally {
      await client.close();
    }
    await mkdir(folder, { recursive: true, mode: 0o700 });
    await writeFile(path.join(folder, BACKUP_DUMP), Buffer.from(await dump.arrayBuffer()), {
      mode: 0o600,
    });
    const secrets = secretsPath(input.dataDir);
    const withSecrets = existsSync(secrets);
    if (withSecrets) await copyFile(secrets, path.join(folder, BACKUP_SECRETS));
    const manifest: BackupManifest = {
      createdAt: input.now.toISOString(),
      batonVersion: input.batonVersion,
      migrations,
      withSecrets,
    };
    await writeFile(path.join(folder, BACKUP_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, {
      mode: 0o600,
    });
    return { folder, manifest };
  });
}

/** restorePglite loads a backup folder into dataDir, which must hold no database yet. */
export async function restorePglite(input: {
  folder: string;
  dataDir: string;
}): Promise<BackupManifest> {
  const dumpFile = path.join(input.folder, BACKUP_DUMP);
  const manifestFile = path.join(input.folder, BACKUP_MANIFEST);
  if (!existsSync(dumpFile) || !existsSync(manifestFile)) {
    throw new BackupError(
      `${input.folder} is not a Baton backup: it needs ${BACKUP_DUMP} and ${BACKUP_MANIFEST}.`,
    );
  }
  const manifest = JSON.parse(await readFile(manifestFile, 'utf8')) as BackupManifest;
  const pgDir = path.join(input.dataDir, 'pgdata');
  if (existsSync(pgDir) && readdirSync(pgDir).length > 0) {
    throw new BackupError(
      `${input.dataDir} already holds a database: restore into an empty data directory (a new DATA_DIR), never over one.`,
    );
  }
  await holdDataDir(input.dataDir, async () => {
    await ownerOnlyDirectory(pgDir);
    const dump = new Blob([await readFile(dumpFile)]);
    const client = await PGlite.create(pgDir, {
      startParams: PGLITE_START_PARAMS,
      loadDataDir: dump,
    });
    try {
      await client.query('select 1');
    } finally {
      await client.close();
    }
    closeToOthers(pgDir);
    const secrets = path.join(input.folder, BACKUP_SECRETS);
    if (existsSync(secrets)) {
      await copyFile(secrets, secretsPath(input.dataDir));
      await chmod(secretsPath(input.dataDir), 0o600);
    }
  });
  return manifest;
}
