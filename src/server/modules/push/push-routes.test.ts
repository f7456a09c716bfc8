import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { deviceOf, type PushService, startPushService } from '../../../../tests/setup/push-service';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { TimelineEvent } from '../../../shared/contracts/incidents';
import type { PushDevice, PushNotice } from '../../../shared/contracts/push';
import type { User } from '../../../shared/contracts/users';
import { notifications, pages, pushKeys, pushSubscriptions } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { deliverDue } from '../notifications/outbox';
import { createPushChannel } from './push-channel';
import { pushRule } from './push-sender';
import { readOrCreateVapidKeys, vapidKeysOf } from './vapid-keys';

/**
 * Push to the installable app (issue 33, decision 253), through the app: Baton's VAPID key, a
 * person's devices (subscribed, listed without keys, renamed, removed; one's own or an
 * administrator's), bad input as a 400 naming the field, and a page by a push rule delivered to a
 * loopback https push service that verifies the VAPID signature and decrypts the message; a
 * device the push service says is gone (410) is removed. PGlite, and PostgreSQL with
 * TEST_DATABASE_URL.
 */

const ANDROID_CHROME =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

let t: TestApp;
let service: PushService;
let people: Record<'manager' | 'admin' | 'olivia' | 'noah', User>;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://baton.example.com' } });
  people = await t.cast({ manager: {}, admin: {}, olivia: {}, noah: {} });
  service = await startPushService();
});
afterAll(async () => {
  await t.close();
  await service.close();
});
beforeEach(async () => {
  await t.database.db.delete(pushSubscriptions);
  await t.database.db.delete(notifications);
  service.received.length = 0;
  service.refused.length = 0;
});

const devicesOf = (person: User) => `/api/users/${person.id}/push-subscriptions`;

async function subscribe(person: User, extra: Record<string, unknown> = {}, as = person) {
  const { subscription } = service.subscribe();
  const res = await t.call(
    as,
    'POST',
    devicesOf(person),
    { ...subscription, ...extra },
    { 'user-agent': ANDROID_CHROME },
  );
  expect(res.statusCode, res.body).toBe(201);
  return { device: res.json() as PushDevice, subscription };
}

const channel = () =>
  createPushChannel({
    db: t.database.db,
    cipher: t.cipher,
    clock: t.clock,
    vapid: vapidKeysOf({ config: t.config, db: t.database.db, cipher: t.cipher }),
    rule: pushRule(t.config),
    ca: service.ca,
    timeoutMs: 5_000,
  });

describe("Baton's VAPID key", () => {
  test('is generated once, kept with its private key sealed, and answered to the signed in', async () => {
    const first = await t.call(people.olivia, 'GET', '/api/push/public-key');
    expect(first.statusCode, first.body).toBe(200);
    const { publicKey } = first.json();
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect((await t.call(people.noah, 'GET', '/api/push/public-key')).json()).toEqual({
      publicKey,
    });
    expect((await t.call(null, 'GET', '/api/push/public-key')).statusCode).toBe(401);
    const sealed = await t.database.db.select().from(pushKeys);
    const { privateKey } = await readOrCreateVapidKeys({
      config: t.config,
      db: t.database.db,
      cipher: t.cipher,
    });
    expect(sealed[0].privateKeyEnc).toMatch(/^v1\./);
    expect(sealed[0].privateKeyEnc).not.toContain(privateKey);
  });

  test('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, when configured, are the pair', async () => {
    const config = {
      vapid: {
        publicKey: 'configured-public',
        privateKey: 'configured-private',
        subject: 'mailto:ops@example.com',
      },
    };
    expect(await readOrCreateVapidKeys({ config, db: t.database.db, cipher: t.cipher })).toEqual({
      publicKey: 'configured-public',
      privateKey: 'configured-private',
      subject: 'mailto:ops@example.com',
    });
  });
});

describe("a person's devices", () => {
  test('subscribed, listed without keys or endpoint, renamed and removed', async () => {
    const { device, subscription } = await subscribe(people.olivia);
    expect(device).toMatchObject({
      name: 'Chrome on Android',
      service: new URL(service.origin).host,
      expiresAt: null,
      lastSentAt: null,
    });
    const list = await t.call(people.olivia, 'GET', devicesOf(people.olivia));
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([device]);
    expect(list.body).not.toContain(subscription.keys.p256dh);
    expect(list.body).not.toContain(subscription.endpoint);
    // At rest: sealed, the endpoint only as its hash.
    const [row] = await t.database.db.select().from(pushSubscriptions);
    const stored = JSON.stringify(row);
    for (const secret of [
      subscription.endpoint,
      subscription.keys.p256dh,
      subscription.keys.auth,
    ]) {
      expect(stored).not.toContain(secret);
    }
    const renamed = await t.call(
      people.olivia,
      'PATCH',
      `${devicesOf(people.olivia)}/${device.id}`,
      { name: '  Work phone ' },
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ id: device.id, name: 'Work phone' });
    const removed = await t.call(
      people.olivia,
      'DELETE',
      `${devicesOf(people.olivia)}/${device.id}`,
    );
    expect(removed.statusCode).toBe(204);
    expect((await t.call(people.olivia, 'GET', devicesOf(people.olivia))).json()).toEqual([]);
    const again = await t.call(people.olivia, 'DELETE', `${devicesOf(people.olivia)}/${device.id}`);
    expect(again.statusCode).toBe(404);
  });

  test('the same device subscribed again is one device, named as given', async () => {
    const { subscription } = await subscribe(people.olivia);
    const res = await t.call(people.olivia, 'POST', devicesOf(people.olivia), {
      ...subscription,
      name: 'Kitchen tablet',
      expirationTime: Date.parse('2027-01-01T00:00:00Z'),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Kitchen tablet',
      expiresAt: '2027-01-01T00:00:00.000Z',
    });
    expect(await t.database.db.select().from(pushSubscriptions)).toHaveLength(1);
  });

  test("one's own only; administrators anyone's", async () => {
    const { device } = await subscribe(people.olivia);
    for (const [method, url, body] of [
      ['GET', devicesOf(people.olivia), undefined],
      ['POST', devicesOf(people.olivia), service.subscribe().subscription],
      ['PATCH', `${devicesOf(people.olivia)}/${device.id}`, { name: 'Mine now' }],
      ['DELETE', `${devicesOf(people.olivia)}/${device.id}`, undefined],
    ] as const) {
      const res = await t.call(people.noah, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // Someone else's device id under one's own person is not found.
    const foreign = await t.call(people.noah, 'PATCH', `${devicesOf(people.noah)}/${device.id}`, {
      name: 'Mine now',
    });
    expect(foreign.statusCode).toBe(404);
    const listed = await t.call(people.admin, 'GET', devicesOf(people.olivia));
    expect(listed.json()).toEqual([device]);
    const byAdmin = await subscribe(people.olivia, { name: 'Set up by IT' }, people.admin);
    expect(byAdmin.device.name).toBe('Set up by IT');
    const renamed = await t.call(
      people.admin,
      'PATCH',
      `${devicesOf(people.olivia)}/${device.id}`,
      { name: 'Renamed by IT' },
    );
    expect(renamed.statusCode).toBe(200);
    expect(
      (await t.call(people.admin, 'GET', '/api/users/999999/push-subscriptions')).statusCode,
    ).toBe(404);
  });

  test.each([
    ['endpoint', { endpoint: 'http://push.example.com/send/1' }],
    ['endpoint', { endpoint: 'not a url' }],
    ['keys.p256dh', { keys: { p256dh: 'short', auth: 'A'.repeat(22) } }],
    ['keys.auth', { keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(30) } }],
    ['keys', { keys: undefined }],
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(81) }],
    ['expirationTime', { expirationTime: 'tomorrow' }],
  ])('a bad %s is a 400 naming it, nothing kept', async (field, change) => {
    const { subscription } = service.subscribe();
    const res = await t.call(people.olivia, 'POST', devicesOf(people.olivia), {
      ...subscription,
      ...change,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(new RegExp(`^${field.replace('.', '\\.')}`));
    expect(await t.database.db.select().from(pushSubscriptions)).toHaveLength(0);
  });

  test('a loopback endpoint is allowed outside production; a private address is not', async () => {
    const { subscription } = service.subscribe();
    const inside = await t.call(people.olivia, 'POST', devicesOf(people.olivia), {
      ...subscription,
      endpoint: 'https://10.0.0.5/push/1',
    });
    expect(inside.statusCode).toBe(400);
    expect(inside.json().fields).toEqual({ endpoint: expect.stringMatching(/inside the network/) });
  });
});

describe('a page by a push rule', () => {
  async function pushHolder(person: User) {
    const put = await t.call(person, 'PUT', `/api/users/${person.id}/notification-rules`, {
      high: [
        { method: 'push', delayMinutes: 0 },
        { method: 'email', delayMinutes: 5 },
      ],
      low: [{ method: 'email', delayMinutes: 0 }],
    });
    expect(put.statusCode, put.body).toBe(200);
    return insertRotation(t.database.db, {
      name: `Payments ${person.id}`,
      memberIds: [person.id],
      holderId: person.id,
      createdById: people.manager.id,
    });
  }

  async function page(rotationId: number) {
    const res = await t.call(people.manager, 'POST', `/api/rotations/${rotationId}/page`, {
      message: 'Checkout is failing',
      urgency: 'high',
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db
      .select()
      .from(pages)
      .where(eq(pages.rotationId, rotationId))
      .orderBy(desc(pages.id))
      .limit(1);
    return row.id;
  }

  const pushRows = (incidentId: number) =>
    t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.pageId, incidentId))
      .then((rows) => rows.filter((r) => r.channel === 'push'));

  test('reaches every device encrypted and signed, names the incident, and its Acknowledge works', async () => {
    const rotation = await pushHolder(people.olivia);
    await subscribe(people.olivia);
    await subscribe(people.olivia);
    const id = await page(rotation.id);
    expect(await pushRows(id)).toMatchObject([{ status: 'pending', userId: people.olivia.id }]);

    const report = await deliverDue(
      { db: t.database.db, cipher: t.cipher, clock: t.clock, channels: { push: channel() } },
      50,
      'push',
    );
    expect(report).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(service.refused).toEqual([]);
    expect(service.received).toHaveLength(2);
    const { publicKey } = (await t.call(people.olivia, 'GET', '/api/push/public-key')).json();
    for (const push of service.received) {
      expect(push).toMatchObject({
        urgency: 'high',
        ttl: '3600',
        contentEncoding: 'aes128gcm',
        vapid: { aud: service.origin, publicKey, sub: 'https://baton.example.com' },
      });
      const notice = JSON.parse(push.text) as PushNotice;
      expect(notice).toMatchObject({
        title: 'Page (high urgency): Checkout is failing',
        body: `${rotation.name}, from ${people.manager.name}`,
        urgency: 'high',
        tag: `incident-${id}`,
        actions: [
          { action: 'acknowledge', title: 'Acknowledge' },
          { action: 'open', title: 'Open' },
        ],
        data: {
          open: `/incidents/${id}`,
          acknowledge: expect.stringMatching(/^\/api\/pages\/ack\//),
          // one id and Topic for the notification, on both devices (decision 284)
          id: push.topic,
        },
      });
    }
    expect(service.received[0].topic).toMatch(/^[\w-]{32}$/);
    expect(service.received[1].topic).toBe(service.received[0].topic);
    const [row] = await pushRows(id);
    expect(row).toMatchObject({ status: 'sent', providerResponse: 'Pushed to 2 devices of 2' });
    const devices = (await t.call(people.olivia, 'GET', devicesOf(people.olivia))).json();
    expect(devices.every((d: PushDevice) => d.lastSentAt !== null)).toBe(true);

    // The Acknowledge action posts the signed one-time link, without signing in.
    const { data } = JSON.parse(service.received[0].text) as PushNotice;
    const ack = await t.call(null, 'POST', data.acknowledge ?? '');
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().state).toBe('acknowledged');
    const timeline: TimelineEvent[] = (
      await t.call(people.manager, 'GET', `/api/incidents/${id}`)
    ).json().timeline;
    expect(timeline.find((e) => e.kind === 'notified' && e.channel === 'push')).toMatchObject({
      delivery: 'sent',
      to: { id: people.olivia.id },
    });
    expect(timeline.some((e) => e.kind === 'acknowledged')).toBe(true);
  });

  test('a device the push service says is gone (410) is removed; the others still get it', async () => {
    const rotation = await pushHolder(people.noah);
    const gone = await subscribe(people.noah);
    const kept = await subscribe(people.noah);
    service.answer(deviceOf(gone.subscription.endpoint), 410);
    const id = await page(rotation.id);
    const deps = {
      db: t.database.db,
      cipher: t.cipher,
      clock: t.clock,
      channels: { push: channel() },
    };
    expect(await deliverDue(deps, 50, 'push')).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(service.received.map((r) => r.device)).toEqual([deviceOf(kept.subscription.endpoint)]);
    const [row] = await pushRows(id);
    expect(row.providerResponse).toBe('Pushed to 1 device of 2; 1 device gone, removed');
    expect((await t.call(people.noah, 'GET', devicesOf(people.noah))).json()).toEqual([
      expect.objectContaining({ id: kept.device.id }),
    ]);

    // The last device gone too: the next page's push fails for good, saying why.
    service.answer(deviceOf(kept.subscription.endpoint), 410);
    const resolved = await t.call(people.noah, 'POST', `/api/incidents/${id}/resolve`, {});
    expect(resolved.statusCode, resolved.body).toBe(200);
    const next = await page(rotation.id);
    expect(next).not.toBe(id);
    expect(await deliverDue(deps, 50, 'push')).toEqual({ sent: 0, failed: 1, retrying: 0 });
    const [failed] = await pushRows(next);
    expect(failed.lastError).toMatch(/^No device is set up for push/);
    expect(await t.database.db.select().from(pushSubscriptions)).toHaveLength(0);
  });

  test('with push rules and no device, the rule is skipped and the timeline says why', async () => {
    const rotation = await pushHolder(people.manager);
    const id = await page(rotation.id);
    expect(await pushRows(id)).toEqual([]);
    const timeline: TimelineEvent[] = (
      await t.call(people.manager, 'GET', `/api/incidents/${id}`)
    ).json().timeline;
    expect(timeline.find((e) => e.kind === 'rules_skipped')).toMatchObject({
      rules: [{ method: 'push', delayMinutes: 0, reason: 'No device is set up for push' }],
    });
  });
});
