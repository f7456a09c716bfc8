import { createHmac, timingSafeEqual } from 'node:crypto';

/** The headers Grafana's webhook contact point signs with (its timestamp header is named by us). */
export const GRAFANA_SIGNATURE_HEADER = 'x-grafana-alerting-signature';
export const GRAFANA_TIMESTAMP_HEADER = 'x-grafana-alerting-timestamp';
/** How far a signed request's timestamp may be from Baton's clock, either way. */
export const SIGNATURE_WINDOW_MS = 5 * 60 * 1000;

export type SignatureCheck = 'ok' | 'missing' | 'wrong';

/**
 * checkGrafanaSignature tells whether a request carries Grafana's HMAC of its body: the signature
 * header is hex HMAC-SHA256 under the secret of `<timestamp>:<body>`, the timestamp (Unix seconds,
 * in its own header) within SIGNATURE_WINDOW_MS of `now`. 'missing' when either header is absent.
 */
export function checkGrafanaSignature(input: {
  secret: string;
  body: string;
  signature: string | string[] | undefined;
  timestamp: string | string[] | undefined;
  now: Date;
}): SignatureCheck {
  const { signature, timestamp } = input;
  if (typeof signature !== 'string' || signature === '') return 'missing';
  if (typeof timestamp !== 'string' || timestamp === '') return 'missing';
  if (!/^\d{1,12}$/.test(timestamp.trim())) return 'wrong';
  const sentAt = Number(timestamp.trim()) * 1000;
  if (Math.abs(input.now.getTime() - sentAt) > SIGNATURE_WINDOW_MS) return 'wrong';
  const expected = createHmac('sha256', input.secret)
    .update(`${timestamp.trim()}:${input.body}`)
    .digest();
  const given = signature.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(given)) return 'wrong';
  // Compared in constant time: a byte-by-byte answer would let a sender guess the HMAC.
  return timingSafeEqual(expected, Buffer.from(given, 'hex')) ? 'ok' : 'wrong';
}

/** grafanaSignature signs a body as Grafana does (for tests and the screen's curl example). */
export function grafanaSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('hex');
}
