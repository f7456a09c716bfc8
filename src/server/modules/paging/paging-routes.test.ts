import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeTwilio } from '../../../../tests/setup/fake-twilio';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import type { Page } from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, notifications, pages } from '../../db/schema';
import { type Channels, createEmailChannel, createSmsChannel } from '../notifications/channels';
import { deliverDue } from '../notifications/outbox';
import {
  ackLinkIn,
  MINUTE,
  outboxFor,
  PUBLIC_URL,
  pageRotation,
  people,
  rotation,
  setUpPagingApp,
  t,
} from './paging-routes.fixtures';

setUpPagingApp();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let channels: Channels;

beforeAll(async () => {
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  // No test here makes a provider hang: the time-outs only bound loopback deliveries, which took
  // over 2 s (SMTP) and 500 ms (fake Twilio) on a loaded machine and failed three tests.
  channels = {
    email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 10_000),
    sms: createSmsChannel({ ...twilio, from: '+15550000000' }, 10_000),
  };
});
afterAll(async () => {
  await smtp.close();
  await twilio.close();
});
beforeEach(() => {
  smtp.received.length = 0;
  twilio.sent.length = 0;
});

const deliver = () =>
  deliverDue({ db: t.database.db, cipher: t.cipher, channels, clock: t.clock, random: () => 0.5 });

/** Quoted-printable bodies: soft line breaks joined, escapes decoded (ASCII is all we send). */
const decodeMail = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

describe('paging the holder', () => {
  test('the page reaches the holder by email (real SMTP) and SMS (Twilio API), with an acknowledgement link', async () => {
    const r = await rotation();
    const { res, row } = await pageRotation(r.id, {
      message: 'Checkout is failing for EU customers',
      urgency: 'high',
    });
    expect(res.json()).toEqual({ sentTo: { name: 'Olivia Ortiz' } });
    expect(row).toMatchObject({ status: 'triggered', targetUserId: people.olivia.id });
    expect(row.ackTokenHash).toMatch(/^[0-9a-f]{64}$/);

    expect(await deliver()).toEqual({ sent: 2, failed: 0, retrying: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail.to).toEqual(['olivia.ortiz@example.com']);
    const raw = decodeMail(mail.raw);
    expect(raw).toContain(`Subject: Page (high urgency): ${r.name}: Checkout is failing for EU`);
    expect(raw).toContain('Morgan Manager paged you as the on-call person for');
    expect(raw).toContain('> Checkout is failing for EU customers');
    expect(raw).toMatch(/Content-Type: text\/html/);
    const token = ackLinkIn(raw);
    // The link is in both bodies, and the way back to Baton too.
    expect(raw.split(`/pages/ack/${token}`).length).toBeGreaterThanOrEqual(3);
    // The way back to Baton is the incident itself (decision 261).
    expect(raw).toContain(`${PUBLIC_URL}/incidents/${row.id}`);

    // SMS: short, to the normalized E.164 number, with the same link.
    expect(twilio.sent).toHaveLength(1);
    expect(twilio.sent[0].to).toBe('+15550100001');
    expect(twilio.sent[0].body).toBe(
      `Baton PAGE (High) ${r.name} from Morgan Manager: Checkout is failing for EU customers Ack: ${PUBLIC_URL}/pages/ack/${token}`,
    );
    // Only the hash of the token is stored, and the outbox view hides the link from admins.
    expect(JSON.stringify(row)).not.toContain(token.split('.')[1]);
    const outbox = await t.call(people.admin, 'GET', '/api/admin/notifications');
    expect(outbox.body).not.toContain(token.split('.')[1]);
    expect(outbox.body).toContain('/pages/ack/(hidden)');
  });

  test('a low-urgency page goes by email only, whatever the preference', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id, {
      message: 'FYI: certificate renews Monday',
      urgency: 'low',
    });
    const rows = await outboxFor(row.id);
    expect(rows.map((n) => [n.userId, n.channel])).toEqual([[people.olivia.id, 'email']]);
  });

  test('urgency defaults to high; a blank message is refused with the form message', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id, { message: 'Disk almost full' });
    expect(row.urgency).toBe('high');
    const blank = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/page`, {
      message: ' ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ message: 'Please enter a message' });
  });
});

describe('acknowledging from the link, without signing in', () => {
  async function pagedWithLink() {
    const r = await rotation();
    const { row } = await pageRotation(r.id, { message: 'Queue lag above 5 minutes' });
    const [email] = (await outboxFor(row.id)).filter((n) => n.channel === 'email');
    return { r, row, token: ackLinkIn(email.content.text) };
  }

  test('GET shows the page and changes nothing; POST acknowledges once; a second POST is refused', async () => {
    const { r, row, token } = await pagedWithLink();
    const shown = await t.call(null, 'GET', `/api/pages/ack/${token}`);
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({
      state: 'open',
      page: {
        rotationName: r.name,
        message: 'Queue lag above 5 minutes',
        urgency: 'high',
        pagedByName: 'Morgan Manager',
        recipientName: 'Olivia Ortiz',
        acknowledgedAt: null,
      },
    });
    // A mail scanner fetching the link twice acknowledges nothing.
    await t.call(null, 'GET', `/api/pages/ack/${token}`);
    const [still] = await t.database.db.select().from(pages).where(eq(pages.id, row.id));
    expect(still.status).toBe('triggered');

    const ack = await t.call(null, 'POST', `/api/pages/ack/${token}`);
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json()).toMatchObject({ state: 'acknowledged' });
    const [done] = await t.database.db.select().from(pages).where(eq(pages.id, row.id));
    expect(done.status).toBe('acknowledged');
    expect(done.acknowledgedAt?.toISOString()).toBe(t.clock.now().toISOString());

    const again = await t.call(null, 'POST', `/api/pages/ack/${token}`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      message: 'This page has already been acknowledged.',
      code: 'CONFLICT',
    });
    expect((await t.call(null, 'GET', `/api/pages/ack/${token}`)).json().state).toBe(
      'acknowledged',
    );

    // The pager hears of it, once; the history records how.
    const toPager = (await outboxFor(row.id)).filter((n) => n.userId === people.manager.id);
    expect(toPager.map((n) => n.kind)).toEqual(['page.acknowledged']);
    expect(toPager[0].content.subject).toBe(`Olivia Ortiz acknowledged your page for ${r.name}`);
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, 'page'), eq(auditEvents.targetId, String(row.id))))
      .orderBy(auditEvents.id);
    expect(events.map((e) => [e.action, e.actorUserId, e.details.via])).toEqual([
      ['incident.raised', people.manager.id, undefined],
      ['incident.step_reached', null, undefined],
      ['page.acknowledged', people.olivia.id, 'link'],
    ]);
  });

  test('a link expires after a day; a tampered or unknown token is not found', async () => {
    const { token } = await pagedWithLink();
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of [tampered, '12345.short', 'not-a-token', `999999.${token.split('.')[1]}`]) {
      const res = await t.call(null, 'POST', `/api/pages/ack/${bad}`);
      expect(res.statusCode, bad).toBe(404);
      expect(res.json().message).toMatch(/not valid/);
    }
    const tooLong = await t.call(null, 'GET', `/api/pages/ack/${'9'.repeat(120)}`);
    expect(tooLong.statusCode).toBe(414);

    t.clock.advance(24 * 60 * MINUTE);
    expect((await t.call(null, 'GET', `/api/pages/ack/${token}`)).json().state).toBe('expired');
    const late = await t.call(null, 'POST', `/api/pages/ack/${token}`);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(
      'This acknowledgement link has expired. Sign in to Baton to acknowledge the page.',
    );
  });

  test('after an escalation the first recipient’s link no longer works', async () => {
    const { row, token } = await pagedWithLink();
    const esc = await t.call(people.manager, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: 'Olivia is on a flight',
    });
    expect(esc.statusCode, esc.body).toBe(200);
    expect((await t.call(null, 'POST', `/api/pages/ack/${token}`)).statusCode).toBe(404);
  });
});

describe('the backup after a handoff (decision 130)', () => {
  test('a page while the previous holder is backup also goes to them, without an acknowledgement link; not after the window; at low urgency by email', async () => {
    const r = await rotation();
    // Olivia hands the baton to Noah: she is backup for 15 minutes.
    const pass = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
    });
    expect(pass.statusCode).toBe(200);
    const handedOverAt = t.clock.now().getTime();
    t.clock.advance(5 * MINUTE);

    const { res, row } = await pageRotation(r.id, { message: 'Search is timing out' });
    expect(res.json()).toEqual({ sentTo: { name: 'Noah Nakamura' } });
    const rows = await outboxFor(row.id);
    // The page to Noah; a copy to Olivia by her own channels (both), keyed once per page.
    expect(rows.map((n) => [n.kind, n.userId, n.channel, n.dedupeKey])).toEqual([
      ['page', people.noah.id, 'email', `page:${row.id}:sent:${people.noah.id}:email`],
      ['page.backup', people.olivia.id, 'email', `page:${row.id}:backup:${people.olivia.id}:email`],
      ['page.backup', people.olivia.id, 'sms', `page:${row.id}:backup:${people.olivia.id}:sms`],
    ]);
    // Earlier tests leave their own mail in the outbox: deliver it all (50 a round), find this one.
    for (let round = 0; round < 20; round++) {
      const done = await deliver();
      if (done.sent + done.failed === 0) break;
    }
    const body =
      smtp.received
        .filter((m) => m.to.includes('olivia.ortiz@example.com'))
        .map((m) => decodeMail(m.raw))
        .find((raw) => raw.includes('Subject: Backup:')) ?? '';
    // Long headers are folded onto a continuation line.
    expect(body.replace(/\r?\n /g, ' ')).toContain(
      `Subject: Backup: Noah Nakamura was paged (high urgency): ${r.name}: Search is timing out`,
    );
    expect(body).toContain(
      `Morgan Manager paged Noah Nakamura, who took over ${r.name} from you. You are backup until`,
    );
    expect(body).toContain(`${PUBLIC_URL}/incidents/${row.id}`);
    expect(body).not.toContain('/pages/ack/');
    expect(twilio.sent.find((m) => m.body.startsWith('Baton BACKUP'))?.to).toBe('+15550100001');
    expect(twilio.sent.find((m) => m.body.startsWith('Baton BACKUP'))?.body).toMatch(
      /^Baton BACKUP \(High\) .* Noah Nakamura was paged: Search is timing out/,
    );

    // The page history says so; only Noah may acknowledge the page.
    const [history] = (await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages`)).json();
    expect(history.events).toEqual([
      {
        kind: 'backup_notified',
        at: row.createdAt.toISOString(),
        actor: null,
        to: { id: people.olivia.id, name: 'Olivia Ortiz' },
        until: new Date(handedOverAt + 15 * MINUTE).toISOString(),
      },
    ]);
    expect(history.actions.acknowledge).toBe(false);
    // The system's notice belongs to the page's history, not to the administrators' trail.
    const trail = await t.call(people.admin, 'GET', '/api/audit-log/admin-events?limit=100');
    expect(trail.json().events.map((e: { action: string }) => e.action)).not.toContain(
      'page.backup_notified',
    );

    // A low-urgency page reaches the backup too (the policy names them), by email; after 15
    // minutes there is no backup.
    const low = await pageRotation(r.id, { message: 'FYI', urgency: 'low' });
    expect((await outboxFor(low.row.id)).map((n) => [n.userId, n.channel])).toEqual([
      [people.noah.id, 'email'],
      [people.olivia.id, 'email'],
    ]);
    t.clock.set(new Date(handedOverAt + 15 * MINUTE));
    const later = await pageRotation(r.id, { message: 'Search is down' });
    expect((await outboxFor(later.row.id)).map((n) => n.userId)).toEqual([people.noah.id]);
    expect(
      (await t.call(people.noah, 'GET', `/api/rotations/${r.id}/pages`)).json()[0].events,
    ).toEqual([]);
  });
});

describe('a page that cannot be delivered is shown where people look (decision 163)', () => {
  let shah: User;
  beforeAll(async () => {
    shah = await t.createUser({
      name: 'Priya Shah',
      email: 'priya.shah@example.com',
      phone: '+15551110009',
      notificationPreference: 'sms',
    });
  });
  beforeEach(async () => {
    await t.database.db.delete(notifications);
  });

  async function failedSmsPage() {
    const r = await rotation({ memberIds: [shah.id, people.noah.id] });
    const { row } = await pageRotation(r.id, { message: 'Checkout is failing', urgency: 'high' });
    twilio.next({ kind: 'unsubscribed' });
    expect(await deliver()).toEqual({ sent: 0, failed: 1, retrying: 0 });
    return { r, row };
  }

  test("the page's history says who was not reached, by which channel, why, and what was done", async () => {
    const { r, row } = await failedSmsPage();
    // The email sent instead goes out on the next round.
    expect(await deliver()).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(smtp.received.map((m) => m.to)).toEqual([['priya.shah@example.com']]);
    const res = await t.call(people.noah, 'GET', `/api/rotations/${r.id}/pages`);
    expect(res.statusCode).toBe(200);
    const [page] = res.json() as Page[];
    expect(page.id).toBe(row.id);
    expect(page.events).toEqual([
      {
        kind: 'not_delivered',
        at: t.clock.now().toISOString(),
        actor: null,
        to: { id: shah.id, name: 'Priya Shah' },
        channel: 'sms',
        reason:
          'SMS provider answered 400 (Attempt to send to unsubscribed recipient (number hidden))',
        fallbackChannel: 'email',
      },
    ]);
  });

  test('the pager is told in the app while the page is open; nobody else is', async () => {
    const { r, row } = await failedSmsPage();
    const mine = await t.call(people.manager, 'GET', '/api/user/page-delivery-failures');
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([
      {
        id: expect.any(Number),
        pageId: row.id,
        rotation: { id: r.id, name: r.name },
        to: { id: shah.id, name: 'Priya Shah' },
        channel: 'sms',
        reason: expect.stringContaining('unsubscribed recipient'),
        at: t.clock.now().toISOString(),
        fallbackChannel: 'email',
      },
    ]);
    expect((await t.call(shah, 'GET', '/api/user/page-delivery-failures')).json()).toEqual([]);
    expect((await t.call(people.noah, 'GET', '/api/user/page-delivery-failures')).json()).toEqual(
      [],
    );
    // Once acknowledged, the person was reached: the notice goes.
    const ack = await t.call(shah, 'POST', `/api/pages/${row.id}/acknowledge`);
    expect(ack.statusCode).toBe(200);
    expect(
      (await t.call(people.manager, 'GET', '/api/user/page-delivery-failures')).json(),
    ).toEqual([]);
  });

  test('administrators see which channel failed in the last hour, not the rest', async () => {
    await failedSmsPage();
    const status = await t.call(people.admin, 'GET', '/api/admin/notifications/status');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      channels: { email: false, sms: false },
      missing: [
        'Email is not configured on this server (SMTP_URL).',
        'SMS is not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM).',
      ],
      noChannel: true,
      demoInbox: true,
      recentFailures: [
        {
          channel: 'sms',
          count: 1,
          lastAt: t.clock.now().toISOString(),
          lastReason: expect.stringContaining('unsubscribed recipient'),
        },
      ],
    });
    expect(
      (await t.call(people.manager, 'GET', '/api/admin/notifications/status')).statusCode,
    ).toBe(403);
    // A failure because a channel is not configured is said once, by `missing`.
    await pageRotation((await rotation()).id);
    expect(
      await deliverDue({ db: t.database.db, cipher: t.cipher, channels: {}, clock: t.clock }),
    ).toMatchObject({ failed: expect.any(Number) });
    const notConfigured = await t.call(people.admin, 'GET', '/api/admin/notifications/status');
    expect(
      notConfigured
        .json()
        .recentFailures.map((f: { channel: string; count: number }) => [f.channel, f.count]),
    ).toEqual([['sms', 1]]);
    t.clock.advance(61 * MINUTE);
    const later = await t.call(people.admin, 'GET', '/api/admin/notifications/status');
    expect(later.json().recentFailures).toEqual([]);
  });
});
