import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type CallbackPost,
  type PlacedCall,
  startFakeTwilio,
} from '../../../../tests/setup/fake-twilio';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { TimelineEvent } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, notifications, pages, voiceCalls } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { type Channels, createSmsChannel } from '../notifications/channels';
import { decryptContent, deliverDue } from '../notifications/outbox';
import { placeTestCall, testCallWords, voiceChannelFromConfig } from './voice-channel';
import { CALL_KEYS_WORDS } from './voice-twiml';

/**
 * Phone calls (issue 33, decision 252), through the app and a loopback Twilio: a person's rules
 * "SMS at once, call after 1 minute" send the SMS at once and place the call a minute later; the
 * call's signed callbacks speak the page, acknowledge (1), escalate (2) and repeat (3); a wrongly
 * signed one changes nothing; the call's outcome is on the timeline, and a call nobody answered
 * fails its notification. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */

const PUBLIC_URL = 'https://baton.example.test';
const TWILIO_FROM = '+15550009999';
const MINUTE = 60_000;

let t: TestApp;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let channels: Channels;
let manager: User;

beforeAll(async () => {
  twilio = await startFakeTwilio('AC_voice_test', 'voice-auth-token');
  t = await createTestApp({
    env: {
      PUBLIC_URL,
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_FROM,
      TWILIO_API_BASE: twilio.apiBase,
    },
  });
  channels = {
    sms: createSmsChannel({ ...twilio, from: TWILIO_FROM }),
    voice: voiceChannelFromConfig(t.config, t.cipher),
  };
  manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
});
afterAll(async () => {
  await t?.close();
  await twilio?.close();
});

const deliver = () =>
  deliverDue({ db: t.database.db, cipher: t.cipher, channels, clock: t.clock, random: () => 0.5 });

/** Twilio's callbacks, posted into the app: the public URL's path, the form, its signature. */
const inject: CallbackPost = async (url, form, headers) => {
  expect(url.startsWith(PUBLIC_URL)).toBe(true);
  const res = await t.rawInject({
    method: 'POST',
    url: url.slice(PUBLIC_URL.length),
    headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form as [string, string][]).toString(),
  });
  return { status: res.statusCode, body: res.body };
};

const SMS_THEN_CALL = {
  high: [
    { method: 'sms', delayMinutes: 0 },
    { method: 'voice', delayMinutes: 1 },
    { method: 'email', delayMinutes: 5 },
  ],
  low: [{ method: 'email', delayMinutes: 0 }],
};

let phones = 0;

/** A person on call alone, with "SMS at once, call after 1 minute, email after 5", paged high. */
async function pagedPerson(name: string) {
  phones += 1;
  const person = await t.createUser({
    name,
    phone: `+1555010${String(3000 + phones)}`,
    notificationPreference: 'both',
  });
  const put = await t.call(
    person,
    'PUT',
    `/api/users/${person.id}/notification-rules`,
    SMS_THEN_CALL,
  );
  expect(put.statusCode, put.body).toBe(200);
  const rotation = await insertRotation(t.database.db, {
    name: `Payments ${name}`,
    memberIds: [person.id],
    holderId: person.id,
    createdById: manager.id,
    now: t.clock.now(),
  });
  const res = await t.call(manager, 'POST', `/api/rotations/${rotation.id}/page`, {
    message: 'Checkout is failing',
    urgency: 'high',
  });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await t.database.db.select().from(pages).where(eq(pages.rotationId, rotation.id));
  return { person, incidentId: row.id };
}

/**
 * Delivers what is due now and a minute later: the person's SMS at once, then their call (other
 * tests' people may have rows due too: only this person's are looked at).
 */
async function placeCall(person: User): Promise<PlacedCall> {
  const smsBefore = twilio.sent.length;
  const callsBefore = twilio.calls.length;
  const theirs = <T extends { to: string }>(list: T[], from: number) =>
    list.slice(from).filter((m) => m.to === person.phone);
  await deliver();
  expect(theirs(twilio.sent, smsBefore)).toHaveLength(1);
  expect(theirs(twilio.calls, callsBefore)).toHaveLength(0);
  t.clock.advance(MINUTE);
  await deliver();
  const placed = theirs(twilio.calls, callsBefore);
  expect(placed).toHaveLength(1);
  return placed[0];
}

const incidentOf = async (id: number) =>
  (await t.database.db.select().from(pages).where(eq(pages.id, id)))[0];
const timelineOf = async (id: number): Promise<TimelineEvent[]> =>
  (await t.call(manager, 'GET', `/api/incidents/${id}`)).json().timeline;
const voiceRowOf = async (id: number) =>
  (
    await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.pageId, id), eq(notifications.channel, 'voice')))
  )[0];

describe('SMS at once, a call after a minute, and 1 acknowledges', () => {
  test('the done-when of issue 33', async () => {
    const { person, incidentId } = await pagedPerson('Vera Voice');
    const call = await placeCall(person);
    // As Twilio's Calls API takes it: from the Twilio number, Baton's TwiML, the status callback.
    const voiceRow = await voiceRowOf(incidentId);
    expect(call).toMatchObject({
      from: TWILIO_FROM,
      method: 'POST',
      statusCallbackEvents: ['initiated', 'ringing', 'answered', 'completed'],
      machineDetection: null,
    });
    expect(call.url).toMatch(
      new RegExp(`^${PUBLIC_URL}/api/twilio/voice/${voiceRow.id}/[\\w-]{43}$`),
    );
    expect(call.statusCallback).toBe(`${call.url}/status`);
    expect(voiceRow).toMatchObject({ status: 'sent', providerResponse: call.sid });

    const driven = twilio.drive(call, inject);
    const answered = await driven.answer();
    expect(answered.status, answered.body).toBe(200);
    expect(answered.body).toContain('<Gather input="dtmf" numDigits="1"');
    expect(answered.body).toContain(
      `This is Baton. A high urgency page for Payments Vera Voice, from Mo Manager: Checkout is failing. ${CALL_KEYS_WORDS}`,
    );

    // A wrongly signed key changes nothing.
    const forged = await twilio.drive(call, inject, 'not-the-auth-token');
    await forged.answer().catch(() => undefined);
    const eventsBefore = await t.database.db.select().from(auditEvents);
    const forgedKey = await t.rawInject({
      method: 'POST',
      url: `${call.url.slice(PUBLIC_URL.length)}/gather`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': 'c2lnbmF0dXJlIG9mIHNvbWVvbmUgZWxzZQ==',
      },
      payload: `CallSid=${call.sid}&Digits=1&CallStatus=in-progress`,
    });
    expect(forgedKey.statusCode, forgedKey.body).toBe(403);
    expect((await incidentOf(incidentId)).status).toBe('triggered');
    expect(await t.database.db.select().from(auditEvents)).toHaveLength(eventsBefore.length);

    const pressed = await driven.press('1');
    expect(pressed.status, pressed.body).toBe(200);
    expect(pressed.body).toContain('Acknowledged. Thank you. Goodbye.');
    expect(pressed.body).toContain('<Hangup/>');
    const acknowledged = await incidentOf(incidentId);
    expect(acknowledged).toMatchObject({ status: 'acknowledged', acknowledgedById: person.id });

    const ended = await driven.status('completed');
    expect(ended.status, ended.body).toBe(200);
    const timeline = await timelineOf(incidentId);
    expect(timeline.find((e) => e.kind === 'acknowledged')).toMatchObject({
      actor: { id: person.id, name: 'Vera Voice' },
      via: 'phone',
    });
    expect(timeline.find((e) => e.kind === 'call')).toMatchObject({
      to: { id: person.id },
      channel: 'voice',
      callOutcome: 'answered',
      key: '1',
    });
    expect(timeline.find((e) => e.kind === 'notified' && e.channel === 'voice')).toMatchObject({
      delivery: 'sent',
    });

    // Nothing more is sent: the email rule was stopped by the acknowledgement.
    const sms = twilio.sent.length;
    const calls = twilio.calls.length;
    t.clock.advance(10 * MINUTE);
    await deliver();
    expect(twilio.sent.length).toBe(sms);
    expect(twilio.calls.length).toBe(calls);
    const email = timeline.find((e) => e.kind === 'notified' && e.channel === 'email');
    expect(email).toMatchObject({ delivery: 'stopped' });
  });
});

describe("a call's other keys and outcomes", () => {
  test('nobody answers: recorded on the timeline, and the call counts as not delivered', async () => {
    const { person, incidentId } = await pagedPerson('Nell Noanswer');
    const call = await placeCall(person);
    const driven = twilio.drive(call, inject);
    expect((await driven.status('ringing')).status).toBe(200);
    expect((await voiceRowOf(incidentId)).status).toBe('sent');
    expect((await driven.status('no-answer')).status).toBe(200);
    // Twilio may post the end again: it is recorded once.
    expect((await driven.status('no-answer')).status).toBe(200);
    expect(await voiceRowOf(incidentId)).toMatchObject({
      status: 'failed',
      lastError: 'The call was not answered',
    });
    const timeline = await timelineOf(incidentId);
    expect(timeline.filter((e) => e.kind === 'call')).toEqual([
      expect.objectContaining({
        to: expect.objectContaining({ id: person.id }),
        callOutcome: 'no-answer',
        key: null,
      }),
    ]);
    expect(timeline.find((e) => e.kind === 'notified' && e.channel === 'voice')).toMatchObject({
      delivery: 'failed',
      error: 'The call was not answered',
    });
    expect((await incidentOf(incidentId)).status).toBe('triggered');
    // Whoever raised it sees the call among their page's delivery failures.
    const failures = await t.call(manager, 'GET', '/api/user/page-delivery-failures');
    expect(failures.statusCode, failures.body).toBe(200);
    expect(failures.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          pageId: incidentId,
          channel: 'voice',
          reason: 'The call was not answered',
          fallbackChannel: null,
        }),
      ]),
    );
  });

  test.each([
    ['busy', {}, 'busy', 'The line was busy'],
    ['failed', {}, 'failed', 'The call could not be placed'],
    ['canceled', {}, 'canceled', 'The call was canceled before it was answered'],
    [
      'completed',
      { AnsweredBy: 'machine_end_beep' },
      'machine',
      'An answering machine took the call',
    ],
  ] as const)('%s %j: %s, not delivered', async (status, fields, outcome, why) => {
    const { person, incidentId } = await pagedPerson(`Ola ${outcome}`);
    const call = await placeCall(person);
    expect((await twilio.drive(call, inject).status(status, fields)).status).toBe(200);
    expect(await voiceRowOf(incidentId)).toMatchObject({ status: 'failed', lastError: why });
    expect((await timelineOf(incidentId)).find((e) => e.kind === 'call')).toMatchObject({
      callOutcome: outcome,
    });
  });

  test('answered by a machine: the call ends without a word', async () => {
    const { person } = await pagedPerson('Max Machine');
    const call = await placeCall(person);
    const answered = await twilio.drive(call, inject).answer({ AnsweredBy: 'machine_start' });
    expect(answered.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>',
    );
  });

  test('3 repeats the page; 2 escalates to the next step once, as the person, by phone', async () => {
    const { person, incidentId } = await pagedPerson('Esme Escalates');
    const call = await placeCall(person);
    const driven = twilio.drive(call, inject);
    await driven.answer();
    const again = await driven.press('3');
    expect(again.body).toContain('<Gather input="dtmf" numDigits="1"');
    expect(again.body).toContain('Checkout is failing');
    const escalated = await driven.press('2');
    expect(escalated.body, escalated.body).toContain('Escalated to the next step. Goodbye.');
    const after = await incidentOf(incidentId);
    expect(after.stepIndex).toBe(1);
    // The same key posted again (a replay, or a second press) does not move it again.
    const replay = await twilio
      .drive(call, inject)
      .press('2')
      .catch((err: Error) => err);
    expect(replay).toBeInstanceOf(Error); // no Gather in a fresh drive: answer first
    const driven2 = twilio.drive(call, inject);
    await driven2.answer();
    const second = await driven2.press('2');
    expect(second.body).not.toContain('Escalated to the next step');
    expect((await incidentOf(incidentId)).stepIndex).toBe(1);
    const line = (await timelineOf(incidentId)).find((e) => e.kind === 'escalated');
    expect(line).toMatchObject({
      actor: { id: person.id },
      reason: 'Escalated from a phone call',
      automatic: false,
    });
    const [bound] = await t.database.db
      .select()
      .from(voiceCalls)
      .where(eq(voiceCalls.callSid, call.sid));
    expect(bound).toMatchObject({ userId: person.id, pageId: incidentId, key: '2', stepIndex: 0 });
  });

  test('a wrong token, or a signature for another URL, is refused', async () => {
    const { person } = await pagedPerson('Tom Token');
    const call = await placeCall(person);
    const wrongToken = {
      ...call,
      url: call.url.replace(/\/[\w-]+$/, '/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    };
    expect((await twilio.drive(wrongToken, inject).answer()).status).toBe(404);
    // signed for the right URL, sent to another notification's
    const other: CallbackPost = (url, form, headers) =>
      inject(url.replace(/\/voice\/\d+\//, '/voice/1/'), form, headers);
    expect((await twilio.drive(call, other).answer()).status).toBe(403);
    const unsigned = await t.rawInject({
      method: 'POST',
      url: call.url.slice(PUBLIC_URL.length),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `CallSid=${call.sid}`,
    });
    expect(unsigned.statusCode).toBe(401);
  });

  test("the call's words are sealed in its notification", async () => {
    const { incidentId } = await pagedPerson('Sue Sealed');
    const row = await voiceRowOf(incidentId);
    expect(row.contentEnc).not.toContain('Checkout');
    expect(decryptContent(row, t.cipher).text).toMatch(/^This is Baton\. A high urgency page/);
    const ordered = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.pageId, incidentId))
      .orderBy(asc(notifications.id));
    expect(
      ordered
        .filter((r) => r.kind === 'page')
        .map((r) => [r.channel, (r.nextAttemptAt.getTime() - r.createdAt.getTime()) / MINUTE]),
    ).toEqual([
      ['sms', 0],
      ['voice', 1],
      ['email', 5],
    ]);
  });
});

describe('a test call', () => {
  test('rings once with its words inline and nothing to call back about', async () => {
    const sid = await placeTestCall({ ...twilio, from: TWILIO_FROM }, '+15550104444', 'Tia Test');
    const placed = twilio.calls.find((c) => c.sid === sid);
    expect(placed).toMatchObject({
      to: '+15550104444',
      from: TWILIO_FROM,
      url: '',
      statusCallback: null,
    });
    expect(placed?.twiml).toContain(testCallWords('Tia Test'));
    expect(placed?.twiml).toContain('<Hangup/>');
  });

  test('a number Twilio refuses is a permanent failure', async () => {
    await expect(
      placeTestCall({ ...twilio, from: TWILIO_FROM }, '555', 'Tia Test'),
    ).rejects.toMatchObject({ permanent: true, message: 'Call provider answered 400' });
  });
});

describe('without Twilio', () => {
  test('calls are skipped with why, and the callbacks answer 404', async () => {
    const off = await createTestApp({ env: { PUBLIC_URL } });
    try {
      const person = await off.createUser({ name: 'Ned Nocalls', phone: '+15550107777' });
      const put = await off.call(
        person,
        'PUT',
        `/api/users/${person.id}/notification-rules`,
        SMS_THEN_CALL,
      );
      expect(put.statusCode, put.body).toBe(200);
      const got = await off.call(person, 'GET', `/api/users/${person.id}/notification-rules`);
      expect(got.json()).toMatchObject({ voiceReady: false });
      const res = await off.rawInject({
        method: 'POST',
        url: '/api/twilio/voice/1/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'x' },
        payload: 'CallSid=CA1',
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });

  test('with Twilio, the rules say calls are ready', async () => {
    const person = await t.createUser({ name: 'Rita Ready', phone: '+15550108888' });
    const got = await t.call(person, 'GET', `/api/users/${person.id}/notification-rules`);
    expect(got.json()).toMatchObject({ voiceReady: true });
  });
});
