import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { generateMasterKey } from './crypto/field-crypto';

/**
 * Demo secrets: outside production, when no ENCRYPTION_KEY or LOCAL_LOGIN_PASSWORD is configured,
 * Baton generates them once and keeps them in DATA_DIR/secrets.json, readable by its owner only.
 */
const SecretsSchema = z.object({
  encryptionKey: z.string(),
  previousEncryptionKeys: z.array(z.string()).default([]),
  localLoginPassword: z.string(),
});
export type DemoSecrets = z.infer<typeof SecretsSchema>;

export function secretsPath(dataDir: string): string {
  return path.join(dataDir, 'secrets.json');
}

/** loadOrCreateDemoSecrets reads DATA_DIR/secrets.json, creating it on first use. */
export async function loadOrCreateDemoSecrets(dataDir: string): Promise<DemoSecrets> {
  const file = secretsPath(dataDir);
  try {
    return SecretsSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`Cannot read ${file}: ${(err as Error).message}`);
    }
  }
  const secrets: DemoSecrets = {
    encryptionKey: generateMasterKey(),
    previousEncryptionKeys: [],
    localLoginPassword: randomBytes(12).toString('base64url'),
  };
  await saveDemoSecrets(dataDir, secrets);
  return secrets;
}

/** saveDemoSecrets writes the secrets file atomically with owner-only permissions. */
export async function saveDemoSecrets(dataDir: string, secrets: DemoSecrets): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = secretsPath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}
