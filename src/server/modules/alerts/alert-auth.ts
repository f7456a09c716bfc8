import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../core/clock';

/**
 * How a monitoring tool proves itself to the inbound alert endpoints (issue 17, decision 211): the
 * integration key (in the place each vendor's client puts it), Grafana's HMAC signature when the
 * integration has a signing secret, and a per-key request rate.
 */

/** The headers Grafana's webhook contact point signs with (its timestamp header is named by us). */
export const GRAFANA_SIGNATURE_HEADER = 'x-grafana-alerting-signature';
export const GRAFANA_TIMESTAMP_HEADER = 'x-grafana-alerting-timestamp';
/** How far a signed request's timestamp may be from Baton's clock, either way. */
export const SIGNATURE_WINDOW_MS = 5 * 60 * 1000;

/**
 * keyFromAuthorization returns the credentials of an `Authorization: <scheme> <key>` header when
 * its scheme is one of `schemes` (any case, as HTTP schemes are), or undefined.
 */
export function keyFromAuthorization(
  header: string | string[] | undefined,
  schemes: readonly string[],
): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return undefined;
  const [, scheme, key] = match;
  return schemes.some((s) => s.toLowerCase() === scheme.toLowerCase()) ? key : undefined;
}

/** keyFromQuery returns `?token=` when it is given once as text, or undefined. */
export function keyFromQuery(query: unknown, name = 'token'): string | undefined {
  if (query === null || typeof query !== 'object') return undefined;
  const value = (query as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

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

/**
 * KeyRateLimiter counts each integration's requests in one-second windows of the app's clock, in
 * this process's memory (decision 211): a request beyond the integration's limit in the current
 * second is refused until the next second starts.
 */
export class KeyRateLimiter {
  private readonly windows = new Map<number, { second: number; count: number }>();
  constructor(private readonly clock: Clock) {}

  /** take counts one request; it returns 0 when it may pass, else the seconds to wait (≥ 1). */
  take(integrationId: number, perSecond: number): number {
    const ms = this.clock.now().getTime();
    const second = Math.floor(ms / 1000);
    const window = this.windows.get(integrationId);
    if (!window || window.second !== second) {
      if (this.windows.size > 10_000) this.prune(second);
      this.windows.set(integrationId, { second, count: 1 });
      return 0;
    }
    if (window.count >= perSecond) return 1;
    window.count += 1;
    return 0;
  }

  private prune(second: number) {
    for (const [id, w] of this.windows) if (w.second !== second) this.windows.delete(id);
  }
}

/** jsonNestingExceeds tells whether JSON text nests arrays and objects deeper than `max`. */
export function jsonNestingExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth -= 1;
  }
  return false;
}
