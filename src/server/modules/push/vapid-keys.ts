import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { pushKeys } from '../../db/schema';

/**
 * Baton's VAPID key pair (decision 253): VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY when configured;
 * else a pair generated once, on first use, and kept in `push_keys` with the private key sealed
 * like the other secrets at rest. Every instance reads the same row: the first to insert wins.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

const ROW_ID = 1;
const privateCtx = { table: 'push_keys', column: 'private_key', rowId: ROW_ID };

export interface VapidDeps {
  config: Pick<Config, 'vapid'>;
  db: Db;
  cipher: FieldCipher;
}

/** readOrCreateVapidKeys answers the configured pair, or the stored one, generating it once. */
export async function readOrCreateVapidKeys(deps: VapidDeps): Promise<VapidKeys> {
  const { publicKey, privateKey, subject } = deps.config.vapid;
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  const stored = await readStored(deps);
  if (stored) return { ...stored, subject };
  const fresh = webpush.generateVAPIDKeys();
  await deps.db
    .insert(pushKeys)
    .values({
      id: ROW_ID,
      publicKey: fresh.publicKey,
      privateKeyEnc: deps.cipher.encrypt(fresh.privateKey, privateCtx),
    })
    .onConflictDoNothing({ target: pushKeys.id });
  // Another instance may have inserted first: the stored pair is the one.
  const kept = await readStored(deps);
  if (!kept) throw new Error('The VAPID key pair could not be stored');
  return { ...kept, subject };
}

async function readStored(deps: VapidDeps) {
  const [row] = await deps.db.select().from(pushKeys).where(eq(pushKeys.id, ROW_ID));
  if (!row) return null;
  return {
    publicKey: row.publicKey,
    privateKey: deps.cipher.decrypt(row.privateKeyEnc, privateCtx),
  };
}

/**
 * vapidKeysOf: the pair, read once per process (a key rotation re-seals the private key but
 * does not change it; the pair only changes if someone replaces it, with a restart).
 */
export function vapidKeysOf(deps: VapidDeps): () => Promise<VapidKeys> {
  let pending: Promise<VapidKeys> | null = null;
  return () => {
    pending ??= readOrCreateVapidKeys(deps).catch((err) => {
      pending = null;
      throw err;
    });
    return pending;
  };
}
