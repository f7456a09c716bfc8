import { createECDH, randomBytes } from 'node:crypto';
import { expect, test } from 'vitest';
import { keysProblem, pushRule, sendPush } from './push-sender';

/**
 * A device whose keys cannot encrypt a push (a public key off the P-256 curve, an auth secret of
 * the wrong length) is refused for good before any connection, with why, not retried as if the
 * push service were unreachable (decision 253).
 */

const goodKey = () => createECDH('prime256v1').generateKeys().toString('base64url');
const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 7)]).toString('base64url');
const auth = randomBytes(16).toString('base64url');

test('keys on the curve with a 16-byte secret pass; anything else says why', () => {
  expect(keysProblem({ p256dh: goodKey(), auth })).toBeNull();
  expect(keysProblem({ p256dh: offCurve, auth })).toBe(
    "The device's public key is not a P-256 point",
  );
  expect(keysProblem({ p256dh: goodKey(), auth: randomBytes(8).toString('base64url') })).toBe(
    "The device's auth secret is not 16 bytes",
  );
});

test('a push to a device with a key off the curve fails for good, without a connection', async () => {
  const outcome = await sendPush(
    // 203.0.113.0/24 is documentation space: nothing answers there, so a connection would hang.
    { endpoint: 'https://push.example.com/send/abc', keys: { p256dh: offCurve, auth } },
    {
      title: 'Checkout is failing',
      body: 'High urgency',
      urgency: 'high',
      actions: [],
      data: { open: '/incidents/1' },
    },
    {
      vapid: {
        publicKey: goodKey(),
        privateKey: randomBytes(32).toString('base64url'),
        subject: 'mailto:ops@example.com',
      },
      rule: pushRule({ isProduction: false }),
      lookup: async () => [{ address: '203.0.113.9', family: 4 }],
      timeoutMs: 60_000,
    },
  );
  expect(outcome).toEqual({
    kind: 'failed',
    retry: false,
    reason: "The device's public key is not a P-256 point",
  });
});
