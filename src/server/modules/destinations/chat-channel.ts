import { createHash, createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import { type Channel, DeliveryError } from '../../core/delivery';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { destinations } from '../../db/schema';
import { type HostLookup, type OutboundRule, outboundRule } from '../../http/outbound-address';
import { OutboundError, REDIRECT_NOT_FOLLOWED, sendOutbound } from '../../http/outbound-request';

/**
 * The chat channel (decision 221): the outbox's sender of destinations' messages. It reads the
 * destination's URL (and a webhook's secret) when it sends, so a changed URL applies to messages
 * already waiting, posts the stored JSON body, and classifies the answer as the other channels
 * do: 2xx sent; 408, 429, 5xx and no answer retried with the outbox's backoff; any other answer
 * refused for good. It keeps the destination's failing state: the first failure of a run sets
 * `failing_since`, a delivery clears it. It posts through sendOutbound (decision 234): an address
 * inside the network is refused at the connection, a redirect is not followed, and of the answer
 * only the status is kept, in Baton's words ("HTTP 204"), never the receiver's body.
 */

/** destinationRule is the address rule destinations follow in this deployment (decision 234). */
export function destinationRule(
  config: Pick<Config, 'isProduction' | 'destinationAllowedCidrs'>,
): OutboundRule {
  return outboundRule({
    isProduction: config.isProduction,
    allowedCidrs: config.destinationAllowedCidrs,
  });
}

export const urlCtx = (destinationId: number) => ({
  table: 'destinations',
  column: 'url',
  rowId: destinationId,
});
export const secretCtx = (destinationId: number) => ({
  table: 'destinations',
  column: 'secret',
  rowId: destinationId,
});

/**
 * webhookMessageId is a message's Standard Webhooks `webhook-id`: derived from the outbox row's
 * dedupe key, so every retry of one message carries the same id and receivers can drop repeats.
 */
export function webhookMessageId(dedupeKey: string): string {
  return `msg_${createHash('sha256').update(dedupeKey).digest('base64url').slice(0, 27)}`;
}

/**
 * signWebhook signs a body by the Standard Webhooks scheme: HMAC-SHA256 over
 * `{id}.{timestamp}.{body}` keyed with the base64-decoded part of the `whsec_` secret, sent as
 * `v1,<base64>`.
 */
export function signWebhook(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key)
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${mac}`;
}

export interface ChatChannelDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  timeoutMs?: number;
  /** the address rule: destinationRule(config) */
  rule: OutboundRule;
  /** how host names resolve (absent: the system's resolver); tests map made-up names */
  lookup?: HostLookup;
  /** called after a failed delivery, once the failing state is recorded (tells the owners) */
  onFailure?: (destinationId: number, now: Date) => Promise<void>;
}

const USER_AGENT = 'Baton-Webhooks/1.0';

/** createChatChannel makes the outbox's chat channel. */
export function createChatChannel(deps: ChatChannelDeps): Channel {
  const timeoutMs = deps.timeoutMs ?? 10_000;

  const markFailing = async (destinationId: number) => {
    const now = deps.clock.now();
    await deps.db
      .update(destinations)
      .set({ failingSince: sql`coalesce(${destinations.failingSince}, ${now})` })
      .where(eq(destinations.id, destinationId));
    await deps.onFailure?.(destinationId, now);
  };

  return {
    name: 'chat',
    async send(message) {
      const destinationId = Number(message.to);
      const [destination] = await deps.db
        .select()
        .from(destinations)
        .where(eq(destinations.id, destinationId));
      if (!destination) throw new DeliveryError('The destination was deleted', true);
      const url = deps.cipher.decrypt(destination.urlEnc, urlCtx(destinationId));
      const body = JSON.stringify(message.body ?? {});
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
      };
      if (destination.kind === 'webhook' && destination.secretEnc) {
        const secret = deps.cipher.decrypt(destination.secretEnc, secretCtx(destinationId));
        const id = webhookMessageId(message.idempotencyKey ?? `${destinationId}:${body}`);
        const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
        headers['webhook-id'] = id;
        headers['webhook-timestamp'] = String(timestamp);
        headers['webhook-signature'] = signWebhook(secret, id, timestamp, body);
      }
      let status: number;
      try {
        ({ status } = await sendOutbound({
          url,
          headers,
          body,
          timeoutMs,
          rule: deps.rule,
          lookup: deps.lookup,
        }));
      } catch (err) {
        await markFailing(destinationId);
        if (!(err instanceof OutboundError)) throw err;
        // An address inside the network stays refused until the URL changes: not retried.
        throw new DeliveryError(`Not delivered: ${err.reason}`, err.failure === 'refused');
      }
      if (status >= 200 && status < 300) {
        await deps.db
          .update(destinations)
          .set({ lastDeliveredAt: deps.clock.now(), failingSince: null, failingToldAt: null })
          .where(eq(destinations.id, destinationId));
        return `HTTP ${status}`;
      }
      await markFailing(destinationId);
      // A webhook URL that redirects elsewhere is not followed: the URL is what was approved.
      if (status >= 300 && status < 400) {
        throw new DeliveryError(
          `The destination answered ${status}: ${REDIRECT_NOT_FOLLOWED}`,
          true,
        );
      }
      const retry = status === 408 || status === 429 || status >= 500;
      throw new DeliveryError(`The destination answered ${status}`, !retry);
    },
  };
}
