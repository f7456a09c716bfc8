import { and, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import { notifications, sessions, tokenSyncs } from '../../db/schema';
import type { EngineDeps, EngineTask } from '../../engine/engine-task';
import { enqueueTokenSyncMessages, tokenSyncKeyPrefix } from '../notifications/outbox';
import { type OidcClient, oidcClientOf, ProviderError } from '../oidc/oidc-client';
import { ACTIVE_WINDOW_MS, isRefreshDue, isSessionOver, refreshAfterMs } from './token-sync-rules';
import {
  deleteFinishedSyncs,
  endTokenSyncs,
  issuedAtOf,
  subjectOf,
  tokenSyncCtx,
} from './token-sync-service';

/** renewals that talk to the provider at once */
const RENEWAL_CONCURRENCY = 8;
/** no renewal starts this long after the first of a tick (the rest are due again next tick) */
const RENEWAL_BUDGET_MS = 5_000;

/**
 * The engine's token sync task (decision 228), while TOKEN_SYNC_URL is set: synced sessions that
 * expired (or whose session row is gone) end and queue their DELETE; active sessions' ID tokens
 * are renewed with their refresh token before they are five minutes old, and a POST is queued
 * unless one is still waiting (it will carry the renewed token); finished ones are deleted.
 */
export const tokenSyncTask: EngineTask = async (deps, now) => {
  if (!deps.config.tokenSyncUrl) return;
  await endOverSyncs(deps, now);
  const client = oidcClientOf(deps.config);
  if (client) await renewDueTokens(deps, client, now);
  await deleteFinishedSyncs(deps.database.db);
};

async function endOverSyncs(deps: EngineDeps, now: Date) {
  const { db } = deps.database;
  const open = await db
    .select({
      id: tokenSyncs.id,
      lastSeenAt: sessions.lastSeenAt,
      idleExpiresAt: sessions.idleExpiresAt,
      absoluteExpiresAt: sessions.absoluteExpiresAt,
    })
    .from(tokenSyncs)
    .leftJoin(sessions, eq(sessions.tokenHash, tokenSyncs.sessionTokenHash))
    .where(
      and(
        isNull(tokenSyncs.endedAt),
        sql`(${sessions.tokenHash} is null or ${sessions.idleExpiresAt} <= ${now} or ${sessions.absoluteExpiresAt} <= ${now})`,
      ),
    );
  const over = open
    .filter((row) =>
      isSessionOver(
        {
          session:
            row.lastSeenAt && row.idleExpiresAt && row.absoluteExpiresAt
              ? {
                  lastSeenAt: row.lastSeenAt,
                  idleExpiresAt: row.idleExpiresAt,
                  absoluteExpiresAt: row.absoluteExpiresAt,
                }
              : null,
        },
        now,
      ),
    )
    .map((row) => row.id);
  if (over.length === 0) return;
  await db.transaction((tx) => endTokenSyncs(tx, deps.cipher, now, { ids: over }));
}

async function renewDueTokens(deps: EngineDeps, client: OidcClient, now: Date) {
  const { db } = deps.database;
  const refreshAfter = refreshAfterMs(deps.config);
  const candidates = await db
    .select({ sync: tokenSyncs, session: sessions })
    .from(tokenSyncs)
    .innerJoin(sessions, eq(sessions.tokenHash, tokenSyncs.sessionTokenHash))
    .where(
      and(
        isNull(tokenSyncs.endedAt),
        isNotNull(tokenSyncs.refreshTokenEnc),
        lte(tokenSyncs.issuedAt, new Date(now.getTime() - refreshAfter)),
        sql`${sessions.lastSeenAt} >= ${new Date(now.getTime() - ACTIVE_WINDOW_MS)}`,
      ),
    )
    .orderBy(tokenSyncs.issuedAt);
  const due = candidates.filter(({ sync, session }) =>
    isRefreshDue({ issuedAt: sync.issuedAt, renewable: true, session }, now, refreshAfter),
  );
  // The engine's other tasks wait for this one: renewals run a few at a time, oldest first, and
  // none starts after the tick's budget (a slow provider delays renewals, never handoffs).
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < due.length && performance.now() - started < RENEWAL_BUDGET_MS) {
      const { sync, session } = due[next];
      next += 1;
      await renewOne(deps, client, now, sync, session.userId);
    }
  };
  await Promise.all(Array.from({ length: RENEWAL_CONCURRENCY }, worker));
}

/**
 * renewOne renews one synced session's ID token. A provider that cannot be reached is tried
 * again next tick; one that refuses (the grant was revoked, the person is gone there) or renews
 * a token naming someone else ends the renewals: the refresh token is dropped, and the companion
 * keeps the last token until the session ends.
 */
async function renewOne(
  deps: EngineDeps,
  client: OidcClient,
  now: Date,
  sync: typeof tokenSyncs.$inferSelect,
  userId: number,
) {
  const { db } = deps.database;
  const { cipher } = deps;
  const refreshToken = cipher.decrypt(
    sync.refreshTokenEnc as string,
    tokenSyncCtx('refresh_token', sync.id),
  );
  const held = cipher.decrypt(sync.idTokenEnc, tokenSyncCtx('id_token', sync.id));
  let renewed: Awaited<ReturnType<OidcClient['renew']>>;
  try {
    renewed = await client.renew(refreshToken, now);
    if (subjectOf(renewed.idToken) !== subjectOf(held)) {
      throw new ProviderError('error', 'the renewed ID token names another person');
    }
  } catch (err) {
    if (err instanceof ProviderError && err.kind === 'unreachable') return;
    await db
      .update(tokenSyncs)
      .set({ refreshTokenEnc: null })
      .where(and(eq(tokenSyncs.id, sync.id), eq(tokenSyncs.issuedAt, sync.issuedAt)));
    return;
  }
  const issuedAt = issuedAtOf(renewed.idToken, now);
  await db.transaction(async (tx) => {
    // Conditional on the token it renewed: another instance's renewal of the same one wins once.
    const [updated] = await tx
      .update(tokenSyncs)
      .set({
        idTokenEnc: cipher.encrypt(renewed.idToken, tokenSyncCtx('id_token', sync.id)),
        issuedAt,
        ...(renewed.refreshToken
          ? {
              refreshTokenEnc: cipher.encrypt(
                renewed.refreshToken,
                tokenSyncCtx('refresh_token', sync.id),
              ),
            }
          : {}),
      })
      .where(
        and(
          eq(tokenSyncs.id, sync.id),
          eq(tokenSyncs.issuedAt, sync.issuedAt),
          isNull(tokenSyncs.endedAt),
        ),
      )
      .returning({ id: tokenSyncs.id });
    if (!updated) return;
    // One POST waits at a time: a waiting one sends the latest token when it goes.
    const [waiting] = await tx
      .select({ id: notifications.id })
      .from(notifications)
      .where(
        and(
          eq(notifications.status, 'pending'),
          sql`starts_with(${notifications.dedupeKey}, ${tokenSyncKeyPrefix(sync.id, 'POST')})`,
        ),
      )
      .limit(1);
    if (waiting) return;
    await enqueueTokenSyncMessages(tx, cipher, now, [
      { syncId: sync.id, method: 'POST', userId, key: String(issuedAt.getTime()) },
    ]);
  });
}
