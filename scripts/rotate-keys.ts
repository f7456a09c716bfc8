/**
 * npm run keys:rotate — re-encrypt every personal field under a new key (rotateKeys).
 *
 * With ENCRYPTION_KEY configured: set ENCRYPTION_KEY to the new key and ENCRYPTION_KEYS_PREVIOUS to
 * the old one(s), run this, then drop ENCRYPTION_KEYS_PREVIOUS. Baton may keep running meanwhile.
 * In demo mode (key kept in DATA_DIR/secrets.json): this generates the new key itself.
 * Stop Baton first when it runs on PGlite: the embedded database admits one process.
 */
import { rotateKeys } from '../src/server/maintenance/key-rotation';

rotateKeys()
  .then(({ count, keyId, fromEnv }) => {
    process.stdout.write(
      `Re-encrypted ${count} values under key ${keyId}.${fromEnv ? ' You can now remove ENCRYPTION_KEYS_PREVIOUS.' : ''}\n`,
    );
  })
  .catch((err) => {
    process.stderr.write(
      `Key rotation failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exit(1);
  });
