import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeTwilio } from '../../../../tests/setup/fake-twilio';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { notifications } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { announce } from './announce';
import { type Channels, createEmailChannel, createSmsChannel } from './channels';
import { invitationEmail } from './messages';
import { decryptContent, deliverDue } from './outbox';
import type { InvitationEvent } from './person-events';

/**
 * Every event of the list sends its notifications through the outbox, written in the event's own
 * transaction, to the right people, and each leaves the outbox exactly once.
 */
const PUBLIC_URL = 'https://baton.example.test';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let channels: Channels;
let morgan: User;
let olivia: User;
let noah: User;
let priya: User;
let admin: User;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL } });
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  channels = {
    email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 2_000),
    sms: createSmsChannel({ ...twilio, from: '+15550000000' }, 500),
  };
  morgan = await t.createUser({ name: 'Morgan Manager', roles: ['manager'] });
  olivia = await t.createUser({
    name: 'Olivia Ortiz',
    phone: '+15550100001',
    notificationPreference: 'both',
  });
  noah = await t.createUser({ name: 'Noah Nakamura', timezone: 'Asia/Tokyo' });
  priya = await t.createUser({ name: 'Priya Patel', roles: ['on-call', 'manager'] });
  admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await twilio.close();
});
beforeEach(async () => {
  await t.database.db.delete(notifications);
  smtp.received.length = 0;
  twilio.sent.length = 0;
});

async function call(user: User, method: 'POST', url: string, payload?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    payload: payload as never,
    headers: { cookie: await t.cookieFor(user) },
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res;
}

const outbox = async () =>
  (await t.database.db.select().from(notifications).orderBy(notifications.id)).map((r) => ({
    ...r,
    content: decryptContent(r, t.cipher),
  }));

const deliveryDeps = () => ({
  db: t.database.db,
  cipher: t.cipher,
  channels,
  clock: t.clock,
  random: () => 0.5,
});

/** Two workers at once, then whatever is left: each notification leaves exactly once. */
async function deliverWithTwoWorkers() {
  const [a, b] = await Promise.all([deliverDue(deliveryDeps(), 3), deliverDue(deliveryDeps(), 3)]);
  const rest = await deliverDue(deliveryDeps(), 100);
  return a.sent + b.sent + rest.sent;
}

const rotationWith = (holderId: number | null, createdById = morgan.id) =>
  insertRotation(t.database.db, {
    name: 'Platform Primary',
    memberIds: [olivia.id, noah.id, priya.id],
    holderId,
    createdById,
  });

describe('the baton', () => {
  test('passing tells the receiver, with the notes; it is delivered once', async () => {
    const r = await rotationWith(olivia.id);
    await call(olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: noah.id,
      notes: 'Replica lag alarm is flaky; ignore below 30 s.',
    });
    const rows = await outbox();
    expect(rows.map((n) => [n.kind, n.userId, n.channel])).toEqual([
      ['baton.passed', noah.id, 'email'],
    ]);
    expect(rows[0].content.subject).toBe('You are now on call for Platform Primary');
    expect(rows[0].content.text).toContain('Olivia Ortiz passed you the baton');
    expect(rows[0].content.text).toContain('> Replica lag alarm is flaky; ignore below 30 s.');
    expect(rows[0].content.text).toContain(`${PUBLIC_URL}/rotations/${r.id}`);
    expect(rows[0].content.html).toContain(`href="${PUBLIC_URL}/rotations/${r.id}"`);
    expect(await deliverWithTwoWorkers()).toBe(1);
    expect(smtp.received.map((m) => m.to)).toEqual([[noah.email]]);
  });

  test('taking a free baton tells the rotation’s managers (creator and manager members), not the taker', async () => {
    const r = await rotationWith(null);
    await call(priya, 'POST', `/api/rotations/${r.id}/take-oncall`);
    expect((await outbox()).map((n) => [n.kind, n.userId])).toEqual([
      ['baton.taken', morgan.id], // the creator; Priya is a manager member but took it herself
    ]);
    await t.database.db.delete(notifications);
    const r2 = await rotationWith(null, admin.id);
    await call(noah, 'POST', `/api/rotations/${r2.id}/take-oncall`);
    const rows = await outbox();
    expect(rows.map((n) => n.userId).sort()).toEqual([admin.id, priya.id].sort());
    expect(rows[0].content.subject).toBe('Noah Nakamura is now on call for Platform Primary');
    expect(await deliverWithTwoWorkers()).toBe(2);
  });

  test('reassigning tells both the new and the previous holder (email and SMS per preference)', async () => {
    const r = await rotationWith(olivia.id);
    await call(morgan, 'POST', `/api/rotations/${r.id}/assign-oncall`, {
      toUserId: noah.id,
      notes: 'Olivia is off sick.',
    });
    const rows = await outbox();
    expect(rows.map((n) => [n.userId, n.channel, n.content.subject])).toEqual([
      [noah.id, 'email', 'You are now on call for Platform Primary'],
      [olivia.id, 'email', 'You are no longer on call for Platform Primary'],
      [olivia.id, 'sms', 'You are no longer on call for Platform Primary'],
    ]);
    expect(rows[0].content.text).toContain(
      'Morgan Manager assigned on-call duty for Platform Primary to you (it was with Olivia Ortiz).',
    );
    expect(await deliverWithTwoWorkers()).toBe(3);
    expect(twilio.sent.map((s) => s.body)).toEqual([
      'Baton: Morgan Manager reassigned on-call for Platform Primary to Noah Nakamura; you are off duty.',
    ]);
  });

  test('a refused change sends nothing: the notifications roll back with it', async () => {
    const r = await rotationWith(olivia.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      payload: { toUserId: noah.id },
      headers: { cookie: await t.cookieFor(noah) },
    });
    expect(res.statusCode).toBe(409);
    expect(await outbox()).toEqual([]);
  });
});

describe('coverage', () => {
  test('a request asks the covering member in their time zone; the outcome tells the requester', async () => {
    const r = await rotationWith(olivia.id);
    const res = await call(olivia, 'POST', `/api/rotations/${r.id}/cover`, {
      coveringUserId: noah.id,
      startTime: '2026-11-03T09:00:00Z',
      endTime: '2026-11-04T09:00:00Z',
      notes: 'Dentist',
    });
    const rows = await outbox();
    expect(rows.map((n) => [n.kind, n.userId])).toEqual([['coverage.requested', noah.id]]);
    expect(rows[0].content.subject).toBe('Olivia Ortiz asks you to cover Platform Primary');
    // Noah reads times in Tokyo: 09:00 UTC is 6:00 PM there.
    expect(rows[0].content.text).toContain('From: Tue, Nov 3, 2026, 6:00 PM GMT+9');
    expect(rows[0].content.text).toContain('Times are in Asia/Tokyo.');

    await t.database.db.transaction((tx) =>
      announce(tx, { cipher: t.cipher, config: t.config }, t.clock.now(), {
        type: 'coverage.accepted',
        key: `coverage:${res.json().id}:accepted`,
        at: t.clock.now(),
        requestId: res.json().id,
        told: [{ person: olivia, as: 'to' }],
        rotation: r,
        coveringName: noah.name,
        requesterName: olivia.name,
        startAt: new Date('2026-11-03T09:00:00Z'),
        endAt: new Date('2026-11-04T09:00:00Z'),
      }),
    );
    const outcome = (await outbox()).filter((n) => n.kind === 'coverage.accepted');
    expect(outcome.map((n) => [n.userId, n.channel])).toEqual([
      [olivia.id, 'email'],
      [olivia.id, 'sms'],
    ]);
    expect(outcome[0].content.subject).toBe(
      'Noah Nakamura accepted your coverage request for Platform Primary',
    );
    expect(await deliverWithTwoWorkers()).toBe(3);
  });
});

describe('invitations', () => {
  test('the invitation link goes by email to the invitee, once, with plain text and HTML', async () => {
    const link = `${PUBLIC_URL}/invite/abc123`;
    const now = t.clock.now();
    const event: InvitationEvent = {
      type: 'invitation',
      key: 'invitation:41',
      at: now,
      told: [
        {
          person: {
            id: null,
            email: 'nina.new@example.com',
            phone: null,
            notificationPreference: 'email',
          },
          as: 'to',
        },
      ],
      invitee: {
        name: 'Nina New',
        email: 'nina.new@example.com',
        role: 'member',
        expiresAt: new Date('2026-11-09T12:00:00Z'),
      },
      link,
      inviterName: 'Avery Admin',
    };
    const deps = { cipher: t.cipher, config: t.config };
    await t.database.db.transaction((tx) => announce(tx, deps, now, event));
    await t.database.db.transaction((tx) => announce(tx, deps, now, event));
    const rows = await outbox();
    expect(rows.map((n) => [n.kind, n.userId, n.channel, n.content.to])).toEqual([
      ['invitation', null, 'email', 'nina.new@example.com'],
    ]);
    expect(await deliverWithTwoWorkers()).toBe(1);
    const raw = smtp.received[0].raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(smtp.received[0].to).toEqual(['nina.new@example.com']);
    expect(raw).toContain('Subject: You are invited to Baton');
    expect(raw).toContain('Avery Admin invited you to join Baton');
    expect(raw).toContain('as On-Call');
    expect(raw).toContain(`Accept the invitation: ${link}`);
    expect(raw).toContain(`href="${link}"`);
  });

  test('invitationEmail escapes what people typed in the HTML body', () => {
    const mail = invitationEmail(
      { name: '<script>alert(1)</script>', email: 'x@example.com', role: 'manager' },
      `${PUBLIC_URL}/invite/t0k3n`,
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
    expect(mail.text).toContain('as Manager');
    expect(mail.text).toContain(`Baton, ${PUBLIC_URL}`);
  });
});

describe('SMS through the loopback Twilio', () => {
  test('a page survives a 503 and a timeout, arrives once, and its email is not held up', async () => {
    const r = await rotationWith(olivia.id);
    twilio.next({ kind: 'status', status: 503 }, { kind: 'hang' });
    await call(morgan, 'POST', `/api/rotations/${r.id}/page`, { message: 'Disk full on db-2' });
    expect(await deliverDue(deliveryDeps())).toEqual({ sent: 1, failed: 0, retrying: 1 });
    expect(smtp.received).toHaveLength(1);
    t.clock.advance(30_000);
    expect(await deliverDue(deliveryDeps())).toEqual({ sent: 0, failed: 0, retrying: 1 });
    t.clock.advance(60_000);
    expect(await deliverWithTwoWorkers()).toBe(1);
    expect(twilio.sent).toHaveLength(1);
    expect(twilio.sent[0].body).toMatch(
      /^Baton PAGE \(High\) Platform Primary from Morgan Manager: Disk full on db-2 Ack: https:\/\/baton\.example\.test\/pages\/ack\/\d+\.[\w-]{43}$/,
    );
    const sms = (await outbox()).find((n) => n.channel === 'sms');
    expect(sms).toMatchObject({ status: 'sent', attempts: 3 });
  });
});
