import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, testConfig } from '../../../../tests/setup/test-app';
import { DEMO_INBOX_NOTE, type InboxPage } from '../../../shared/contracts/inbox';
import {
  channelNotConfiguredReason,
  isNotSentForNoChannel,
  type OutboxEntry,
} from '../../../shared/contracts/notifications';
import { isDemoMode } from '../../core/config';
import { notifications } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { channelsFromConfig } from './channels';
import { deliverDue } from './outbox';

/**
 * A server with no channel configured (no SMTP_URL, no Twilio) still records every notification.
 * Outside demo mode it shows administrators each one not sent, with the reason (decision 006); in
 * demo mode it keeps them in the demo inbox, where each person reads their own and administrators
 * everyone's (decision 186).
 */

/** pages a rotation whose holder takes both email and SMS, and runs the server's own worker once */
async function pageHolly(t: TestApp) {
  const admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
  const holder = await t.createUser({
    name: 'Holly Holder',
    email: 'holly.holder@example.com',
    phone: '+15550100042',
    notificationPreference: 'both',
  });
  const rotation = await insertRotation(t.database.db, {
    name: 'Demo Desk',
    memberIds: [holder.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  const cookie = await t.cookieFor(admin);
  const paged = await t.app.inject({
    method: 'POST',
    url: `/api/rotations/${rotation.id}/page`,
    headers: { cookie },
    payload: { message: 'Queue is backing up', urgency: 'high' },
  });
  expect(paged.json()).toEqual({ sentTo: { name: 'Holly Holder' } });
  // What the server's own worker does with the channels this configuration gives it.
  const report = await deliverDue({
    db: t.database.db,
    cipher: t.cipher,
    clock: t.clock,
    channels: channelsFromConfig(t.config),
  });
  return { admin, holder, rotation, cookie, report };
}

describe('outside demo mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    // An identity provider is configured: this is no demo.
    t = await createTestApp({ env: { OIDC_CLIENT_ID: 'baton-client' } });
  });
  afterAll(() => t.close());

  test('with no channel configured, a page is recorded and the outbox view shows it not sent, with the reason', async () => {
    expect(isDemoMode(t.config)).toBe(false);
    expect(channelsFromConfig(t.config)).toEqual({ email: undefined, sms: undefined });
    const { cookie, holder, report } = await pageHolly(t);
    expect(report).toEqual({ sent: 0, failed: 2, retrying: 0 });

    const outbox = await t.app.inject({ url: '/api/admin/notifications', headers: { cookie } });
    const entries = (outbox.json() as OutboxEntry[]).filter((e) => e.kind === 'page');
    expect(entries.map((e) => [e.channel, e.to, e.status, e.attempts, e.lastError]).sort()).toEqual(
      [
        ['email', 'holly.holder@example.com', 'failed', 1, channelNotConfiguredReason('email')],
        ['sms', '+15550100042', 'failed', 1, channelNotConfiguredReason('sms')],
      ],
    );
    expect(entries.every(isNotSentForNoChannel)).toBe(true);
    expect(entries[0].subject).toContain('Queue is backing up');
    // A real delivery failure is not mistaken for a missing channel.
    expect(isNotSentForNoChannel({ ...entries[0], lastError: 'Mailbox unavailable' })).toBe(false);
    expect(isNotSentForNoChannel({ ...entries[0], status: 'sent' })).toBe(false);

    // There is no demo inbox: both views say so, and keep nothing.
    const none: InboxPage = { demoInbox: false, messages: [], nextCursor: null };
    const own = await t.app.inject({
      url: '/api/inbox',
      headers: { cookie: await t.cookieFor(holder) },
    });
    expect([own.statusCode, own.json()]).toEqual([200, none]);
    const everyone = await t.app.inject({ url: '/api/admin/inbox', headers: { cookie } });
    expect([everyone.statusCode, everyone.json()]).toEqual([200, none]);
    const status = await t.app.inject({
      url: '/api/admin/notifications/status',
      headers: { cookie },
    });
    expect(status.json()).toMatchObject({ noChannel: true, demoInbox: false });
  });
});

test('in demo mode only a missing channel is the demo inbox; a configured one still sends', async () => {
  const config = testConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' });
  expect(isDemoMode(config)).toBe(true);
  const channels = channelsFromConfig(config);
  expect(channels.email?.name).toBe('email');
  expect(await channels.sms?.send({ to: '+15550100042', subject: 'Hi', text: 'Hi' })).toBe(
    DEMO_INBOX_NOTE,
  );
  expect(
    channelsFromConfig(
      testConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', OIDC_CLIENT_ID: 'baton-client' }),
    ).sms,
  ).toBeUndefined();
});

describe('in demo mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  test('a page is kept in the demo inbox: its recipient reads it rendered, administrators see everyone’s', async () => {
    expect(isDemoMode(t.config)).toBe(true);
    const { admin, cookie, holder, report } = await pageHolly(t);
    expect(report).toEqual({ sent: 2, failed: 0, retrying: 0 });

    // The outbox says where they went.
    const outbox = await t.app.inject({ url: '/api/admin/notifications', headers: { cookie } });
    const entries = (outbox.json() as OutboxEntry[]).filter((e) => e.kind === 'page');
    expect(
      entries.map((e) => [e.channel, e.status, e.lastError, e.providerResponse]).sort(),
    ).toEqual([
      ['email', 'sent', null, DEMO_INBOX_NOTE],
      ['sms', 'sent', null, DEMO_INBOX_NOTE],
    ]);
    expect(entries.some(isNotSentForNoChannel)).toBe(false);

    // The holder's own inbox: the email with its HTML, and the SMS as text, newest first.
    const own = await t.app.inject({
      url: '/api/inbox',
      headers: { cookie: await t.cookieFor(holder) },
    });
    expect(own.statusCode).toBe(200);
    const page = own.json() as InboxPage;
    expect(page.demoInbox).toBe(true);
    expect(page.nextCursor).toBeNull();
    expect(page.messages.map((m) => m.id)).toEqual(
      [...page.messages.map((m) => m.id)].sort((a, b) => b - a),
    );
    const email = page.messages.find((m) => m.channel === 'email');
    const sms = page.messages.find((m) => m.channel === 'sms');
    expect(email).toMatchObject({
      kind: 'page',
      to: 'holly.holder@example.com',
      recipient: { id: holder.id, name: 'Holly Holder' },
      subject: expect.stringContaining('Queue is backing up'),
      html: expect.stringContaining('Queue is backing up'),
      createdAt: t.clock.now().toISOString(),
      // Kept, not sent: the inbox says when it kept it (decision 262).
      keptAt: t.clock.now().toISOString(),
    });
    expect(sms).toMatchObject({ to: '+15550100042', html: null });
    expect(sms?.text).toContain('Queue is backing up');
    // The recipient's own copy keeps the acknowledgement link, as their mailbox would.
    expect(email?.text).toMatch(/\/pages\/ack\/\d+\.[\w-]+/);

    // Administrators see everyone's, acknowledgement links hidden (they are the recipient's).
    const everyone = (
      await t.app.inject({ url: '/api/admin/inbox', headers: { cookie } })
    ).json() as InboxPage;
    const shown = everyone.messages.filter((m) => m.kind === 'page');
    expect(shown).toHaveLength(2);
    for (const m of shown) {
      expect(`${m.text} ${m.html ?? ''}`).not.toMatch(/\/pages\/ack\/\d/);
      expect(m.text).toContain('Queue is backing up');
    }
    // Someone else's inbox holds none of them; a member may not read everyone's.
    const adminOwn = (
      await t.app.inject({ url: '/api/inbox', headers: { cookie: await t.cookieFor(admin) } })
    ).json() as InboxPage;
    expect(adminOwn.messages.filter((m) => m.recipient?.id === holder.id)).toEqual([]);
    const forbidden = await t.app.inject({
      url: '/api/admin/inbox',
      headers: { cookie: await t.cookieFor(holder) },
    });
    expect(forbidden.statusCode).toBe(403);

    // The content stays sealed at rest: the inbox copies nothing out of the outbox row.
    const sealed = await t.database.db
      .select({ content: notifications.contentEnc })
      .from(notifications)
      .where(eq(notifications.kind, 'page'));
    expect(sealed).toHaveLength(2);
    for (const row of sealed) expect(row.content).not.toContain('Queue is backing up');
    const status = await t.app.inject({
      url: '/api/admin/notifications/status',
      headers: { cookie },
    });
    expect(status.json()).toMatchObject({ noChannel: true, demoInbox: true, recentFailures: [] });
  });

  test('the inbox is read page by page, and refuses a bad page', async () => {
    const reader = await t.createUser({
      name: 'Reggie Reader',
      notificationPreference: 'sms',
      phone: '+15550100077',
    });
    const rotation = await insertRotation(t.database.db, {
      name: 'Paged Desk',
      memberIds: [reader.id],
      holderId: reader.id,
      now: t.clock.now(),
    });
    const pager = await t.createUser({ name: 'Pat Pager', roles: ['incident_manager'] });
    const cookie = await t.cookieFor(reader);
    for (const message of ['first', 'second', 'third']) {
      const paged = await t.app.inject({
        method: 'POST',
        url: `/api/rotations/${rotation.id}/page`,
        headers: { cookie: await t.cookieFor(pager) },
        payload: { message: `Disk ${message}`, urgency: 'high' },
      });
      expect(paged.statusCode).toBe(201);
      t.clock.advance(60_000);
    }
    await deliverDue({
      db: t.database.db,
      cipher: t.cipher,
      clock: t.clock,
      channels: channelsFromConfig(t.config),
    });
    const read = async (query: string) =>
      (await t.app.inject({ url: `/api/inbox${query}`, headers: { cookie } })).json() as InboxPage;
    const first = await read('?limit=2');
    expect(first.messages.map((m) => m.text.match(/Disk \w+/)?.[0])).toEqual([
      'Disk third',
      'Disk second',
    ]);
    expect(first.nextCursor).toBe(first.messages[1].id);
    const second = await read(`?limit=2&before=${first.nextCursor}`);
    expect(second.messages.map((m) => m.text.match(/Disk \w+/)?.[0])).toEqual(['Disk first']);
    expect(second.nextCursor).toBeNull();

    for (const bad of ['?limit=0', '?limit=101', '?before=abc', '?before=-1']) {
      const answer = await t.app.inject({ url: `/api/inbox${bad}`, headers: { cookie } });
      expect(answer.statusCode, bad).toBe(400);
      expect(answer.json().message).toMatch(/limit|before/);
    }
    expect((await t.app.inject({ url: '/api/inbox' })).statusCode).toBe(401);
  });
});
