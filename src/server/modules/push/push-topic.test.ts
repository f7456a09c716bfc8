import { request } from 'node:https';
import { afterAll, beforeAll, expect, test } from 'vitest';
import webpush from 'web-push';
import { deviceOf, type PushService, startPushService } from '../../../../tests/setup/push-service';
import type { PushNotice } from '../../../shared/contracts/push';
import { onceOnDevice } from './push-channel';
import { pushRule, pushTopic, sendPush } from './push-sender';

/**
 * A push sent again after its answer was lost (issue 36) must not reach the person twice: every
 * attempt at one notification carries the same Topic (RFC 8030), which makes a push service that
 * still holds the first for an offline device replace it, and the same tag, which makes a device
 * that shows the first replace it without a second alert.
 */

const notice: PushNotice = {
  title: 'You hold the baton',
  body: 'Payments, from 09:00',
  actions: [],
  data: { open: '/' },
};

let service: PushService;
beforeAll(async () => {
  service = await startPushService();
});
afterAll(() => service.close());

test('a topic is 32 base64url characters of a digest: stable, one per notification, not the key', () => {
  const topic = pushTopic('handoff:rotation-7:2026-11-30T09:00:00Z:push');
  expect(topic).toMatch(/^[\w-]{32}$/);
  expect(pushTopic('handoff:rotation-7:2026-11-30T09:00:00Z:push')).toBe(topic);
  expect(pushTopic('handoff:rotation-7:2026-12-01T09:00:00Z:push')).not.toBe(topic);
  expect(topic).not.toContain('rotation');
});

test("a notification's pushes carry its topic and a tag; an incident's tag stays its own", () => {
  expect(onceOnDevice(notice, undefined)).toEqual({ topic: undefined, shown: notice });
  const key = 'handoff:rotation-7:push';
  expect(onceOnDevice(notice, key)).toEqual({
    topic: pushTopic(key),
    shown: { ...notice, tag: pushTopic(key), data: { open: '/', id: pushTopic(key) } },
  });
  const incident = { ...notice, tag: 'incident-42' };
  expect(onceOnDevice(incident, 'page:42:push')).toEqual({
    topic: pushTopic('page:42:push'),
    shown: { ...incident, data: { open: '/', id: pushTopic('page:42:push') } },
  });
});

test('a repeat replaces the push the service holds for an offline device; another push does not', async () => {
  const { subscription } = service.subscribe();
  const device = deviceOf(subscription.endpoint);
  const keys = webpush.generateVAPIDKeys();
  const options = {
    vapid: { ...keys, subject: 'mailto:ops@example.com' },
    rule: pushRule({ isProduction: false }),
    ca: service.ca,
  };
  const first = onceOnDevice(notice, 'handoff:1:push');
  const second = onceOnDevice({ ...notice, title: 'Shift moved' }, 'shift:2:push');
  service.disconnect(device);
  for (const push of [first, first, second]) {
    const outcome = await sendPush(subscription, push.shown, { ...options, topic: push.topic });
    expect(outcome).toEqual({ kind: 'sent', status: 201 });
  }
  const mine = (list: PushService['delivered']) => list.filter((p) => p.device === device);
  expect(mine(service.received).map((p) => p.topic)).toEqual([
    first.topic,
    first.topic,
    second.topic,
  ]);
  expect(mine(service.delivered)).toEqual([]);
  service.connect(device);
  const delivered = mine(service.delivered).map((p) => JSON.parse(p.text) as PushNotice);
  expect(delivered.map((n) => [n.title, n.tag, n.data.id])).toEqual([
    ['You hold the baton', first.topic, first.topic],
    ['Shift moved', second.topic, second.topic],
  ]);

  // Online, both copies reach the device with one tag and id: one notification, one alert.
  await sendPush(subscription, first.shown, { ...options, topic: first.topic });
  await sendPush(subscription, first.shown, { ...options, topic: first.topic });
  const copies = mine(service.delivered)
    .slice(2)
    .map((p) => JSON.parse(p.text) as PushNotice);
  expect(copies.map((n) => [n.tag, n.data.id])).toEqual([
    [first.topic, first.topic],
    [first.topic, first.topic],
  ]);
});

test('the push service refuses a topic longer than 32 characters, as RFC 8030 allows it to', async () => {
  const { subscription } = service.subscribe();
  const keys = webpush.generateVAPIDKeys();
  // web-push refuses such a topic before sending: the signed request is made, then the header set.
  const details = webpush.generateRequestDetails(subscription, JSON.stringify(notice), {
    vapidDetails: { ...keys, subject: 'mailto:ops@example.com' },
    contentEncoding: 'aes128gcm',
  });
  const answer = await new Promise<number>((resolve, reject) => {
    const req = request(
      details.endpoint,
      {
        method: details.method,
        ca: service.ca,
        headers: { ...details.headers, Topic: 'x'.repeat(33) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(details.body);
  });
  expect(answer).toBe(400);
  expect(service.refused.at(-1)).toMatchObject({
    device: deviceOf(subscription.endpoint),
    status: 400,
    reason: `Topic ${'x'.repeat(33)} is not 1 to 32 base64url characters`,
  });
});
