import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeTwilio } from '../../../../tests/setup/fake-twilio';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Page } from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, notifications, pages } from '../../db/schema';
import { ENGINE_TASKS } from '../../engine-tasks';
import { insertIntegration, insertRotation } from '../../seed/factories';
import {
  incidentTimersTask as pageTimersTask,
  runIncidentTimers as runPageTimers,
} from '../incidents/incident-escalation-task';
import { type Channels, createEmailChannel, createSmsChannel } from '../notifications/channels';
import { decryptContent, deliverDue } from '../notifications/outbox';

const PUBLIC_URL = 'https://baton.example.test';
const MINUTE = 60_000;

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let channels: Channels;
const people = {} as Record<
  'manager' | 'olivia' | 'noah' | 'priya' | 'iris' | 'admin' | 'outsider' | 'otherManager',
  User
>;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL } });
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  // No test here makes a provider hang: the time-outs only bound loopback deliveries, which took
  // over 2 s (SMTP) and 500 ms (fake Twilio) on a loaded machine and failed three tests.
  channels = {
    email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 10_000),
    sms: createSmsChannel({ ...twilio, from: '+15550000000' }, 10_000),
  };
  Object.assign(
    people,
    await t.cast({
      manager: {},
      olivia: {
        email: 'olivia.ortiz@example.com',
        phone: '+1 555 010 0001',
        notificationPreference: 'both',
        timezone: 'America/Chicago',
      },
      noah: { email: 'noah@example.com' },
      priya: {},
      iris: {},
      admin: {},
      outsider: {},
      otherManager: {},
    }),
  );
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await twilio.close();
});
beforeEach(async () => {
  // Each test starts with no pages, so the clock's steps are only this test's.
  await t.database.db.delete(pages);
  smtp.received.length = 0;
  twilio.sent.length = 0;
});

/** A fresh rotation: Olivia holds the baton, then Noah, then Priya; Morgan created it. */
async function rotation(overrides: { suspended?: boolean; memberIds?: number[] } = {}) {
  const memberIds = overrides.memberIds ?? [people.olivia.id, people.noah.id, people.priya.id];
  return insertRotation(t.database.db, {
    name: `Platform ${Math.random().toString(36).slice(2, 7)}`,
    memberIds,
    holderId: memberIds[0],
    createdById: people.manager.id,
    suspended: overrides.suspended,
    now: t.clock.now(),
  });
}

async function pageRotation(
  rotationId: number,
  body: { message: string; urgency?: string } = { message: 'Checkout is failing' },
  by: User = people.manager,
) {
  const res = await t.call(by, 'POST', `/api/rotations/${rotationId}/page`, body);
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await t.database.db
    .select()
    .from(pages)
    .where(eq(pages.rotationId, rotationId))
    .orderBy(desc(pages.id))
    .limit(1);
  return { res, row };
}

const deliver = () =>
  deliverDue({ db: t.database.db, cipher: t.cipher, channels, clock: t.clock, random: () => 0.5 });

/** Quoted-printable bodies: soft line breaks joined, escapes decoded (ASCII is all we send). */
const decodeMail = (raw: string) =>
  raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));

const ackLinkIn = (text: string) => {
  const match = new RegExp(`${PUBLIC_URL}/pages/ack/([0-9]+\\.[A-Za-z0-9_-]{43})`).exec(text);
  if (!match) throw new Error(`no acknowledgement link in:\n${text}`);
  return match[1];
};

async function outboxFor(pageId: number) {
  const rows = await t.database.db.select().from(notifications).orderBy(notifications.id);
  return rows
    .filter((r) => r.dedupeKey.startsWith(`page:${pageId}:`))
    .map((r) => ({ ...r, content: decryptContent(r, t.cipher) }));
}

const timers = (now = t.clock.now()) =>
  runPageTimers({ database: t.database, cipher: t.cipher, clock: t.clock, config: t.config }, now);

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
    expect(raw).toContain(`${PUBLIC_URL}/pages?rotation=${r.id}`);

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

describe('acknowledge, resolve and escalate in the app', () => {
  test('only the current recipient acknowledges, once', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    const byOther = await t.call(people.manager, 'POST', `/api/pages/${row.id}/acknowledge`);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.json().message).toBe(
      'Only the person this page was sent to can acknowledge it.',
    );
    const ack = await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`);
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({
      status: 'acknowledged',
      actions: { acknowledge: false, resolve: true, escalate: false },
      events: [{ kind: 'acknowledged', actor: { id: people.olivia.id }, via: 'app' }],
    });
    expect(
      (await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode,
    ).toBe(409);
    expect((await t.call(people.olivia, 'POST', '/api/pages/999999/acknowledge')).statusCode).toBe(
      404,
    );
  });

  test('resolve: the pager, the recipient, admins and the rotation’s managers; not others; once', async () => {
    const r = await rotation();
    const pager = await t.createUser({ name: 'Ian Incident', roles: ['incident_manager'] });
    for (const [user, allowed] of [
      [people.manager, true],
      [people.olivia, true],
      [people.admin, true],
      [people.priya, true], // manager and member
      [people.noah, false], // member, not manager
      [people.otherManager, false],
      [people.iris, false], // may page, but did not send this one
    ] as const) {
      const { row } = await pageRotation(r.id, { message: `For ${user.name}` }, pager);
      const res = await t.call(user, 'POST', `/api/pages/${row.id}/resolve`);
      expect(res.statusCode, `${user.name}: ${res.body}`).toBe(allowed ? 200 : 403);
      await t.database.db.delete(pages).where(eq(pages.id, row.id));
    }
    const { row } = await pageRotation(r.id);
    const res = await t.call(people.manager, 'POST', `/api/pages/${row.id}/resolve`);
    expect(res.json()).toMatchObject({
      status: 'resolved',
      resolvedAt: t.clock.now().toISOString(),
    });
    // The recipient of a page still open is told it needs nothing more.
    const told = (await outboxFor(row.id)).filter((n) => n.kind === 'page.resolved');
    expect(told.map((n) => n.userId)).toEqual([people.olivia.id, people.olivia.id]);
    expect((await t.call(people.manager, 'POST', `/api/pages/${row.id}/resolve`)).statusCode).toBe(
      409,
    );
    // Nothing more happens to a resolved page.
    expect(
      (await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode,
    ).toBe(409);
  });

  test('manual escalation needs a reason, moves the page to the next member, and keeps its history', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id, { message: 'Payments down' });
    const blank = await t.call(people.manager, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: '  ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields).toEqual({ reason: 'Please enter a reason' });
    expect(
      (await t.call(people.noah, 'POST', `/api/pages/${row.id}/escalate`, { reason: 'x' }))
        .statusCode,
    ).toBe(403);

    t.clock.advance(5 * MINUTE);
    const res = await t.call(people.olivia, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: 'I am driving',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'escalated',
      firstTarget: { id: people.olivia.id, name: 'Olivia Ortiz' },
      target: { id: people.noah.id, name: 'Noah Nakamura' },
      escalatedAt: t.clock.now().toISOString(),
      events: [
        {
          kind: 'escalated',
          actor: { id: people.olivia.id },
          from: { id: people.olivia.id },
          to: { id: people.noah.id },
          reason: 'I am driving',
          automatic: false,
        },
      ],
    });
    const sent = (await outboxFor(row.id)).filter((n) => n.kind.startsWith('page.escalat'));
    expect(sent.map((n) => [n.kind, n.userId])).toEqual([
      ['page.escalated', people.noah.id],
      ['page.escalation_notice', people.manager.id],
    ]);
    expect(sent[0].content.text).toContain('because Olivia Ortiz did not acknowledge it');
    expect(sent[0].content.text).toContain('Reason: I am driving');
    // The reason is sealed at rest (decision 163); administrators' trail shows it opened.
    const [stored] = await t.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'incident.escalated'), eq(auditEvents.targetId, String(row.id))),
      );
    expect(JSON.stringify(stored.details)).not.toContain('driving');
    const trail = await t.call(people.admin, 'GET', '/api/audit-log/admin-events?limit=20');
    expect(trail.statusCode, trail.body).toBe(200);
    const shown = (
      trail.json() as { events: { id: number; details: Record<string, unknown> }[] }
    ).events.find((e) => e.id === stored.id);
    expect(shown?.details).toMatchObject({ reason: 'I am driving' });
    expect(shown?.details).not.toHaveProperty('reasonEnc');
    // Noah now acknowledges; Olivia no longer can.
    expect(
      (await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode,
    ).toBe(403);
    expect((await t.call(people.noah, 'POST', `/api/pages/${row.id}/acknowledge`)).statusCode).toBe(
      200,
    );
    const late = await t.call(people.manager, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: 'again',
    });
    expect(late.statusCode).toBe(409);
  });

  test('escalating with no one else in the rotation is refused with a message', async () => {
    const r = await rotation({ memberIds: [people.olivia.id] });
    const { row } = await pageRotation(r.id);
    const res = await t.call(people.manager, 'POST', `/api/pages/${row.id}/escalate`, {
      reason: 'No answer',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('There is no one else in this rotation to escalate to.');
  });
});

describe('the clock: the default policy reminds at 15 minutes, escalates at 30 (decision 204)', () => {
  test('a high-urgency page nobody acknowledges is reminded, then escalated on time, each once', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id, { message: 'API 500s' });
    const pagedAt = t.clock.now().getTime();
    const at = (minutes: number) => new Date(pagedAt + minutes * MINUTE);

    const none = { reminded: 0, escalated: 0, exhausted: 0 };
    expect(await timers(at(14.9))).toEqual(none);
    expect(await timers(at(15))).toEqual({ ...none, reminded: 1 });
    expect(await timers(at(16))).toEqual(none);
    let sent = await outboxFor(row.id);
    expect(sent.filter((n) => n.kind === 'page.reminder').map((n) => n.channel)).toEqual([
      'email',
      'sms',
    ]);
    const warning = sent.filter((n) => n.kind === 'page.warning');
    expect(warning.map((n) => n.userId)).toEqual([people.manager.id]);
    expect(warning[0].content.text).toContain('Olivia Ortiz has not acknowledged your page for');
    expect(warning[0].content.text).toContain('it escalates to Noah Nakamura at');
    expect(warning[0].content.text).toContain('Times are in UTC.');
    // The reminder carries the same link as the page.
    const first = sent.find((n) => n.kind === 'page' && n.channel === 'email');
    const reminder = sent.find((n) => n.kind === 'page.reminder' && n.channel === 'email');
    expect(ackLinkIn(reminder?.content.text ?? '')).toBe(ackLinkIn(first?.content.text ?? ''));

    expect(await timers(at(29.9))).toEqual(none);
    expect(await timers(at(30))).toEqual({ ...none, escalated: 1 });
    expect(await timers(at(31))).toEqual(none);
    const [escalated] = await t.database.db.select().from(pages).where(eq(pages.id, row.id));
    expect(escalated).toMatchObject({ status: 'escalated', targetUserId: people.noah.id });
    expect(escalated.escalatedAt?.getTime()).toBe(at(30).getTime());
    sent = await outboxFor(row.id);
    expect(sent.filter((n) => n.kind === 'page.escalated').map((n) => n.userId)).toEqual([
      people.noah.id,
    ]);
    // The default policy has run out 15 minutes after its last step: the incident stays open and
    // the rotation's managers (its creator Morgan, who paged; Priya, a manager member) are told, once.
    expect(await timers(at(45))).toEqual({ ...none, exhausted: 1 });
    expect(await timers(at(75))).toEqual(none);
    sent = await outboxFor(row.id);
    expect(
      sent
        .filter((n) => n.kind === 'incident.exhausted' && n.channel === 'email')
        .map((n) => n.userId),
    ).toEqual([people.manager.id, people.priya.id]);
    expect((await t.database.db.select().from(pages).where(eq(pages.id, row.id)))[0]).toMatchObject(
      { status: 'escalated', exhaustedAt: at(45) },
    );
    const history = await t.call(people.noah, 'GET', `/api/rotations/${r.id}/pages`);
    expect(history.json()[0].events).toMatchObject([
      { kind: 'escalated', actor: null, automatic: true, to: { id: people.noah.id } },
    ]);
  });

  test('the engine runs the page timers on every tick', async () => {
    expect(ENGINE_TASKS.map((task) => task.run)).toContain(pageTimersTask);
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    // One step a tick: the reminder at 15 minutes, the escalation at 30.
    for (const minutes of [15, 30]) {
      await pageTimersTask(
        { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
        new Date(row.createdAt.getTime() + minutes * MINUTE),
      );
    }
    const [after] = await t.database.db.select().from(pages).where(eq(pages.id, row.id));
    expect(after).toMatchObject({ status: 'escalated', targetUserId: people.noah.id });
  });

  test('nothing is sent for a step once the page is acknowledged', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    t.clock.advance(10 * MINUTE);
    await t.call(people.olivia, 'POST', `/api/pages/${row.id}/acknowledge`);
    for (const minutes of [15, 30, 60]) {
      expect(await timers(new Date(row.createdAt.getTime() + minutes * MINUTE))).toEqual({
        reminded: 0,
        escalated: 0,
        exhausted: 0,
      });
    }
    const kinds = (await outboxFor(row.id)).map((n) => n.kind);
    expect(kinds.filter((k) => k !== 'page' && k !== 'page.acknowledged')).toEqual([]);
  });

  test('every urgency climbs the policy (the team’s word); low by email only', async () => {
    const r = await rotation();
    const medium = (await pageRotation(r.id, { message: 'Medium', urgency: 'medium' })).row;
    const low = (await pageRotation(r.id, { message: 'Low', urgency: 'low' }, people.iris)).row;
    const base = t.clock.now().getTime();
    const none = { reminded: 0, escalated: 0, exhausted: 0 };
    expect(await timers(new Date(base + 15 * MINUTE))).toEqual({ ...none, reminded: 2 });
    expect(await timers(new Date(base + 30 * MINUTE))).toEqual({ ...none, escalated: 2 });
    const lowSent = await outboxFor(low.id);
    expect(new Set(lowSent.map((n) => n.channel))).toEqual(new Set(['email']));
    expect(lowSent.filter((n) => n.kind === 'page.escalated').map((n) => n.userId)).toEqual([
      people.noah.id,
    ]);
    const warning = (await outboxFor(medium.id)).find((n) => n.kind === 'page.warning');
    expect(warning?.content.text).toContain('it escalates to Noah Nakamura at');
    const [m] = await t.database.db.select().from(pages).where(eq(pages.id, medium.id));
    expect(m).toMatchObject({ status: 'escalated', targetUserId: people.noah.id });
  });

  test('after 3 hours down an overdue page takes one step; the next waits its full delay', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    const back = new Date(row.createdAt.getTime() + 180 * MINUTE);
    const none = { reminded: 0, escalated: 0, exhausted: 0 };
    expect(await timers(back)).toEqual({ ...none, reminded: 1 });
    // A second run at the same instant sends nothing.
    const before = (await outboxFor(row.id)).length;
    expect(await timers(back)).toEqual(none);
    expect((await outboxFor(row.id)).length).toBe(before);
    expect(await timers(new Date(back.getTime() + 14 * MINUTE))).toEqual(none);
    expect(await timers(new Date(back.getTime() + 15 * MINUTE))).toEqual({ ...none, escalated: 1 });
  });

  test('a suspended rotation notifies nobody: its steps are skipped and the policy runs out', async () => {
    const r = await rotation();
    const { row } = await pageRotation(r.id);
    const { rotations } = await import('../../db/schema');
    await t.database.db.update(rotations).set({ suspended: true }).where(eq(rotations.id, r.id));
    expect(await timers(new Date(row.createdAt.getTime() + 40 * MINUTE))).toEqual({
      reminded: 0,
      escalated: 0,
      exhausted: 1,
    });
    const kinds = (await outboxFor(row.id)).map((n) => n.kind);
    expect(kinds.filter((k) => k !== 'page' && k !== 'incident.exhausted')).toEqual([]);
    const skips = await t.database.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.action, 'incident.step_skipped'),
          eq(auditEvents.targetId, String(row.id)),
        ),
      );
    expect(skips.map((e) => [e.details.step, e.details.reason])).toEqual([
      [1, 'rotation suspended'],
      [2, 'rotation suspended'],
    ]);
  });
});

describe('reading pages', () => {
  test('the rotation’s page history: who paged whom, when, message, urgency, state and times', async () => {
    const r = await rotation();
    const first = (await pageRotation(r.id, { message: 'First', urgency: 'low' }, people.iris)).row;
    t.clock.advance(MINUTE);
    await pageRotation(r.id, { message: 'Second', urgency: 'high' });
    await t.call(people.olivia, 'POST', `/api/pages/${first.id}/acknowledge`);

    for (const viewer of [people.noah, people.iris, people.outsider, people.admin]) {
      expect((await t.call(viewer, 'GET', `/api/rotations/${r.id}/pages`)).statusCode).toBe(200);
    }
    const res = await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages`);
    const list = res.json() as Page[];
    expect(
      list.map((p) => [p.message, p.urgency, p.status, p.pagedBy?.name, p.target?.name]),
    ).toEqual([
      ['Second', 'high', 'triggered', 'Morgan Manager', 'Olivia Ortiz'],
      ['First', 'low', 'acknowledged', 'Iris Incident', 'Olivia Ortiz'],
    ]);
    expect(list[0]).toMatchObject({
      rotation: { id: r.id, name: r.name },
      actions: { acknowledge: true, resolve: true, escalate: true },
      reminderAt: new Date(t.clock.now().getTime() + 15 * MINUTE).toISOString(),
      escalatesAt: new Date(t.clock.now().getTime() + 30 * MINUTE).toISOString(),
    });
    expect(list[1].acknowledgedAt).toBe(t.clock.now().toISOString());
    expect(
      (await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages?limit=1`)).json(),
    ).toHaveLength(1);
    const older = await t.call(
      people.olivia,
      'GET',
      `/api/rotations/${r.id}/pages?before=${list[0].id}`,
    );
    expect(older.json().map((p: Page) => p.message)).toEqual(['First']);
    expect((await t.call(people.olivia, 'GET', '/api/rotations/999999/pages')).statusCode).toBe(
      404,
    );
    expect(
      (await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages?limit=0`)).statusCode,
    ).toBe(400);
  });

  test('a page an alert raised says which integration raised it, not a deleted user', async () => {
    const r = await rotation();
    await pageRotation(r.id, { message: 'By hand' });
    const { key } = await insertIntegration(t.database.db, t.cipher, {
      name: 'Grafana prod',
      rotationId: r.id,
    });
    const alert = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/pagerduty/v2/enqueue',
      payload: {
        routing_key: key,
        event_action: 'trigger',
        payload: { summary: 'Disk full on db-1', source: 'db-1', severity: 'critical' },
      },
    });
    expect(alert.statusCode, alert.body).toBe(202);
    const list = (
      await t.call(people.olivia, 'GET', `/api/rotations/${r.id}/pages`)
    ).json() as Page[];
    expect(list.map((p) => [p.pagedBy?.name ?? null, p.raisedBy])).toEqual([
      [null, { kind: 'integration', user: null, name: 'Grafana prod' }],
      [
        'Morgan Manager',
        {
          kind: 'user',
          user: { id: people.manager.id, name: 'Morgan Manager' },
          name: 'Morgan Manager',
        },
      ],
    ]);
  });

  test('the history reads a fixed number of statements for 2 and for 12 pages', async () => {
    const counted: string[] = [];
    const c = await createTestApp({ db: { onQuery: (q) => counted.push(q) } });
    try {
      const pager = await c.createUser({ roles: ['incident_manager'] });
      const members = await Promise.all([0, 1, 2].map(() => c.createUser()));
      const r = await insertRotation(c.database.db, {
        memberIds: members.map((m) => m.id),
        holderId: members[0].id,
      });
      const cookie = await c.cookieFor(pager);
      const read = async () => {
        counted.length = 0;
        const res = await c.app.inject({
          method: 'GET',
          url: `/api/rotations/${r.id}/pages`,
          headers: { cookie },
        });
        expect(res.statusCode).toBe(200);
        return counted.length;
      };
      const send = async (n: number) => {
        for (let i = 0; i < n; i++) {
          await c.app.inject({
            method: 'POST',
            url: `/api/rotations/${r.id}/page`,
            payload: { message: `Page ${i}` },
            headers: { cookie },
          });
        }
      };
      await send(2);
      const few = await read();
      await send(10);
      expect(await read()).toBe(few);
    } finally {
      await c.close();
    }
  });

  test('pages for me: the unresolved pages I am the current recipient of', async () => {
    const r = await rotation();
    const open = (await pageRotation(r.id, { message: 'Open one' })).row;
    const resolved = (await pageRotation(r.id, { message: 'Resolved one' })).row;
    await t.call(people.manager, 'POST', `/api/pages/${resolved.id}/resolve`);
    const mine = (await t.call(people.olivia, 'GET', '/api/user/pages')).json() as Page[];
    expect(mine.map((p) => p.id)).toContain(open.id);
    expect(mine.map((p) => p.id)).not.toContain(resolved.id);
    expect(mine.find((p) => p.id === open.id)?.actions.acknowledge).toBe(true);
    expect(
      (await t.call(people.noah, 'GET', '/api/user/pages')).json().map((p: Page) => p.id),
    ).not.toContain(open.id);
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
    expect(body).toContain(`${PUBLIC_URL}/pages?rotation=${r.id}`);
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
