import { createHash } from 'node:crypto';
import { lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { usedIdTokens } from '../../db/schema';

/**
 * replayKey returns what identifies one use of an ID token: its issuer and nonce, or its jti, or
 * the token itself when it has neither; hashed, so no token material is stored.
 */
export function replayKey(
  token: string,
  claims: { issuer: string; nonce: string | null; jti: string | null },
): string {
  const key = claims.nonce
    ? `${claims.issuer} nonce ${claims.nonce}`
    : claims.jti
      ? `${claims.issuer} jti ${claims.jti}`
      : `token ${token}`;
  return createHash('sha256').update(key).digest('base64url');
}

/**
 * claimIdToken records one use of an ID token until `expiresAt` and returns true, or returns false
 * when the same key is already recorded and not yet expired. One statement, so two instances
 * accepting the same token at once cannot both win (decision 011). Expired records are swept.
 */
export async function claimIdToken(
  db: Db,
  keyHash: string,
  expiresAt: Date,
  now: Date,
): Promise<boolean> {
  await db.delete(usedIdTokens).where(lte(usedIdTokens.expiresAt, now));
  const claimed = await db
    .insert(usedIdTokens)
    .values({ keyHash, expiresAt })
    .onConflictDoUpdate({
      target: usedIdTokens.keyHash,
      set: { expiresAt },
      setWhere: sql`${usedIdTokens.expiresAt} <= ${now}`,
    })
    .returning({ keyHash: usedIdTokens.keyHash });
  return claimed.length === 1;
}
