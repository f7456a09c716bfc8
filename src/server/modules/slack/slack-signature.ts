import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Slack's request signature (decision 222): `X-Slack-Signature` is `v0=` and the hex HMAC-SHA256,
 * keyed by the app's signing secret, of `v0:{X-Slack-Request-Timestamp}:{raw body}`. A request
 * more than five minutes from Baton's clock is refused, so a captured one cannot be replayed later.
 */

export const SLACK_SIGNATURE_HEADER = 'x-slack-signature';
export const SLACK_TIMESTAMP_HEADER = 'x-slack-request-timestamp';
/** How far a request's timestamp may be from Baton's clock, either way. */
export const SLACK_SIGNATURE_WINDOW_MS = 5 * 60_000;

/** slackSignature computes the signature Slack sends for a timestamp (seconds) and a raw body. */
export function slackSignature(signingSecret: string, timestamp: string, rawBody: string): string {
  const digest = createHmac('sha256', signingSecret)
    .update(`v0:${timestamp}:${rawBody}`, 'utf8')
    .digest('hex');
  return `v0=${digest}`;
}

/**
 * isValidSlackSignature tells whether the request is Slack's: a timestamp of whole seconds within
 * five minutes of `now`, and the signature of that timestamp and the raw body, compared in constant
 * time (a signature of another length is refused without comparing).
 */
export function isValidSlackSignature(
  signingSecret: string,
  request: { timestamp: unknown; signature: unknown; rawBody: string | undefined },
  now: Date,
): boolean {
  const { timestamp, signature, rawBody } = request;
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (typeof signature !== 'string' || typeof rawBody !== 'string') return false;
  if (Math.abs(Number(timestamp) * 1000 - now.getTime()) > SLACK_SIGNATURE_WINDOW_MS) return false;
  const expected = Buffer.from(slackSignature(signingSecret, timestamp, rawBody), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
