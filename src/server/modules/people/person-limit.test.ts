import { asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeTwilio } from '../../../../tests/setup/fake-twilio';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, openSecondInstance, type TestApp } from '../../../../tests/setup/test-app';
import type { TimelineEvent } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { notifications, pages, personLimitSends } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { type Channels, createEmailChannel, createSmsChannel } from '../notifications/channels';
import { deliverDue } from '../notifications/outbox';
import { HELD_AND_EMAILED, HELD_BY_LIMIT } from '../notifications/person-limit';

/**
 * The limit per person on texts and calls, counted in the database (issue 33, decision 265):
 * two app instances on one database deciding at once never send past it, a retried text keeps
 * its place, and what the limit holds goes by email at once (over the loopback SMTP server and
 * the fake Twilio), said on the timeline. PGlite, and PostgreSQL with TEST_DATABASE_URL (each
 * instance its own pool).
 */

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let channels: Channels;
let manager: User;

beforeAll(async () => {
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  t = await createTestApp({
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
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await twilio.close();
});
beforeEach(() => {
  smtp.received.length = 0;
  twilio.sent.length = 0;
});

const deliver = () =>
  deliverDue({ db: t.database.db, cipher: t.cipher, channels, clock: t.clock, random: () => 0.5 });

/** A person on call alone in a rotation the manager made. */
async function holder(name: string, extra: Partial<User> = {}) {
  const person = await t.createUser({
    name,
    phone: '+15550100301',
    notificationPreference: 'both',
    ...extra,
  });
  const rotation = await insertRotation(t.database.db, {
    memberIds: [person.id],
    holderId: person.id,
    createdById: manager.id,
  });
  return { person, rotation };
}

async function page(rotationId: number, urgency: 'high' | 'low', message: string) {
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

describe('the limit is counted in the database: every instance shares it (decision 265)', () => {
  test('two instances deciding at once for one person send 3 texts, not 4; the 4th is held', async () => {
    const { person, rotation } = await holder('Duo Texts', {
      notificationPreference: 'sms',
      phone: '+15550100388',
    });
    await deliver(); // what other tests left due
    twilio.sent.length = 0;
    for (let i = 1; i <= 4; i++) await page(rotation.id, 'high', `Twin alarm ${i}`);
    const second = await openSecondInstance(t);
    try {
      const on = (db: typeof t.database.db) =>
        deliverDue({ db, cipher: t.cipher, channels, clock: t.clock, random: () => 0.5 }, 2, 'sms');
      // Each instance claims two of the four texts (SKIP LOCKED) and decides them at once.
      const [a, b] = await Promise.all([on(t.database.db), on(second.database.db)]);
      expect(a.sent + b.sent).toBe(3);
    } finally {
      await second.close();
    }
    expect(twilio.sent.filter((s) => s.to === '+15550100388')).toHaveLength(3);
    const sms = (await rowsTo(person.id)).filter((r) => r.channel === 'sms');
    expect(sms.map((r) => r.status).sort()).toEqual(['pending', 'sent', 'sent', 'sent']);
    expect(sms.find((r) => r.status === 'pending')).toMatchObject({ held: 'limit', attempts: 0 });
    const places = await t.database.db
      .select()
      .from(personLimitSends)
      .where(eq(personLimitSends.userId, person.id));
    expect(places).toHaveLength(3);
    t.clock.set(new Date('2026-11-02T12:00:00Z'));
  });

  test('a retried text keeps its place; places older than the window are let go', async () => {
    const { person, rotation } = await holder('Rita Retry', {
      notificationPreference: 'sms',
      phone: '+15550100387',
    });
    await deliver();
    twilio.next({ kind: 'status', status: 500 });
    await page(rotation.id, 'high', 'Flaky provider');
    await deliver();
    const [row] = (await rowsTo(person.id)).filter((r) => r.channel === 'sms');
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    t.clock.advance(10 * 60_000);
    await deliver();
    expect((await rowsTo(person.id)).find((r) => r.id === row.id)?.status).toBe('sent');
    const placesOf = () =>
      t.database.db.select().from(personLimitSends).where(eq(personLimitSends.userId, person.id));
    expect(await placesOf()).toHaveLength(1);
    // The next decision for them, past the window, lets the old place go.
    t.clock.advance(16 * 60_000);
    await page(rotation.id, 'high', 'Much later');
    await deliver();
    const places = await placesOf();
    expect(places).toHaveLength(1);
    expect(places[0].notificationId).not.toBe(row.id);
    t.clock.set(new Date('2026-11-02T12:00:00Z'));
  });
});

describe('what the limit holds goes by email at once (decision 265)', () => {
  test('a held text is emailed at once with its page; the timeline says held and emailed', async () => {
    const { person, rotation } = await holder('Ema Overflow', {
      notificationPreference: 'sms',
      phone: '+15550100386',
    });
    await deliver();
    smtp.received.length = 0;
    const ids: number[] = [];
    for (let i = 1; i <= 4; i++) {
      ids.push(await page(rotation.id, 'high', `Overflow alarm ${i}`));
      await deliver();
    }
    expect(twilio.sent.filter((s) => s.to === '+15550100386')).toHaveLength(3);
    // The email is written with the hold, due at once: the worker's next round sends it.
    expect(smtp.received.filter((m) => m.to.includes(person.email))).toHaveLength(0);
    await deliver();
    const rows = await rowsTo(person.id);
    const held = rows.find((r) => r.channel === 'sms' && r.held === 'limit');
    expect(held).toMatchObject({ status: 'pending', lastError: HELD_AND_EMAILED });
    expect(rows.filter((r) => r.channel === 'email')).toHaveLength(1);
    const email = rows.find((r) => r.channel === 'email');
    expect(email).toMatchObject({
      held: 'limit-email',
      status: 'sent',
      dedupeKey: `limit-email:${held?.id}`,
    });
    const mail = smtp.received.filter((m) => m.to.includes(person.email));
    expect(mail).toHaveLength(1);
    expect(mail[0].raw).toMatch(/Overflow alarm 4/);
    const timeline: TimelineEvent[] = (
      await t.call(manager, 'GET', `/api/incidents/${ids[3]}`)
    ).json().timeline;
    const notified = timeline.filter((e) => e.kind === 'notified');
    expect(notified.find((e) => e.channel === 'sms')).toMatchObject({
      held: 'limit',
      limitEmail: 'emailed',
    });
    expect(notified.find((e) => e.channel === 'email')).toMatchObject({
      delivery: 'sent',
      limitEmail: 'email',
    });

    // A fifth page a minute later is held too, and emailed with its own words.
    t.clock.advance(60_000);
    await page(rotation.id, 'high', 'Overflow alarm 5');
    await deliver();
    await deliver();
    expect(smtp.received.filter((m) => m.to.includes(person.email))).toHaveLength(2);
    // When there is room the held texts go as one bundle; the record says they were emailed.
    t.clock.advance(15 * 60_000);
    await deliver();
    const after = (await rowsTo(person.id)).filter(
      (r) => r.channel === 'sms' && r.held === 'limit',
    );
    expect(after.map((r) => r.status).sort()).toEqual(['bundled', 'sent']);
    expect(after.find((r) => r.status === 'bundled')?.lastError).toMatch(
      /bundled into notification \d+; sent by email at once$/,
    );
    expect(smtp.received.filter((m) => m.to.includes(person.email))).toHaveLength(2);
    t.clock.set(new Date('2026-11-02T12:00:00Z'));
  });

  test('a page that already went by email at once is not emailed twice', async () => {
    const { person, rotation } = await holder('Bo Both', { phone: '+15550100385' });
    await deliver();
    for (let i = 1; i <= 4; i++) {
      await page(rotation.id, 'high', `Both alarm ${i}`);
      await deliver();
    }
    const rows = await rowsTo(person.id);
    expect(rows.find((r) => r.channel === 'sms' && r.held === 'limit')?.lastError).toBe(
      HELD_BY_LIMIT,
    );
    expect(rows.filter((r) => r.held === 'limit-email')).toEqual([]);
    expect(rows.filter((r) => r.channel === 'email')).toHaveLength(4);
    t.clock.set(new Date('2026-11-02T12:00:00Z'));
  });
});
