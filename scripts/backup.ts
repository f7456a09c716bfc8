/**
 * npm run backup [-- <folder>] — back up the embedded database (PGlite) into a new folder under
 * <folder> (default: ./backups): PGlite's dump of its data directory, the demo secrets file (the
 * encryption key) when there is one, and a manifest. Stop Baton first: PGlite admits one process.
 * On PostgreSQL (DATABASE_URL set) use pg_dump (docs/backup-and-upgrade.md).
 */
import path from 'node:path';
import { loadConfig } from '../src/server/core/config';
import { BackupError, backupPglite } from '../src/server/maintenance/backup';

async function backup() {
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError(
      'DATABASE_URL is set: back up PostgreSQL with pg_dump (docs/backup-and-upgrade.md), and keep ENCRYPTION_KEY with the dump.',
    );
  }
  const { folder, manifest } = await backupPglite({
    dataDir: config.dataDir,
    outDir: path.resolve(process.argv[2] ?? 'backups'),
    now: new Date(),
    batonVersion: process.env.npm_package_version ?? 'unknown',
  });
  process.stdout.write(`Backed up ${config.dataDir} to ${folder}\n`);
  process.stdout.write(
    manifest.withSecrets
      ? 'The backup holds the encryption key (secrets.json): keep it as safe as the data.\n'
      : 'The encryption key is not in the backup: keep ENCRYPTION_KEY with it, or its personal fields cannot be read.\n',
  );
}

backup().catch((err) => {
  process.stderr.write(`Backup failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
