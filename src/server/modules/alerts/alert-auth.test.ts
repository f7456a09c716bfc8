import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../core/clock';
import {
  checkGrafanaSignature,
  grafanaSignature,
  jsonNestingExceeds,
  KeyRateLimiter,
  keyFromAuthorization,
  keyFromQuery,
  SIGNATURE_WINDOW_MS,
} from './alert-auth';

describe('keyFromAuthorization', () => {
  test.each([
    ['GenieKey abc123', ['GenieKey'], 'abc123'],
    ['geniekey abc123', ['GenieKey'], 'abc123'],
    ['  Bearer   abc123 ', ['Bearer'], 'abc123'],
    ['Bearer abc123', ['GenieKey'], undefined],
    ['Basic dXNlcjpwYXNz', ['Bearer'], undefined],
    ['Bearer', ['Bearer'], undefined],
    ['Bearer a b', ['Bearer'], undefined],
    ['', ['Bearer'], undefined],
  ] as const)('%j with %j → %j', (header, schemes, key) => {
    expect(keyFromAuthorization(header, schemes)).toBe(key);
  });

  test('no header, or a repeated one, gives no key', () => {
    expect(keyFromAuthorization(undefined, ['Bearer'])).toBeUndefined();
    expect(keyFromAuthorization(['Bearer a', 'Bearer b'], ['Bearer'])).toBeUndefined();
  });
});

test('keyFromQuery takes ?token= given once as text', () => {
  expect(keyFromQuery({ token: 'abc' })).toBe('abc');
  expect(keyFromQuery({ token: ['a', 'b'] })).toBeUndefined();
  expect(keyFromQuery({ token: '' })).toBeUndefined();
  expect(keyFromQuery({})).toBeUndefined();
  expect(keyFromQuery(undefined)).toBeUndefined();
});

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

describe('KeyRateLimiter', () => {
  test('counts each integration apart, per second of the clock', () => {
    const clock = new ManualClock('2026-11-02T12:00:00.900Z');
    const limiter = new KeyRateLimiter(clock);
    expect([1, 2, 3].map(() => limiter.take(1, 2))).toEqual([0, 0, 1]);
    expect(limiter.take(2, 2)).toBe(0);
    clock.advance(100); // the next second
    expect([1, 2, 3].map(() => limiter.take(1, 2))).toEqual([0, 0, 1]);
    // A raised limit holds at once.
    expect(limiter.take(1, 5)).toBe(0);
  });
});

test('jsonNestingExceeds counts brackets outside strings only', () => {
  expect(jsonNestingExceeds('{"a":[[1]]}', 3)).toBe(false);
  expect(jsonNestingExceeds('{"a":[[[1]]]}', 3)).toBe(true);
  expect(jsonNestingExceeds(`{"a":"${'['.repeat(100)}"}`, 3)).toBe(false);
  expect(jsonNestingExceeds('{"a":"\\"[[[[[["}', 3)).toBe(false);
  expect(jsonNestingExceeds('['.repeat(10_000), 64)).toBe(true);
});
