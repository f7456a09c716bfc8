import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type PushService, startPushService } from '../../../../tests/setup/push-service';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { pushSubscriptions } from '../../db/schema';
import { createPushChannel } from './push-channel';
import { pushRule } from './push-sender';
import { saveSubscription } from './push-subscription-repository';
import { vapidKeysOf } from './vapid-keys';

/**
 * A subscription never makes Baton call into its own network (decision 253, the rule of decision
 * 234): on a production configuration, an endpoint whose host is, or resolves to, a loopback,
 * private, link-local or metadata address is a 400 naming `endpoint`; and a push to one stored
 * anyway (before a DNS change) is refused before any connection: the loopback push service
 * receives nothing. Names resolve through a made-up resolver.
 */

const names: Record<string, string[]> = {
  'fcm.googleapis.com': ['142.250.185.106'],
  'push.internal.example.com': ['10.0.0.5'],
  'link.example.com': ['169.254.10.1'],
  'metadata.example.com': ['169.254.169.254'],
  'mixed.example.com': ['142.250.185.106', '192.168.1.9'],
  localhost: ['127.0.0.1', '::1'],
};
async function lookup(hostname: string): Promise<LookupAddress[]> {
  const addresses = names[hostname];
  if (!addresses) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  }
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
}

let t: TestApp;
let service: PushService;
let olivia: User;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      NODE_ENV: 'production',
      LOCAL_LOGIN_PASSWORD: undefined,
      PUBLIC_URL: 'https://baton.example.com',
    },
    resolveHost: lookup,
  });
  olivia = await t.createUser({ name: 'Olivia Oncall' });
  service = await startPushService();
});
afterAll(async () => {
  await t.close();
  await service.close();
});
beforeEach(async () => {
  await t.database.db.delete(pushSubscriptions);
});

const keys = () => service.subscribe().subscription.keys;

describe('in production, at subscription', () => {
  test.each([
    ['https://127.0.0.1/push/1', 'inside the network'],
    ['https://[::1]/push/1', 'inside the network'],
    ['https://localhost/push/1', 'inside the network'],
    ['https://10.0.0.5/push/1', 'inside the network'],
    ['https://push.internal.example.com/push/1', 'inside the network'],
    ['https://link.example.com/push/1', 'inside the network'],
    ['https://metadata.example.com/latest', 'inside the network'],
    ['https://mixed.example.com/push/1', 'inside the network'],
    ['https://nowhere.example.com/push/1', 'cannot be found'],
  ])('%s is a 400 naming endpoint', async (endpoint, words) => {
    const res = await t.call(olivia, 'POST', `/api/users/${olivia.id}/push-subscriptions`, {
      endpoint,
      keys: keys(),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().fields.endpoint).toContain(words);
    expect(await t.database.db.select().from(pushSubscriptions)).toHaveLength(0);
  });

  test("a public push service's endpoint is kept", async () => {
    const res = await t.call(olivia, 'POST', `/api/users/${olivia.id}/push-subscriptions`, {
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc123',
      keys: keys(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().service).toBe('fcm.googleapis.com');
  });
});

describe('in production, at send', () => {
  test('a stored loopback endpoint is refused before any connection', async () => {
    const { subscription } = service.subscribe();
    await t.database.db.transaction((tx) =>
      saveSubscription(tx, t.cipher, {
        userId: olivia.id,
        endpoint: subscription.endpoint,
        keys: subscription.keys,
        name: 'Stored before the rule',
        expiresAt: null,
        now: t.clock.now(),
      }),
    );
    const push = createPushChannel({
      db: t.database.db,
      cipher: t.cipher,
      clock: t.clock,
      vapid: vapidKeysOf({ config: t.config, db: t.database.db, cipher: t.cipher }),
      rule: pushRule(t.config),
      ca: service.ca,
    });
    await expect(
      push.send({
        to: String(olivia.id),
        subject: 'Page',
        text: 'Page',
        body: { title: 'Page', body: 'Checkout', actions: [], data: { open: '/' } },
      }),
    ).rejects.toMatchObject({ permanent: true, message: expect.stringContaining('loopback') });
    expect(service.received).toEqual([]);
    expect(service.refused).toEqual([]);
  });
});
