import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { checkGrafanaSignature, grafanaSignature, SIGNATURE_WINDOW_MS } from './grafana-signature';

describe('checkGrafanaSignature', () => {
  const secret = 's3cret-signing';
  const body = '{"status":"firing"}';
  const now = new Date('2026-11-02T12:00:00Z');
  const ts = String(now.getTime() / 1000);
  // Grafana's documented calculation: hex HMAC-SHA256 of "<timestamp>:<body>".
  const reference = createHmac('sha256', secret).update(`${ts}:${body}`).digest('hex');
  const check = (signature: string | undefined, timestamp: string | undefined, b = body) =>
    checkGrafanaSignature({ secret, body: b, signature, timestamp, now });

  test('grafanaSignature signs as Grafana documents it', () => {
    expect(grafanaSignature(secret, ts, body)).toBe(reference);
  });

  test.each([
    ['the right signature', reference, ts, 'ok'],
    ['upper-case hex', reference.toUpperCase(), ts, 'ok'],
    ['no signature', undefined, ts, 'missing'],
    ['no timestamp', reference, undefined, 'missing'],
    ['another secret', grafanaSignature('other', ts, body), ts, 'wrong'],
    ['the body alone signed', createHmac('sha256', secret).update(body).digest('hex'), ts, 'wrong'],
    ['not hex', 'xyz', ts, 'wrong'],
    ['a truncated signature', reference.slice(0, 63), ts, 'wrong'],
    ['a timestamp that is no number', reference, 'soon', 'wrong'],
    ['milliseconds for seconds', reference, String(now.getTime()), 'wrong'],
  ] as const)('%s → %s', (_what, signature, timestamp, expected) => {
    expect(check(signature, timestamp)).toBe(expected);
  });

  test('a tampered body fails', () => {
    expect(check(reference, ts, `${body} `)).toBe('wrong');
  });

  test('the timestamp must lie within 5 minutes of the clock, either way', () => {
    for (const [offset, expected] of [
      [-SIGNATURE_WINDOW_MS, 'ok'],
      [SIGNATURE_WINDOW_MS, 'ok'],
      [-SIGNATURE_WINDOW_MS - 1000, 'wrong'],
      [SIGNATURE_WINDOW_MS + 1000, 'wrong'],
    ] as const) {
      const at = String((now.getTime() + offset) / 1000);
      expect(check(grafanaSignature(secret, at, body), at), String(offset)).toBe(expected);
    }
  });
});
