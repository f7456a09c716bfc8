import { createHash, ECDH } from 'node:crypto';
import https from 'node:https';
import { isIP } from 'node:net';
import webpush from 'web-push';
import type { PushNotice } from '../../../shared/contracts/push';
import type { Config } from '../../core/config';
import {
  bareHost,
  guardedLookup,
  type HostLookup,
  type OutboundRule,
  outboundRule,
  resolveOutbound,
} from '../../http/outbound-address';
import type { VapidKeys } from './vapid-keys';

/**
 * Sending one push to one device (decision 253), through web-push: VAPID (ES256) and the
 * aes128gcm content encoding. The push service's host goes through the outbound address rule
 * (decision 234): in production never inside the network; outside production loopback passes, so
 * tests use a loopback push service. The rule is checked in the connection's own lookup, so the
 * address checked is the address connected to.
 */

/** How long the push service keeps a push for a device that is offline, in seconds. */
export const PUSH_TTL_SECONDS = 3600;
/** A push service that has not answered within this long has failed (retried). */
const TIMEOUT_MS = 10_000;

/** pushRule: where push endpoints may be, in this deployment (the outbound rule, no extra ranges). */
export function pushRule(config: Pick<Config, 'isProduction'>): OutboundRule {
  return outboundRule({ isProduction: config.isProduction, allowedCidrs: [] });
}

/** A device as a push is sent to it. */
export interface PushTarget {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface PushSendOptions {
  vapid: VapidKeys;
  rule: OutboundRule;
  /** how names resolve (absent: the system's resolver); tests map made-up names */
  lookup?: HostLookup;
  /** certificate authorities to trust instead of the system's (tests' loopback push service) */
  ca?: string;
  timeoutMs?: number;
  /** RFC 8030's Topic (`pushTopic`): a repeat replaces a push the service still holds */
  topic?: string;
}

/** What became of one push: accepted, the device is gone (404, 410), or failed. */
export type PushOutcome =
  | { kind: 'sent'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'failed'; retry: boolean; reason: string };

/**
 * pushTopic names a notification for the push service (RFC 8030's Topic header): the same for
 * every attempt at one notification, so a repeat sent after a lost answer replaces the first
 * while the push service still holds it for an offline device. The service sees the header in
 * clear: a digest of the notification's key, never the key, cut to the 32 characters allowed.
 */
export function pushTopic(notificationKey: string): string {
  return createHash('sha256').update(notificationKey).digest('base64url').slice(0, 32);
}

/** webPushUrgency: high for a high-urgency incident, else normal (RFC 8030's Urgency header). */
export function webPushUrgency(notice: PushNotice): 'high' | 'normal' {
  return notice.urgency === 'high' ? 'high' : 'normal';
}

/**
 * keysProblem says why a device's keys cannot encrypt a push (RFC 8291: `p256dh` a point on P-256,
 * `auth` 16 bytes), or null. A push sent with them would fail in the library as if the push
 * service were unreachable, and be retried for ever.
 */
export function keysProblem(keys: PushTarget['keys']): string | null {
  try {
    const auth = Buffer.from(keys.auth, 'base64url');
    if (auth.length !== 16) return "The device's auth secret is not 16 bytes";
    ECDH.convertKey(Buffer.from(keys.p256dh, 'base64url'), 'prime256v1');
    return null;
  } catch {
    return "The device's public key is not a P-256 point";
  }
}

/**
 * sendPush sends one notice to one device and tells what the push service answered; it never
 * throws. 201 (or any 2xx) sent; 404 and 410 gone, the device unsubscribed; 429, 5xx and no
 * answer worth retrying; any other answer refused for good.
 */
export async function sendPush(
  target: PushTarget,
  notice: PushNotice,
  options: PushSendOptions,
): Promise<PushOutcome> {
  let url: URL;
  try {
    url = new URL(target.endpoint);
    if (url.protocol !== 'https:') {
      return { kind: 'failed', retry: false, reason: 'The endpoint is not https' };
    }
    const host = bareHost(url.hostname);
    // An address literal never reaches the lookup: checked here. A name is checked in the lookup.
    if (isIP(host) !== 0) await resolveOutbound(host, options.rule);
  } catch (err) {
    return { kind: 'failed', retry: false, reason: (err as Error).message };
  }
  // Keys that cannot encrypt a push never will: refused for good, before any connection.
  const badKeys = keysProblem(target.keys);
  if (badKeys) return { kind: 'failed', retry: false, reason: badKeys };
  // A fresh connection each time: no kept socket to an address checked for another push.
  const agent = new https.Agent({
    keepAlive: false,
    lookup: guardedLookup(options.rule, options.lookup),
    ...(options.ca ? { ca: options.ca } : {}),
  });
  try {
    const answer = await webpush.sendNotification(target, JSON.stringify(notice), {
      vapidDetails: {
        subject: options.vapid.subject,
        publicKey: options.vapid.publicKey,
        privateKey: options.vapid.privateKey,
      },
      TTL: PUSH_TTL_SECONDS,
      urgency: webPushUrgency(notice),
      contentEncoding: 'aes128gcm',
      ...(options.topic ? { topic: options.topic } : {}),
      agent,
      timeout: options.timeoutMs ?? TIMEOUT_MS,
    });
    return { kind: 'sent', status: answer.statusCode };
  } catch (err) {
    if (err instanceof webpush.WebPushError) {
      const status = err.statusCode;
      if (status === 404 || status === 410) return { kind: 'gone', status };
      const retry = status === 408 || status === 429 || status >= 500;
      return { kind: 'failed', retry, reason: `The push service answered ${status}` };
    }
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'OUTBOUND_ADDRESS_REFUSED') {
      return { kind: 'failed', retry: false, reason: e.message };
    }
    return { kind: 'failed', retry: true, reason: `The push service is unreachable: ${e.message}` };
  } finally {
    agent.destroy();
  }
}
