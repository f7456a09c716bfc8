/**
 * npm run keys:rotate — re-encrypt every personal field under a new key.
 *
 * With ENCRYPTION_KEY configured: set ENCRYPTION_KEY to the new key and ENCRYPTION_KEYS_PREVIOUS to
 * the old one(s), run this, then drop ENCRYPTION_KEYS_PREVIOUS. Baton may keep running meanwhile.
 * In demo mode (key kept in DATA_DIR/secrets.json): this generates the new key itself.
 * Stop Baton first when it runs on PGlite: the embedded database admits one process.
 */
import { createCipher, resolveSecrets } from '../src/server/bootstrap';
import { loadConfig } from '../src/server/config';
import { generateMasterKey } from '../src/server/crypto/field-crypto';
import { reencryptAll } from '../src/server/crypto/key-rotation';
import { openDatabase } from '../src/server/db/client';
import { loadOrCreateDemoSecrets, saveDemoSecrets } from '../src/server/secrets';

async function main() {
  let config = loadConfig();
  const fromEnv = Boolean(config.encryptionKey);
  if (!fromEnv) {
    const secrets = await loadOrCreateDemoSecrets(config.dataDir);
    // Write the new key first, keeping the old one readable, so a crash midway loses nothing.
    secrets.previousEncryptionKeys = [secrets.encryptionKey, ...secrets.previousEncryptionKeys];
    secrets.encryptionKey = generateMasterKey();
    await saveDemoSecrets(config.dataDir, secrets);
  }
  config = (await resolveSecrets(config)).config;
  const cipher = createCipher(config);
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const count = await reencryptAll(database.db, cipher);
    if (!fromEnv) {
      const secrets = await loadOrCreateDemoSecrets(config.dataDir);
      secrets.previousEncryptionKeys = [];
      await saveDemoSecrets(config.dataDir, secrets);
    }
    process.stdout.write(
      `Re-encrypted ${count} values under key ${cipher.keyId}.${fromEnv ? ' You can now remove ENCRYPTION_KEYS_PREVIOUS.' : ''}\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((err) => {
  process.stderr.write(
    `Key rotation failed: ${err instanceof Error ? err.message : String(err)}\n`,
  );
  process.exit(1);
});
