import { eq } from 'drizzle-orm';
import type { Clock } from '../../core/clock';
import { type Channel, DeliveryError } from '../../core/delivery';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { tokenSyncs } from '../../db/schema';
import { enqueueTokenSyncMessages } from '../notifications/outbox';
import { type SyncMethod, sendableToken } from './token-sync-rules';
import { tokenSyncCtx } from './token-sync-service';

/**
 * The token-sync channel (decision 228): the outbox's sender of the token sync's messages. It
 * reads the synced session's latest ID token when it sends, so a POST that waited while the
 * companion was down carries the token the engine renewed meanwhile, never one older than five
 * minutes (token-sync-rules.ts). Answers are classified as the chat channel's: 2xx delivered;
 * 408, 429, 5xx and no answer retried with the outbox's backoff; any other answer refused for
 * good. A delivered DELETE deletes the synced session, and its sealed tokens with it.
 */

export interface TokenSyncChannelDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  /** TOKEN_SYNC_URL */
  url: string;
  timeoutMs?: number;
}

const USER_AGENT = 'Baton-TokenSync/1.0';

/** createTokenSyncChannel makes the outbox's token-sync channel. */
export function createTokenSyncChannel(deps: TokenSyncChannelDeps): Channel {
  const timeoutMs = deps.timeoutMs ?? 10_000;

  /**
   * followRenewal: the engine renewed the token while this POST carried the one before (it saw
   * this POST waiting, so it queued none): the renewed token gets its own POST, keyed by its iat,
   * so it is queued once whoever notices first.
   */
  const followRenewal = async (sent: { id: number; issuedAt: Date }, userId: number | null) => {
    const [current] = await deps.db
      .select({ issuedAt: tokenSyncs.issuedAt, endedAt: tokenSyncs.endedAt })
      .from(tokenSyncs)
      .where(eq(tokenSyncs.id, sent.id));
    if (!current || current.endedAt || current.issuedAt <= sent.issuedAt) return;
    await enqueueTokenSyncMessages(deps.db, deps.cipher, deps.clock.now(), [
      { syncId: sent.id, method: 'POST', userId, key: String(current.issuedAt.getTime()) },
    ]);
  };

  return {
    name: 'token-sync',
    async send(message) {
      const { syncId, method, userId } = message.body as {
        syncId: number;
        method: SyncMethod;
        userId: number | null;
      };
      const [sync] = await deps.db.select().from(tokenSyncs).where(eq(tokenSyncs.id, syncId));
      if (!sync) throw new DeliveryError('The synced session is gone: nothing to send', true);
      if (method === 'POST' && sync.endedAt) {
        throw new DeliveryError('The person signed out before this sign-in was sent', true);
      }
      const sendable = sendableToken(method, sync.issuedAt, deps.clock.now());
      if (!sendable.send) throw new DeliveryError(sendable.reason, true);
      const token = deps.cipher.decrypt(sync.idTokenEnc, tokenSyncCtx('id_token', sync.id));
      let res: Response;
      try {
        res = await fetch(deps.url, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            'user-agent': USER_AGENT,
            // The same for every attempt of one message: a companion can drop a repeat.
            ...(message.idempotencyKey ? { 'idempotency-key': message.idempotencyKey } : {}),
          },
          // The token goes to the configured URL only, never where a redirect points.
          redirect: 'manual',
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (err) {
        const reason = (err as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable';
        throw new DeliveryError(
          `The companion service ${reason}: ${(err as Error).message}`,
          false,
        );
      }
      const text = (await res.text().catch(() => '')).slice(0, 500);
      if (res.status >= 200 && res.status < 300) {
        if (method === 'DELETE') {
          await deps.db.delete(tokenSyncs).where(eq(tokenSyncs.id, sync.id));
        } else {
          await followRenewal(sync, userId);
        }
        return `${res.status} ${text}`.trim();
      }
      const retry = res.status === 408 || res.status === 429 || res.status >= 500;
      throw new DeliveryError(`The companion service answered ${res.status}`, !retry, text);
    },
  };
}
