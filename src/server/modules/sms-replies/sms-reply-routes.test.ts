import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, notifications, pages, rateLimitHits, smsReplyCodes } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { runIncidentTimers as runPageTimers } from '../incidents/incident-escalation-task';
import { formatWhen } from '../notifications/message-layout';
import { decryptContent } from '../notifications/outbox';
import { WRONG_CODE_LIMIT } from './sms-reply-guards';
import { MESSAGE_REPLAYED, twiml } from './sms-reply-routes';
import { twilioSignature } from './twilio-signature';

/** API tests of SMS replies to pages (decision 201), on PGlite and (TEST_DATABASE_URL) PostgreSQL. */

const PUBLIC_URL = 'https://baton.example.test';
const AUTH_TOKEN = 'twilio-auth-token-for-tests';
const OLIVIA_PHONE = '+15550100001';
const NOAH_PHONE = '+15550100002';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

let t: TestApp;
const people = {} as Record<'morgan' | 'olivia' | 'noah', User>;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL, TWILIO_AUTH_TOKEN: AUTH_TOKEN } });
  people.morgan = await t.createUser({ name: 'Morgan Manager', roles: ['manager'] });
  people.olivia = await t.createUser({
    name: 'Olivia Ortiz',
    phone: '+1 555 010 0001',
    notificationPreference: 'both',
    timezone: 'America/Chicago',
  });
  people.noah = await t.createUser({
    name: 'Noah Nakamura',
    phone: NOAH_PHONE,
    notificationPreference: 'sms',
    timezone: 'Europe/Berlin',
  });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.database.db.delete(pages);
  // Each test counts its own wrong codes and MessageSids.
  await t.database.db.delete(rateLimitHits);
});

/** A rotation Olivia holds (then Noah), paged by Morgan; returns the page row. */
async function page(urgency: 'high' | 'low' = 'high') {
  const r = await insertRotation(t.database.db, {
    name: `Platform ${Math.random().toString(36).slice(2, 7)}`,
    memberIds: [people.olivia.id, people.noah.id],
    holderId: people.olivia.id,
    createdById: people.morgan.id,
    now: t.clock.now(),
  });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/rotations/${r.id}/page`,
    payload: { message: 'Checkout is failing', urgency },
    headers: { origin: 'http://localhost:80', cookie: await t.cookieFor(people.morgan) },
  });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await t.database.db.select().from(pages).where(eq(pages.rotationId, r.id));
  return { rotation: r, page: row };
}

/** The SMS texts written for a page, to whom. */
async function smsFor(pageId: number) {
  const rows = await t.database.db
    .select()
    .from(notifications)
    .where(and(eq(notifications.pageId, pageId), eq(notifications.channel, 'sms')));
  return rows.map((r) => ({ userId: r.userId, ...decryptContent(r, t.cipher) }));
}

async function codeIn(pageId: number): Promise<string> {
  const [sms] = await smsFor(pageId);
  const match = /Reply ([0-9]{4}) to acknowledge, \1R to resolve\./.exec(sms?.text ?? '');
  if (!match) throw new Error(`no reply code in: ${sms?.text}`);
  return match[1];
}

type Signing = 'valid' | 'wrong' | 'none';

let sids = 0;
/** A fresh MessageSid, as Twilio gives each message (a repeated one is a replay, decision 236). */
const nextSid = () => `SM${String(++sids).padStart(32, '0')}`;

/** Posts an incoming SMS as Twilio does: form-encoded, signed over PUBLIC_URL + path + fields. */
async function reply(
  from: string,
  body: string,
  signing: Signing = 'valid',
  origin = false,
  sid = nextSid(),
) {
  const fields: [string, string][] = [
    ['ToCountry', 'US'],
    ['MessageSid', sid],
    ['From', from],
    ['To', '+15550000000'],
    ['Body', body],
    ['NumMedia', '0'],
  ];
  const signature =
    signing === 'valid'
      ? twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/api/twilio/sms`, fields)
      : signing === 'wrong'
        ? twilioSignature('another-token', `${PUBLIC_URL}/api/twilio/sms`, fields)
        : undefined;
  return t.app.inject({
    method: 'POST',
    url: '/api/twilio/sms',
    payload: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature ? { 'x-twilio-signature': signature } : {}),
      ...(origin ? { origin: 'http://localhost:80' } : {}),
    },
  });
}

const message = (res: { body: string }) =>
  /<Response><Message>(.*)<\/Message><\/Response>$/.exec(res.body)?.[1];

async function pageRow(id: number) {
  const [row] = await t.database.db.select().from(pages).where(eq(pages.id, id));
  return row;
}

async function eventsOf(pageId: number) {
  return t.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.targetType, 'page'), eq(auditEvents.targetId, String(pageId))));
}

describe('the page SMS', () => {
  test('carries a four-digit code to reply with; the email does not need one', async () => {
    const { rotation, page: p } = await page();
    const [sms] = await smsFor(p.id);
    const code = await codeIn(p.id);
    expect(sms.to).toBe(OLIVIA_PHONE);
    expect(sms.text).toMatch(
      new RegExp(
        `^Baton PAGE \\(High\\) ${rotation.name} from Morgan Manager: Checkout is failing Reply ${code} to acknowledge, ${code}R to resolve\\. Ack: ${PUBLIC_URL}/pages/ack/`,
      ),
    );
    // Stored with the page and the person, and the number only as a keyed hash.
    const codes = await t.database.db.select().from(smsReplyCodes);
    const row = codes.find((c) => c.pageId === p.id);
    expect(row).toMatchObject({ userId: people.olivia.id, code, closedAt: null });
    expect(row?.phoneHash).toBe(t.cipher.phoneIndex(OLIVIA_PHONE));
    expect(JSON.stringify(codes)).not.toContain('5550100001');
  });

  test("the clock's reminder carries the same code", async () => {
    const { rotation, page: p } = await page();
    const code = await codeIn(p.id);
    await runPageTimers(
      { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config },
      new Date(t.clock.now().getTime() + 16 * MINUTE),
    );
    const reminder = (await smsFor(p.id)).find((s) => s.text.startsWith('Baton REMINDER'));
    expect(reminder?.text).toContain(
      `Baton REMINDER: page for ${rotation.name} not acknowledged: Checkout is failing Reply ${code} to acknowledge, ${code}R to resolve.`,
    );
    const codes = await t.database.db
      .select()
      .from(smsReplyCodes)
      .where(eq(smsReplyCodes.pageId, p.id));
    expect(codes).toHaveLength(1);
  });

  test('a low-urgency page goes by email only, so it carries no code', async () => {
    const { page: p } = await page('low');
    expect(await smsFor(p.id)).toEqual([]);
    const codes = await t.database.db
      .select()
      .from(smsReplyCodes)
      .where(eq(smsReplyCodes.pageId, p.id));
    expect(codes).toEqual([]);
  });

  test("codes are unique among a number's open codes", async () => {
    const codes = new Set<string>();
    for (let i = 0; i < 12; i++) codes.add(await codeIn((await page()).page.id));
    expect(codes.size).toBe(12);
  });
});

describe('replying', () => {
  test('a signed reply with the code acknowledges the page as the person it was sent to', async () => {
    const { rotation, page: p } = await page();
    const code = await codeIn(p.id);
    const res = await reply(OLIVIA_PHONE, ` ${code} `);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/xml/);
    expect(message(res)).toBe(`Baton: you acknowledged the page for ${rotation.name}.`);
    expect(await pageRow(p.id)).toMatchObject({
      status: 'acknowledged',
      acknowledgedAt: t.clock.now(),
    });
    const acknowledged = (await eventsOf(p.id)).find((e) => e.action === 'page.acknowledged');
    expect(acknowledged).toMatchObject({ actorUserId: people.olivia.id });
    expect(acknowledged?.details).toMatchObject({ via: 'sms' });
    // The page history says how.
    const history = await t.app.inject({
      url: `/api/rotations/${rotation.id}/pages`,
      headers: { cookie: await t.cookieFor(people.olivia) },
    });
    const [listed] = history.json();
    expect(listed.events).toContainEqual(
      expect.objectContaining({ kind: 'acknowledged', via: 'sms' }),
    );
    // The code is spent: the same reply again says who acknowledged, and when.
    const again = await reply(OLIVIA_PHONE, code);
    expect(message(again)).toBe(
      `Baton: the page for ${rotation.name} was already acknowledged by Olivia Ortiz at ${formatWhen(t.clock.now(), 'America/Chicago')}.`,
    );
  });

  test('"R" after the code resolves it (any case, spaces ignored)', async () => {
    const { rotation, page: p } = await page();
    const code = await codeIn(p.id);
    const res = await reply(OLIVIA_PHONE, `  ${code}r\n`);
    expect(message(res)).toBe(`Baton: you resolved the page for ${rotation.name}.`);
    expect(await pageRow(p.id)).toMatchObject({ status: 'resolved' });
    const resolved = (await eventsOf(p.id)).find((e) => e.action === 'page.resolved');
    expect(resolved).toMatchObject({ actorUserId: people.olivia.id });
    expect(resolved?.details).toMatchObject({ via: 'sms' });
    expect(message(await reply(OLIVIA_PHONE, `${code}R`))).toBe(
      `Baton: the page for ${rotation.name} was already resolved at ${formatWhen(t.clock.now(), 'America/Chicago')}.`,
    );
  });

  test.each<[string, Signing, boolean]>([
    ['no signature and no Origin', 'none', false],
    ['no signature, from a page of Baton', 'none', true],
    ['a signature made with another token', 'wrong', false],
    ['a wrong signature, from a page of Baton', 'wrong', true],
  ])('%s: 401, and nothing changes', async (_name, signing, origin) => {
    const { page: p } = await page();
    const code = await codeIn(p.id);
    const before = await eventsOf(p.id);
    const res = await reply(OLIVIA_PHONE, code, signing, origin);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json().message).toMatch(/signed|signature/);
    expect(await pageRow(p.id)).toMatchObject({ status: 'triggered', acknowledgedAt: null });
    expect(await eventsOf(p.id)).toEqual(before);
  });

  test('a signature over other fields (a changed body) is refused', async () => {
    const { page: p } = await page();
    const code = await codeIn(p.id);
    const fields: [string, string][] = [
      ['From', OLIVIA_PHONE],
      ['Body', '0000'],
    ];
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/twilio/sms',
      payload: new URLSearchParams([
        ['From', OLIVIA_PHONE],
        ['Body', code],
      ]).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/api/twilio/sms`, fields),
      },
    });
    expect(res.statusCode).toBe(401);
    expect(await pageRow(p.id)).toMatchObject({ status: 'triggered' });
  });

  test('a reply from another number changes nothing', async () => {
    const { page: p } = await page();
    const code = await codeIn(p.id);
    const res = await reply(NOAH_PHONE, code);
    expect(res.statusCode).toBe(200);
    expect(message(res)).toBe(
      `Baton: code ${code} is unknown or has expired. Open Baton to see your pages.`,
    );
    expect(await pageRow(p.id)).toMatchObject({ status: 'triggered' });
    expect((await eventsOf(p.id)).map((e) => e.action)).not.toContain('page.acknowledged');
  });

  test('a page acknowledged in the app: its code no longer acknowledges, says who and when, and still resolves', async () => {
    const { rotation, page: p } = await page();
    const code = await codeIn(p.id);
    const acknowledgedAt = t.clock.now();
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/pages/${p.id}/acknowledge`,
      headers: { origin: 'http://localhost:80', cookie: await t.cookieFor(people.olivia) },
    });
    expect(ack.statusCode).toBe(200);
    const [row] = await t.database.db
      .select()
      .from(smsReplyCodes)
      .where(eq(smsReplyCodes.pageId, p.id));
    expect(row.closedAt).toEqual(acknowledgedAt);
    t.clock.advance(HOUR);
    const res = await reply(OLIVIA_PHONE, code);
    expect(message(res)).toBe(
      `Baton: the page for ${rotation.name} was already acknowledged by Olivia Ortiz at ${formatWhen(acknowledgedAt, 'America/Chicago')}.`,
    );
    expect(await pageRow(p.id)).toMatchObject({ status: 'acknowledged' });
    // Whoever acknowledged resolves by the same code with R.
    expect(message(await reply(OLIVIA_PHONE, `${code}R`))).toBe(
      `Baton: you resolved the page for ${rotation.name}.`,
    );
    expect(await pageRow(p.id)).toMatchObject({ status: 'resolved' });
    // A day after it closed, the code is forgotten.
    t.clock.advance(24 * HOUR);
    expect(message(await reply(OLIVIA_PHONE, code))).toBe(
      `Baton: code ${code} is unknown or has expired. Open Baton to see your pages.`,
    );
  });

  test('an escalated page: the new recipient gets a code; the previous one, notified too, still answers for it (decision 204)', async () => {
    const { rotation, page: p } = await page();
    const oliviaCode = await codeIn(p.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/pages/${p.id}/escalate`,
      payload: { reason: 'Olivia is on a plane' },
      headers: { origin: 'http://localhost:80', cookie: await t.cookieFor(people.olivia) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const noahSms = (await smsFor(p.id)).find((s) => s.userId === people.noah.id);
    const noahCode = /Reply ([0-9]{4}) to acknowledge/.exec(noahSms?.text ?? '')?.[1];
    expect(noahSms?.text).toContain(`Baton ESCALATED PAGE (High) ${rotation.name}`);
    expect(noahCode).toMatch(/^[0-9]{4}$/);
    expect(message(await reply(NOAH_PHONE, noahCode as string))).toBe(
      `Baton: you acknowledged the page for ${rotation.name}.`,
    );
    expect(await pageRow(p.id)).toMatchObject({
      status: 'acknowledged',
      targetUserId: people.noah.id,
      acknowledgedById: people.noah.id,
    });
    // Olivia's code closed with the acknowledgement: it says who acknowledged it, and still resolves.
    expect(message(await reply(OLIVIA_PHONE, oliviaCode))).toMatch(
      new RegExp(
        `^Baton: the page for ${rotation.name} was already acknowledged by Noah Nakamura at `,
      ),
    );
    expect(message(await reply(OLIVIA_PHONE, `${oliviaCode}R`))).toBe(
      `Baton: you resolved the page for ${rotation.name}.`,
    );
  });

  test('anything but a code gets a short help text', async () => {
    for (const body of ['hello', '', '48210', 'R4821']) {
      const res = await reply(OLIVIA_PHONE, body);
      expect(res.statusCode).toBe(200);
      expect(message(res)).toMatch(/^Baton: reply with the 4-digit code from a page/);
    }
  });

  test('a signed request replayed with a MessageSid already seen is refused and changes nothing (decision 236)', async () => {
    const { page: p } = await page();
    const code = await codeIn(p.id);
    const sid = nextSid();
    const first = await reply(OLIVIA_PHONE, `${code}R`, 'valid', false, sid);
    expect(message(first)).toMatch(/^Baton: you resolved the page for /);
    const events = (await eventsOf(p.id)).length;
    for (let i = 0; i < 3; i++) {
      const again = await reply(OLIVIA_PHONE, `${code}R`, 'valid', false, sid);
      expect([again.statusCode, again.json()]).toEqual([
        401,
        { message: MESSAGE_REPLAYED, code: 'UNAUTHENTICATED' },
      ]);
    }
    expect(await eventsOf(p.id)).toHaveLength(events);
  });

  test('10 wrong codes in an hour: the number is told to use the link, and its codes are not tried (decision 236)', async () => {
    expect(WRONG_CODE_LIMIT).toBe(10);
    const { page: p } = await page();
    const code = await codeIn(p.id);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 10_000).padStart(4, '0');
    const tooMany =
      'Baton: too many wrong codes from this number. Codes from it are not tried for the next hour: use the Ack link in the page instead, or open Baton.';
    for (let i = 0; i < WRONG_CODE_LIMIT - 1; i++) {
      expect(message(await reply(OLIVIA_PHONE, wrong(i)))).toBe(
        `Baton: code ${wrong(i)} is unknown or has expired. Open Baton to see your pages.`,
      );
    }
    expect(message(await reply(OLIVIA_PHONE, wrong(WRONG_CODE_LIMIT)))).toBe(tooMany);
    // The right code is not tried either; another number still is.
    expect(message(await reply(OLIVIA_PHONE, code))).toBe(tooMany);
    expect(await pageRow(p.id)).toMatchObject({ status: 'triggered' });
    expect(message(await reply(NOAH_PHONE, '9999'))).toMatch(/^Baton: code 9999 is unknown/);
    // An hour later the number's codes are tried again.
    t.clock.advance(HOUR);
    expect(message(await reply(OLIVIA_PHONE, code))).toMatch(/^Baton: you acknowledged the page/);
    expect(await pageRow(p.id)).toMatchObject({ status: 'acknowledged' });
  });

  test('a reply without From is a 400, not a 500', async () => {
    const fields: [string, string][] = [['Body', '1234']];
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/twilio/sms',
      payload: new URLSearchParams(fields).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/api/twilio/sms`, fields),
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('From: From is required');
  });
});

describe('without TWILIO_AUTH_TOKEN', () => {
  test('the route is off (404)', async () => {
    const off = await createTestApp({ env: { PUBLIC_URL } });
    try {
      const fields: [string, string][] = [
        ['From', OLIVIA_PHONE],
        ['Body', '1234'],
      ];
      const res = await off.app.inject({
        method: 'POST',
        url: '/api/twilio/sms',
        payload: new URLSearchParams(fields).toString(),
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-twilio-signature': twilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/api/twilio/sms`, fields),
        },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('SMS replies are off: TWILIO_AUTH_TOKEN is not set.');
    } finally {
      await off.close();
    }
  });
});

test('TwiML escapes what it quotes', () => {
  expect(twiml('Baton: the page for Ops & <Night> "duty"\'s was resolved.')).toBe(
    '<?xml version="1.0" encoding="UTF-8"?><Response><Message>Baton: the page for Ops &amp; &lt;Night&gt; &quot;duty&quot;&apos;s was resolved.</Message></Response>',
  );
});
