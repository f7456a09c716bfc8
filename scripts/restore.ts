/**
 * npm run restore -- <backup folder> — load a backup made by `npm run backup` into DATA_DIR, which
 * must hold no database yet. Start Baton afterwards: it applies any newer migrations.
 */
import path from 'node:path';
import { loadConfig } from '../src/server/core/config';
import { BackupError, restorePglite } from '../src/server/maintenance/backup';

async function restore() {
  const folder = process.argv[2];
  if (!folder) throw new BackupError('Name the backup folder: npm run restore -- <folder>');
  const config = loadConfig();
  if (config.databaseUrl) {
    throw new BackupError('DATABASE_URL is set: restore PostgreSQL with pg_restore.');
  }
  const manifest = await restorePglite({ folder: path.resolve(folder), dataDir: config.dataDir });
  process.stdout.write(
    `Restored the backup of ${manifest.createdAt} (Baton ${manifest.batonVersion}) into ${config.dataDir}\n`,
  );
}

restore().catch((err) => {
  process.stderr.write(`Restore failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
