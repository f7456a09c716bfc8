import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { notifications, sessions, tokenSyncs } from '../../db/schema';
import { enqueueTokenSyncMessages, tokenSyncKeyPrefix } from '../notifications/outbox';

/**
 * The token sync's state changes (issue 21, decision 228), each in the caller's transaction:
 * a sign-in starts a synced session and queues its POST; the session's end queues the DELETE.
 */

/** tokenSyncCtx binds a sealed token to its synced session's row. */
export const tokenSyncCtx = (column: 'id_token' | 'refresh_token', id: number) => ({
  table: 'token_syncs',
  column,
  rowId: id,
});

/** issuedAtOf returns an ID token's iat (verified before it gets here), or `fallback`. */
export function issuedAtOf(idToken: string, fallback: Date): Date {
  const { iat } = decodeJwt(idToken);
  return typeof iat === 'number' ? new Date(iat * 1000) : fallback;
}

/** subjectOf returns an ID token's sub (a renewed token must name the same person). */
export function subjectOf(idToken: string): string | undefined {
  return decodeJwt(idToken).sub;
}

/** What a sign-in through the identity provider hands the token sync. */
export interface TokenSyncStart {
  source: 'oidc' | 'firebase';
  idToken: string;
  refreshToken?: string;
}

/**
 * startTokenSync records a new session's ID token (and refresh token), sealed, and queues the
 * POST that tells the companion service the person signed in.
 */
export async function startTokenSync(
  tx: Tx,
  cipher: FieldCipher,
  now: Date,
  session: { tokenHash: string; userId: number },
  start: TokenSyncStart,
): Promise<void> {
  const [id] = await allocateIds(tx, 'token_syncs');
  const issuedAt = issuedAtOf(start.idToken, now);
  await tx.insert(tokenSyncs).values({
    id,
    sessionTokenHash: session.tokenHash,
    source: start.source,
    idTokenEnc: cipher.encrypt(start.idToken, tokenSyncCtx('id_token', id)),
    issuedAt,
    refreshTokenEnc: cipher.encryptNullable(start.refreshToken, tokenSyncCtx('refresh_token', id)),
    createdAt: now,
  });
  await enqueueTokenSyncMessages(tx, cipher, now, [
    { syncId: id, method: 'POST', userId: session.userId, key: String(issuedAt.getTime()) },
  ]);
}

/** Which synced sessions end: one session's, every session of a person's, or these. */
export type TokenSyncEnd = { sessionTokenHash: string } | { userId: number } | { ids: number[] };

/**
 * endTokenSyncs ends the open synced sessions named: marks them ended, withdraws their POSTs
 * still waiting (the sign-in they announce is over, and sent after the DELETE they would leave
 * the companion believing the person is signed in), and queues one DELETE each. Runs before the
 * session rows go (sign-out, a person's deletion) or after they expired (the engine). Returns
 * how many ended; ending one twice does nothing.
 */
export async function endTokenSyncs(
  tx: Tx,
  cipher: FieldCipher,
  now: Date,
  which: TokenSyncEnd,
): Promise<number> {
  let where: SQL | undefined;
  if ('sessionTokenHash' in which) where = eq(tokenSyncs.sessionTokenHash, which.sessionTokenHash);
  else if ('userId' in which) {
    where = inArray(
      tokenSyncs.sessionTokenHash,
      tx
        .select({ tokenHash: sessions.tokenHash })
        .from(sessions)
        .where(eq(sessions.userId, which.userId)),
    );
  } else {
    if (which.ids.length === 0) return 0;
    where = inArray(tokenSyncs.id, which.ids);
  }
  const ended = await tx
    .update(tokenSyncs)
    .set({ endedAt: now })
    .where(and(where, isNull(tokenSyncs.endedAt)))
    .returning({ id: tokenSyncs.id, sessionTokenHash: tokenSyncs.sessionTokenHash });
  if (ended.length === 0) return 0;
  const owners = await tx
    .select({ tokenHash: sessions.tokenHash, userId: sessions.userId })
    .from(sessions)
    .where(
      inArray(
        sessions.tokenHash,
        ended.map((e) => e.sessionTokenHash).filter((h): h is string => h !== null),
      ),
    );
  const userOf = new Map(owners.map((o) => [o.tokenHash, o.userId]));
  await tx.delete(notifications).where(
    and(
      eq(notifications.channel, 'token-sync'),
      eq(notifications.status, 'pending'),
      sql`(${sql.join(
        ended.map(
          (e) => sql`starts_with(${notifications.dedupeKey}, ${tokenSyncKeyPrefix(e.id, 'POST')})`,
        ),
        sql` or `,
      )})`,
    ),
  );
  await enqueueTokenSyncMessages(
    tx,
    cipher,
    now,
    ended.map((e) => ({
      syncId: e.id,
      method: 'DELETE' as const,
      userId: 'userId' in which ? which.userId : (userOf.get(e.sessionTokenHash ?? '') ?? null),
    })),
  );
  return ended.length;
}

/**
 * deleteFinishedSyncs deletes the synced sessions whose DELETE is no longer waiting (delivered,
 * or failed for good): their sealed tokens go with them.
 */
export async function deleteFinishedSyncs(db: Db): Promise<void> {
  await db
    .delete(tokenSyncs)
    .where(
      and(
        sql`${tokenSyncs.endedAt} is not null`,
        sql`not exists (select 1 from ${notifications} where ${notifications.status} = 'pending' and ${notifications.dedupeKey} = 'token-sync:' || ${tokenSyncs.id} || ':delete')`,
      ),
    );
}
