import { asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeTwilio } from '../../../../tests/setup/fake-twilio';
import { deviceOf, type PushService, startPushService } from '../../../../tests/setup/push-service';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { TimelineEvent } from '../../../shared/contracts/incidents';
import type { PushDevice, PushNotice } from '../../../shared/contracts/push';
import type { User } from '../../../shared/contracts/users';
import { notifications, pages, pushSubscriptions } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { type Channels, createEmailChannel, createSmsChannel } from '../notifications/channels';
import { deliverDue } from '../notifications/outbox';
import { PUSH_DEVICE_GONE, testSenders } from '../notifications/test-senders';
import { testCallWords } from '../voice-calls/voice-channel';

/**
 * Reaching the person (issue 33, decision 254) through the app: working hours holding low
 * urgency until they begin (high never waits, an acknowledgement before then stops it), the limit
 * per person holding and bundling texts, "Send a test" over the loopback SMTP server, the fake
 * Twilio (texts and calls) and the loopback push service, and the managers' view of who cannot be
 * reached. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let pushService: PushService;
let channels: Channels;
let manager: User;
let admin: User;

beforeAll(async () => {
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  pushService = await startPushService();
  t = await createTestApp({
    pushCa: pushService.ca,
    env: {
      SMTP_URL: smtp.url,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM: '+15550000000',
      TWILIO_API_BASE: twilio.apiBase,
    },
  });
  channels = {
    email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 2_000),
    sms: createSmsChannel({ ...twilio, from: '+15550000000' }, 2_000),
  };
  manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
  admin = await t.createUser({ name: 'Ada Admin', roles: ['admin'] });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await twilio.close();
  await pushService.close();
});
beforeEach(() => {
  smtp.received.length = 0;
  twilio.sent.length = 0;
  twilio.calls.length = 0;
  pushService.received.length = 0;
  pushService.refused.length = 0;
});

const deliver = () =>
  deliverDue({ db: t.database.db, cipher: t.cipher, channels, clock: t.clock, random: () => 0.5 });

/** A person on call alone in a rotation the manager made, in London. */
async function holder(name: string, extra: Partial<User> = {}) {
  const person = await t.createUser({
    name,
    phone: '+15550100301',
    notificationPreference: 'both',
    timezone: 'Europe/London',
    ...extra,
  });
  const rotation = await insertRotation(t.database.db, {
    memberIds: [person.id],
    holderId: person.id,
    createdById: manager.id,
  });
  return { person, rotation };
}

async function page(rotationId: number, urgency: 'high' | 'low', message = 'Checkout is failing') {
  const res = await t.call(manager, 'POST', `/api/rotations/${rotationId}/page`, {
    message,
    urgency,
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

const rowsTo = async (userId: number) =>
  t.database.db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(asc(notifications.id));

const hoursUrl = (u: { id: number }) => `/api/users/${u.id}/working-hours`;
// Tuesdays 09:00–17:00 in the person's zone; the test clock starts on Monday 2 November 12:00Z.
const TUESDAYS = { days: [2], start: '09:00', end: '17:00', holdLowUrgency: true };
const TUESDAY_START = '2026-11-03T09:00:00.000Z';

describe('working hours: the API', () => {
  test('GET answers the default until one chooses; PUT sets them; GET reads them back', async () => {
    const { person } = await holder('Wren Hours');
    const before = await t.call(person, 'GET', hoursUrl(person));
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json()).toMatchObject({
      own: false,
      holdLowUrgency: false,
      timeZone: 'Europe/London',
    });
    const put = await t.call(person, 'PUT', hoursUrl(person), { ...TUESDAYS, days: [5, 2] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ ...TUESDAYS, days: [2, 5], own: true, timeZone: 'Europe/London' });
    expect((await t.call(person, 'GET', hoursUrl(person))).json().days).toEqual([2, 5]);
  });

  test.each([
    [{ ...TUESDAYS, days: [] }, 'days'],
    [{ ...TUESDAYS, days: [7] }, 'days.0'],
    [{ ...TUESDAYS, start: '9am' }, 'start'],
    [{ ...TUESDAYS, end: '24:00' }, 'end'],
    [{ days: [1], start: '09:00', end: '17:00' }, 'holdLowUrgency'],
  ])('a bad value is a 400 naming the field (%j)', async (body, field) => {
    const { person } = await holder('Bad Hours');
    const res = await t.call(person, 'PUT', hoursUrl(person), body);
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().fields ?? {})).toContain(field);
  });

  test("someone else's: 403; an administrator's: 200; nobody: 404", async () => {
    const { person } = await holder('Other Hours');
    const { person: other } = await holder('Nosy Other');
    expect((await t.call(other, 'PUT', hoursUrl(person), TUESDAYS)).statusCode).toBe(403);
    expect((await t.call(admin, 'PUT', hoursUrl(person), TUESDAYS)).statusCode).toBe(200);
    expect((await t.call(admin, 'GET', hoursUrl({ id: 999_999 }))).statusCode).toBe(404);
  });
});

describe('working hours hold low urgency', () => {
  test('a low-urgency page outside them waits for their start, says so, and goes then', async () => {
    const { person, rotation } = await holder('Lou Low');
    expect((await t.call(person, 'PUT', hoursUrl(person), TUESDAYS)).statusCode).toBe(200);
    const id = await page(rotation.id, 'low');
    const [row] = await rowsTo(person.id);
    expect(row).toMatchObject({ channel: 'email', held: 'working-hours', status: 'pending' });
    expect(row.nextAttemptAt.toISOString()).toBe(TUESDAY_START);
    const timeline: TimelineEvent[] = (await t.call(manager, 'GET', `/api/incidents/${id}`)).json()
      .timeline;
    expect(timeline.find((e) => e.kind === 'notified')).toMatchObject({
      held: 'working-hours',
      dueAt: TUESDAY_START,
      delivery: 'pending',
    });

    await deliver();
    expect(smtp.received).toHaveLength(0);
    t.clock.set(new Date(TUESDAY_START));
    await deliver();
    expect(smtp.received.map((m) => m.to)).toEqual([[person.email]]);
    expect((await rowsTo(person.id))[0].status).toBe('sent');
    t.clock.set(new Date('2026-11-02T12:00:00Z'));
  });

  test('high urgency never waits', async () => {
    const { person, rotation } = await holder('Hal High');
    await t.call(person, 'PUT', hoursUrl(person), TUESDAYS);
    await page(rotation.id, 'high');
    const rows = await rowsTo(person.id);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.held).toBeNull();
      expect(row.nextAttemptAt.getTime()).toBe(row.createdAt.getTime());
    }
  });

  test('not held when they do not hold low urgency', async () => {
    const { person, rotation } = await holder('Nel Nohold');
    await t.call(person, 'PUT', hoursUrl(person), { ...TUESDAYS, holdLowUrgency: false });
    await page(rotation.id, 'low');
    const [row] = await rowsTo(person.id);
    expect(row.held).toBeNull();
  });

  test('acknowledging before their start stops it: never sent', async () => {
    const { person, rotation } = await holder('Ace Acks');
    await t.call(person, 'PUT', hoursUrl(person), TUESDAYS);
    const id = await page(rotation.id, 'low');
    const ack = await t.call(person, 'POST', `/api/incidents/${id}/acknowledge`, {});
    expect(ack.statusCode, ack.body).toBe(200);
    const [row] = await rowsTo(person.id);
    expect(row.status).toBe('stopped');
    t.clock.set(new Date(TUESDAY_START));
    await deliver();
    expect(smtp.received.filter((m) => m.to.includes(person.email))).toHaveLength(0);
    t.clock.set(new Date('2026-11-02T12:00:00Z'));
  });
});

describe('the limit per person: at most 3 texts and calls per 15 minutes', () => {
  test('5 pages in a quarter hour: 3 texts, then one bundle of the other 2, nothing dropped', async () => {
    const start = t.clock.now();
    const { person, rotation } = await holder('Tex Texts', {
      notificationPreference: 'sms',
      phone: '+15550100399',
    });
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) {
      ids.push(await page(rotation.id, 'high', `Alarm number ${i}`));
      await deliver();
      t.clock.advance(60_000);
    }
    const toPerson = () => twilio.sent.filter((s) => s.to === '+15550100399');
    expect(toPerson()).toHaveLength(3);
    const held = (await rowsTo(person.id)).filter((r) => r.channel === 'sms' && r.held === 'limit');
    expect(held.map((r) => r.status)).toEqual(['pending', 'pending']);
    expect(held[0].lastError).toMatch(
      /Held by the limit: at most 3 texts and calls per 15 minutes/,
    );
    const timeline: TimelineEvent[] = (
      await t.call(manager, 'GET', `/api/incidents/${ids[4]}`)
    ).json().timeline;
    expect(timeline.find((e) => e.kind === 'notified' && e.channel === 'sms')?.held).toBe('limit');

    // When the first text leaves the window, the two held pages go as one message.
    t.clock.set(new Date(start.getTime() + 15 * 60_000 + 1000));
    await deliver();
    expect(toPerson()).toHaveLength(4);
    expect(toPerson()[3].body).toMatch(/^2 more pages: .*Alarm number 4.*; .*Alarm number 5/);
    const after = (await rowsTo(person.id)).filter(
      (r) => r.channel === 'sms' && r.held === 'limit',
    );
    expect(after.map((r) => r.status).sort()).toEqual(['bundled', 'sent']);
    expect(after.find((r) => r.status === 'bundled')?.lastError).toMatch(
      /bundled into notification \d+/,
    );
    t.clock.set(new Date('2026-11-02T12:00:00Z'));
  });
});

describe('Send a test', () => {
  const testUrl = (u: { id: number }) => `/api/users/${u.id}/notification-test`;

  test('email goes through the real SMTP server and answers delivered', async () => {
    const { person } = await holder('Tess Test');
    const res = await t.call(person, 'POST', testUrl(person), { method: 'email' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      method: 'email',
      outcome: 'delivered',
      message: 'Test email sent',
    });
    expect(smtp.received.map((m) => m.to)).toEqual([[person.email]]);
    expect(smtp.received[0].raw).toMatch(/This is a test from Baton/);
  });

  test('SMS goes through Twilio; a second within the minute is a 429 in the one error shape', async () => {
    const { person } = await holder('Sam Sms', { phone: '+15550100377' });
    const first = await t.call(person, 'POST', testUrl(person), { method: 'sms' });
    expect(first.json()).toMatchObject({ method: 'sms', outcome: 'delivered' });
    expect(twilio.sent.map((s) => s.to)).toEqual(['+15550100377']);
    const again = await t.call(person, 'POST', testUrl(person), { method: 'sms' });
    expect(again.statusCode).toBe(429);
    expect(again.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(again.json().message).toMatch(/One test by SMS a minute/);
    t.clock.advance(60_000);
    expect((await t.call(person, 'POST', testUrl(person), { method: 'sms' })).statusCode).toBe(200);
  });

  test("a provider's refusal answers failed with its reason, without the number", async () => {
    const { person } = await holder('Fay Fails', { phone: '+15550100388' });
    twilio.next({ kind: 'unsubscribed' });
    const res = await t.call(person, 'POST', testUrl(person), { method: 'sms' });
    expect(res.json()).toMatchObject({ method: 'sms', outcome: 'failed' });
    expect(res.json().message).toMatch(/unsubscribed/);
    expect(res.json().message).not.toContain('+15550100388');
  });

  test('what is not set up says why: no phone for texts and calls, no Twilio for calls', async () => {
    const { person } = await holder('Nia Nophone', { phone: null });
    expect((await t.call(person, 'POST', testUrl(person), { method: 'sms' })).json()).toEqual({
      method: 'sms',
      outcome: 'not-set-up',
      message: 'SMS needs a phone number on the profile',
    });
    expect((await t.call(person, 'POST', testUrl(person), { method: 'voice' })).json()).toEqual({
      method: 'voice',
      outcome: 'not-set-up',
      message: 'Phone calls need a phone number on the profile',
    });
    // Without Twilio there is nothing to place a call with.
    const { person: phoned } = await holder('Nat Notwilio');
    const push = { db: t.database.db, cipher: t.cipher, clock: t.clock } as never;
    expect(await testSenders.voice({ person: phoned, channels: {}, baseUrl: '', push })).toEqual({
      method: 'voice',
      outcome: 'not-set-up',
      message: 'Phone calls are not set up yet',
    });
    expect(twilio.calls).toEqual([]);
  });

  test('a test call rings once through Twilio with a short message and no key to press', async () => {
    const { person } = await holder('Cal Caller', { phone: '+15550100399' });
    const res = await t.call(person, 'POST', testUrl(person), { method: 'voice' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      method: 'voice',
      outcome: 'delivered',
      message: 'Test call placed',
    });
    expect(twilio.calls).toHaveLength(1);
    const [call] = twilio.calls;
    expect(call).toMatchObject({ to: '+15550100399', from: '+15550000000', url: '' });
    expect(call.twiml).toContain(testCallWords('Cal Caller'));
    expect(call.twiml).not.toContain('<Gather');
    expect(twilio.sent).toEqual([]);
    const again = await t.call(person, 'POST', testUrl(person), { method: 'voice' });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/One test by call a minute/);
  });

  test('a call Twilio refuses answers failed with its reason, without the number', async () => {
    const { person } = await holder('Ray Refused', { phone: '+15550100366' });
    twilio.next({ kind: 'unsubscribed' });
    const res = await t.call(person, 'POST', testUrl(person), { method: 'voice' });
    expect(res.json()).toMatchObject({ method: 'voice', outcome: 'failed' });
    expect(res.json().message).toMatch(/^Call provider answered 400 .*unsubscribed/);
    expect(res.json().message).not.toContain('5550100366');
  });
  test('refusals: a bad method is a 400 naming it; someone else is 403', async () => {
    const { person } = await holder('Rex Refused');
    const bad = await t.call(person, 'POST', testUrl(person), { method: 'pigeon' });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields ?? {})).toContain('method');
    expect((await t.call(person, 'POST', testUrl(manager), { method: 'email' })).statusCode).toBe(
      403,
    );
  });
});

describe("Send a test: push, to one of the person's devices", () => {
  const testUrl = (u: { id: number }) => `/api/users/${u.id}/notification-test`;
  const devicesOf = (u: { id: number }) => `/api/users/${u.id}/push-subscriptions`;

  async function deviceFor(person: User, name: string) {
    const { subscription } = pushService.subscribe();
    const res = await t.call(person, 'POST', devicesOf(person), { ...subscription, name });
    expect(res.statusCode, res.body).toBe(201);
    return { device: res.json() as PushDevice, endpoint: subscription.endpoint };
  }

  test('reaches the device encrypted and VAPID-signed, and names it', async () => {
    const { person } = await holder('Pia Push');
    const { device } = await deviceFor(person, 'Work phone');
    const other = await deviceFor(person, 'Kitchen tablet');
    const res = await t.call(person, 'POST', testUrl(person), {
      method: 'push',
      deviceId: device.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      method: 'push',
      outcome: 'delivered',
      message: 'Test push sent to Work phone',
    });
    expect(pushService.refused).toEqual([]);
    expect(pushService.received).toHaveLength(1);
    const [push] = pushService.received;
    expect(push.device).not.toBe(deviceOf(other.endpoint));
    expect(push).toMatchObject({
      contentEncoding: 'aes128gcm',
      vapid: { aud: pushService.origin },
    });
    expect(JSON.parse(push.text) as PushNotice).toMatchObject({
      title: 'Baton test notification',
      body: expect.stringMatching(/^This is a test from Baton/),
      data: { open: '/profile' },
    });
    const listed: PushDevice[] = (await t.call(person, 'GET', devicesOf(person))).json();
    expect(listed.find((d) => d.id === device.id)?.lastSentAt).not.toBeNull();
    // One test a minute per device: the other device may be tested at once.
    const again = await t.call(person, 'POST', testUrl(person), {
      method: 'push',
      deviceId: device.id,
    });
    expect(again.statusCode).toBe(429);
    expect(again.json().message).toMatch(/One test by push to this device a minute/);
    const second = await t.call(person, 'POST', testUrl(person), {
      method: 'push',
      deviceId: other.device.id,
    });
    expect(second.json()).toMatchObject({ outcome: 'delivered' });
  });

  test('a device the push service says is gone (410) is removed, and the test answers failed', async () => {
    const { person } = await holder('Gus Gone');
    const { device, endpoint } = await deviceFor(person, 'Old phone');
    pushService.answer(deviceOf(endpoint), 410);
    const res = await t.call(person, 'POST', testUrl(person), {
      method: 'push',
      deviceId: device.id,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ method: 'push', outcome: 'failed', message: PUSH_DEVICE_GONE });
    expect(PUSH_DEVICE_GONE).toBe('This device is no longer subscribed; it was removed');
    expect((await t.call(person, 'GET', devicesOf(person))).json()).toEqual([]);
    expect(
      await t.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.id, device.id)),
    ).toEqual([]);
  });

  test("another person's device is a 404 and counts for nothing; no device is a 400 naming deviceId", async () => {
    const { person: owner } = await holder('Owen Owner');
    const { person } = await holder('Iva Intruder');
    const { device } = await deviceFor(owner, 'Owner phone');
    const foreign = await t.call(person, 'POST', testUrl(person), {
      method: 'push',
      deviceId: device.id,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Device not found' });
    expect(pushService.received).toEqual([]);
    const missing = await t.call(person, 'POST', testUrl(person), { method: 'push' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(Object.keys(missing.json().fields)).toEqual(['deviceId']);
    // The owner's own test reaches it.
    const own = await t.call(owner, 'POST', testUrl(owner), {
      method: 'push',
      deviceId: device.id,
    });
    expect(own.json()).toMatchObject({ outcome: 'delivered' });
  });
});

describe('who cannot be reached', () => {
  test('their managers see it; administrators see everyone’s methods; others only their own', async () => {
    const { person } = await holder('Una Unreachable', { phone: '+15550100366' });
    const put = await t.call(person, 'PUT', `/api/users/${person.id}/notification-rules`, {
      high: [{ method: 'sms', delayMinutes: 0 }],
      low: [{ method: 'email', delayMinutes: 0 }],
    });
    expect(put.statusCode, put.body).toBe(200);
    // The phone number is removed: the only high-urgency rule cannot reach them.
    const patch = await t.call(admin, 'PATCH', `/api/users/${person.id}`, { phone: null });
    expect(patch.statusCode, patch.body).toBeLessThan(300);

    const seen = await t.call(manager, 'GET', '/api/users/reachability');
    expect(seen.statusCode, seen.body).toBe(200);
    const una = seen.json().people.find((p: { id: number }) => p.id === person.id);
    expect(una.gaps).toEqual([
      { urgency: 'high', reasons: ['SMS needs a phone number on the profile'] },
    ]);

    // Only the people of the rotations the manager manages, and the manager: not the admin.
    const seenIds = seen.json().people.map((p: { id: number }) => p.id);
    expect(seenIds).toContain(manager.id);
    expect(seenIds).not.toContain(admin.id);
    const otherManager = await t.createUser({ name: 'Oz Other', roles: ['manager'] });
    // A manager of no rotation sees only themselves, not Una.
    const theirs = (await t.call(otherManager, 'GET', '/api/users/reachability')).json().people;
    expect(theirs.map((p: { id: number }) => p.id)).toEqual([otherManager.id]);

    const all = (await t.call(admin, 'GET', '/api/users/reachability')).json().people;
    expect(all.map((p: { id: number }) => p.id)).toContain(manager.id);
    expect(all.find((p: { id: number }) => p.id === person.id).methods).toContainEqual({
      method: 'sms',
      whyNot: 'SMS needs a phone number on the profile',
    });

    const own = (await t.call(person, 'GET', '/api/users/reachability')).json().people;
    expect(own.map((p: { id: number }) => p.id)).toEqual([person.id]);
  });
});

describe('an administrator reaches someone else from their page (decision 265); a manager cannot', () => {
  test("an administrator sets someone's rules and working hours and sends them each test", async () => {
    const { person } = await holder('Ola Other', { phone: '+15550100384' });
    const rules = {
      high: [
        { method: 'sms', delayMinutes: 0 },
        { method: 'email', delayMinutes: 2 },
      ],
      low: [{ method: 'email', delayMinutes: 0 }],
    };
    const put = await t.call(admin, 'PUT', `/api/users/${person.id}/notification-rules`, rules);
    expect(put.statusCode, put.body).toBe(200);
    expect(
      (await t.call(person, 'GET', `/api/users/${person.id}/notification-rules`)).json(),
    ).toMatchObject({ ...rules, own: true });
    expect((await t.call(admin, 'PUT', hoursUrl(person), TUESDAYS)).statusCode).toBe(200);
    expect((await t.call(person, 'GET', hoursUrl(person))).json()).toMatchObject({
      ...TUESDAYS,
      own: true,
    });
    const testUrl = `/api/users/${person.id}/notification-test`;
    const email = await t.call(admin, 'POST', testUrl, { method: 'email' });
    expect(email.json()).toEqual({
      method: 'email',
      outcome: 'delivered',
      message: 'Test email sent',
    });
    expect(smtp.received.map((m) => m.to)).toEqual([[person.email]]);
    const sms = await t.call(admin, 'POST', testUrl, { method: 'sms' });
    expect(sms.json()).toMatchObject({ method: 'sms', outcome: 'delivered' });
    expect(twilio.sent.map((m) => m.to)).toEqual(['+15550100384']);
    const { subscription } = pushService.subscribe();
    const device = await t.call(person, 'POST', `/api/users/${person.id}/push-subscriptions`, {
      ...subscription,
      name: 'Ola phone',
    });
    const listed = await t.call(admin, 'GET', `/api/users/${person.id}/push-subscriptions`);
    expect(listed.json().map((d: PushDevice) => d.name)).toEqual(['Ola phone']);
    const push = await t.call(admin, 'POST', testUrl, {
      method: 'push',
      deviceId: device.json().id,
    });
    expect(push.json()).toEqual({
      method: 'push',
      outcome: 'delivered',
      message: 'Test push sent to Ola phone',
    });
    expect(pushService.received).toHaveLength(1);
  });

  test('a manager, even of their rotation, and a teammate are refused each (403), nothing written', async () => {
    const { person } = await holder('Pat Protected');
    const { person: teammate } = await holder('Tim Teammate');
    for (const actor of [manager, teammate]) {
      const calls = [
        ['GET', `/api/users/${person.id}/notification-rules`, undefined],
        [
          'PUT',
          `/api/users/${person.id}/notification-rules`,
          {
            high: [{ method: 'email', delayMinutes: 0 }],
            low: [{ method: 'email', delayMinutes: 0 }],
          },
        ],
        ['DELETE', `/api/users/${person.id}/notification-rules`, undefined],
        ['GET', hoursUrl(person), undefined],
        ['PUT', hoursUrl(person), TUESDAYS],
        ['POST', `/api/users/${person.id}/notification-test`, { method: 'email' }],
      ] as const;
      for (const [method, url, body] of calls) {
        const res = await t.call(actor, method, url, body);
        expect(res.statusCode, `${actor.name} ${method} ${url}`).toBe(403);
      }
    }
    expect(smtp.received).toEqual([]);
    expect((await t.call(person, 'GET', hoursUrl(person))).json().own).toBe(false);
    expect(
      (await t.call(person, 'GET', `/api/users/${person.id}/notification-rules`)).json().own,
    ).toBe(false);
  });
});
