import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { startFakeTwilio } from '../../../../tests/setup/fake-twilio';
import { startSmtpServer } from '../../../../tests/setup/smtp-server';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { MAX_DELIVERY_ATTEMPTS } from '../../../shared/domain/notification-routing';
import { notifications } from '../../db/schema';
import { type Channels, createEmailChannel, createSmsChannel } from './channels';
import {
  claimDue,
  decryptContent,
  deliverDue,
  enqueueNotifications,
  recordOutcome,
} from './outbox';
import { startOutboxWorker } from './outbox-worker';

let t: TestApp;
/** every statement the app's database ran, for the tests that count them */
const statements: string[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let twilio: Awaited<ReturnType<typeof startFakeTwilio>>;
let channels: Channels;
let both: User;
let emailOnly: User;
let smsNoPhone: User;

beforeAll(async () => {
  t = await createTestApp({ db: { onQuery: (query) => statements.push(query) } });
  smtp = await startSmtpServer();
  twilio = await startFakeTwilio();
  channels = {
    email: createEmailChannel(smtp.url, 'Baton <baton@example.com>', 2_000),
    sms: createSmsChannel({ ...twilio, from: '+15550000000' }, 500),
  };
  both = await t.createUser({
    name: 'Bo Both',
    email: 'bo.both@example.com',
    phone: '+15551110001',
    notificationPreference: 'both',
  });
  emailOnly = await t.createUser({
    name: 'Em Email',
    email: 'em.email@example.com',
    notificationPreference: 'email',
  });
  smsNoPhone = await t.createUser({
    name: 'Sid Nophone',
    email: 'sid.nophone@example.com',
    notificationPreference: 'sms',
  });
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

const deps = () => ({
  db: t.database.db,
  cipher: t.cipher,
  channels,
  clock: t.clock,
  random: () => 0.5,
});
const enqueue = (recipient: User, eventKey = 'test:1') =>
  enqueueNotifications(t.database.db, t.cipher, t.clock.now(), [
    {
      eventKey,
      kind: 'handoff',
      recipient,
      subject: 'You hold the baton for Platform Primary',
      text: 'Olivia passed you the baton. Notes: watch the queue lag.',
      html: '<p>Olivia passed you the baton.</p>',
    },
  ]);
const rows = () => t.database.db.select().from(notifications).orderBy(notifications.id);

describe('enqueueing', () => {
  test('one row per channel the preference asks for; SMS without a phone falls back to email', async () => {
    expect(await enqueue(both)).toBe(2);
    expect(await enqueue(emailOnly)).toBe(1);
    expect(await enqueue(smsNoPhone)).toBe(1);
    expect((await rows()).map((r) => [r.userId, r.channel])).toEqual([
      [both.id, 'email'],
      [both.id, 'sms'],
      [emailOnly.id, 'email'],
      [smsNoPhone.id, 'email'],
    ]);
  });

  test('the same event for the same recipient is enqueued once', async () => {
    expect(await enqueue(both, 'handoff:7')).toBe(2);
    expect(await enqueue(both, 'handoff:7')).toBe(0);
    expect(await rows()).toHaveLength(2);
  });

  test('content is encrypted at rest and decrypts to the message', async () => {
    await enqueue(emailOnly);
    const [row] = await rows();
    expect(row.contentEnc).not.toContain('baton');
    expect(decryptContent(row, t.cipher)).toMatchObject({
      to: 'em.email@example.com',
      subject: 'You hold the baton for Platform Primary',
    });
  });
});

describe('delivery', () => {
  test('email goes over a real SMTP conversation; SMS through the Messages API', async () => {
    await enqueue(both);
    expect(await deliverDue(deps())).toEqual({ sent: 2, failed: 0, retrying: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0];
    expect(mail.to).toEqual(['bo.both@example.com']);
    expect(mail.from).toBe('baton@example.com');
    expect(mail.raw).toMatch(/Subject: You hold the baton for Platform Primary/);
    expect(mail.raw).toContain('Olivia passed you the baton. Notes: watch the queue lag.');
    expect(mail.raw).toMatch(/Message-ID: <[0-9a-f]{32}@baton>/i);
    expect(twilio.sent).toEqual([
      {
        to: '+15551110001',
        from: '+15550000000',
        body: 'You hold the baton for Platform Primary: Olivia passed you the baton. Notes: watch the queue lag.',
        idempotencyToken: `test:1:${both.id}:sms`,
        receivedAt: expect.any(Number),
      },
    ]);
    const [email, sms] = await rows();
    expect([email.status, sms.status]).toEqual(['sent', 'sent']);
    expect(sms.providerResponse).toMatch(/^SM0+1$/);
    expect(email.sentAt?.toISOString()).toBe(t.clock.now().toISOString());
    // Nothing is sent twice.
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 0, retrying: 0 });
  });

  test('transient SMS failures (5xx, timeout) retry with backoff; email is not held up', async () => {
    twilio.next({ kind: 'status', status: 503 }, { kind: 'hang' });
    await enqueue(both);
    expect(await deliverDue(deps())).toEqual({ sent: 1, failed: 0, retrying: 1 });
    expect(smtp.received).toHaveLength(1);
    let sms = (await rows())[1];
    expect(sms).toMatchObject({
      status: 'pending',
      attempts: 1,
      lastError: 'SMS provider answered 503',
    });
    // Not due before the backoff has passed.
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 0, retrying: 0 });
    t.clock.advance(30_000);
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 0, retrying: 1 });
    sms = (await rows())[1];
    expect(sms.lastError).toMatch(/unreachable.*(timeout|aborted)/i);
    t.clock.advance(60_000);
    expect(await deliverDue(deps())).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(twilio.sent).toHaveLength(1);
    expect((await rows())[1]).toMatchObject({ status: 'sent', attempts: 3 });
  });

  test('a hanging SMS provider never holds up email: each channel has its own loop', async () => {
    // Its own provider, so that closing it (to end the hang) leaves the others to later tests.
    const hanging = await startFakeTwilio();
    hanging.next({ kind: 'hang' });
    const worker = startOutboxWorker({
      ...deps(),
      // The SMS waits 30 s for an answer; the email must not.
      channels: {
        email: channels.email,
        sms: createSmsChannel({ ...hanging, from: '+15550000000' }, 30_000),
      },
      intervalMs: 20,
    });
    try {
      await enqueueNotifications(t.database.db, t.cipher, t.clock.now(), [
        {
          eventKey: 'hang',
          kind: 'page',
          recipient: { ...both, notificationPreference: 'sms' },
          subject: 'Page',
          text: 'Disk full',
        },
      ]);
      await vi.waitFor(() => expect(hanging.requests).toBe(1), { timeout: 10_000, interval: 10 });
      // The SMS is now stuck at the provider; an email enqueued after it goes out on the next tick.
      await enqueue(emailOnly, 'after-the-hang');
      // The provider has the email before the worker records it as sent: wait for the record.
      await vi.waitFor(
        async () => expect((await rows())[1]).toMatchObject({ channel: 'email', status: 'sent' }),
        { timeout: 10_000, interval: 10 },
      );
      expect(smtp.received).toHaveLength(1);
      const [sms] = await rows();
      // The SMS attempt is still under way: nothing recorded yet.
      expect(sms).toMatchObject({
        channel: 'sms',
        status: 'pending',
        attempts: 1,
        lastError: null,
      });
    } finally {
      // Cutting the connection ends the hung send (a retry is recorded) so the worker can stop.
      await hanging.close();
      await worker.stop();
    }
    expect((await rows())[0]).toMatchObject({
      status: 'pending',
      lastError: expect.stringMatching(/SMS provider unreachable/),
    });
  });

  test('the doorbell (decision 274): a commit that adds notifications sends them at once, a delayed one when it falls due', async () => {
    const worker = startOutboxWorker({
      ...deps(),
      // the wall clock: the worker sleeps until a delayed row's due time by it
      clock: { now: () => new Date() },
      channels: { email: channels.email },
      // no poll inside the test: only the doorbell and the due time can wake the loop
      intervalMs: 600_000,
      listen: t.database.listen,
    });
    try {
      await worker.listening;
      const started = Date.now();
      await enqueueNotifications(t.database.db, t.cipher, new Date(), [
        {
          eventKey: 'rung',
          kind: 'page',
          recipient: emailOnly,
          subject: 'Page',
          text: 'Disk full',
        },
      ]);
      await vi.waitFor(() => expect(smtp.received).toHaveLength(1), {
        timeout: 10_000,
        interval: 10,
      });
      expect(Date.now() - started).toBeLessThan(10_000);
      // Written and pushed 600 ms into the future in one transaction: the ring at commit finds
      // nothing due, and the loop sleeps until the row is.
      const dueAt = Date.now() + 600;
      await t.database.db.transaction(async (tx) => {
        await enqueueNotifications(tx, t.cipher, new Date(), [
          {
            eventKey: 'later',
            kind: 'page',
            recipient: emailOnly,
            subject: 'Later',
            text: 'Disk full',
          },
        ]);
        await tx
          .update(notifications)
          .set({ nextAttemptAt: new Date(dueAt) })
          .where(eq(notifications.dedupeKey, `later:${emailOnly.id}:email`));
      });
      await vi.waitFor(() => expect(smtp.received).toHaveLength(2), {
        timeout: 10_000,
        interval: 10,
      });
      expect(Date.now()).toBeGreaterThanOrEqual(dueAt);
    } finally {
      await worker.stop();
    }
  });

  test('rung during a look, the loop looks again at once, and reads when the next is due only after that look', async () => {
    let open = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const sent: string[] = [];
    // The doorbell rung by the test itself, when it chooses (a NOTIFY reaches its listener some
    // time after the commit on PostgreSQL).
    let ring: (payload: string) => void = () => {};
    const worker = startOutboxWorker({
      ...deps(),
      clock: { now: () => new Date() },
      channels: {
        email: {
          name: 'email',
          send: async (message) => {
            await gate;
            sent.push(message.subject ?? '');
            return 'ok';
          },
        },
      },
      intervalMs: 600_000,
      listen: async (_channel, handlers) => {
        ring = handlers.onNotify;
        return async () => {};
      },
    });
    const page = (eventKey: string) =>
      enqueueNotifications(t.database.db, t.cipher, new Date(), [
        { eventKey, kind: 'page', recipient: emailOnly, subject: eventKey, text: 'Disk full' },
      ]);
    const dueReads = () =>
      statements.filter((query) => query.includes('min("next_attempt_at")')).length;
    try {
      await worker.listening;
      await page('first');
      ring('email');
      // the first look holds the first page at its send
      await vi.waitFor(
        async () =>
          expect((await rows()).map((r) => [r.channel, r.status, r.attempts])).toEqual([
            ['email', 'pending', 1],
          ]),
        { interval: 5 },
      );
      const before = dueReads();
      await page('second');
      ring('email');
      open();
      await vi.waitFor(() => expect(sent).toEqual(['first', 'second']), { interval: 5 });
      await vi.waitFor(() => expect(dueReads()).toBe(before + 1), { interval: 5 });
      // Settled: the second look's read, and no other.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(dueReads()).toBe(before + 1);
    } finally {
      open();
      await worker.stop();
    }
  });

  test('a permanent refusal fails at once, with the provider answer kept', async () => {
    twilio.next({ kind: 'status', status: 400 });
    await enqueue(both);
    await deliverDue(deps());
    const sms = (await rows())[1];
    expect(sms).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'SMS provider answered 400',
    });
    expect(sms.providerResponse).toContain('Injected failure');
  });

  test('a permanent SMTP refusal fails; a transient one retries', async () => {
    smtp.failNext(1, 550);
    await enqueue(emailOnly, 'mail:1');
    await deliverDue(deps());
    expect((await rows())[0]).toMatchObject({ status: 'failed', attempts: 1 });
    smtp.failNext(1, 451);
    await enqueue(emailOnly, 'mail:2');
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 0, retrying: 1 });
    t.clock.advance(60_000);
    expect(await deliverDue(deps())).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(smtp.received).toHaveLength(1);
  });

  test('retries are bounded: after the last attempt the notification fails with its reason', async () => {
    twilio.next(
      ...Array.from({ length: MAX_DELIVERY_ATTEMPTS }, () => ({
        kind: 'status' as const,
        status: 500,
      })),
    );
    await enqueueNotifications(t.database.db, t.cipher, t.clock.now(), [
      {
        eventKey: 'bounded',
        kind: 'page',
        recipient: { ...both, notificationPreference: 'sms' },
        subject: 'Page',
        text: 'Disk full',
      },
    ]);
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
      await deliverDue(deps());
      t.clock.advance(3_600_000 * 2);
    }
    const [row] = await rows();
    expect(row).toMatchObject({
      status: 'failed',
      attempts: MAX_DELIVERY_ATTEMPTS,
      lastError: 'SMS provider answered 500',
    });
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 0, retrying: 0 });
  });

  test('with no channel configured a notification is recorded as failed with the reason, never dropped', async () => {
    await enqueue(both);
    await deliverDue({ ...deps(), channels: {} });
    const [email, sms] = await rows();
    expect(email).toMatchObject({
      status: 'failed',
      lastError: 'Email is not configured on this server (SMTP_URL).',
    });
    expect(sms.status).toBe('failed');
    expect(sms.lastError).toMatch(/SMS is not configured/);
  });

  test('two workers at once deliver each notification exactly once', async () => {
    const recipients = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        t.createUser({
          email: `many.${i}@example.com`,
          phone: `+1555222${String(i).padStart(4, '0')}`,
          notificationPreference: 'both',
        }),
      ),
    );
    await enqueueNotifications(
      t.database.db,
      t.cipher,
      t.clock.now(),
      recipients.map((recipient) => ({
        eventKey: 'burst',
        kind: 'notice',
        recipient,
        subject: 'Notice',
        text: 'Shift ends soon',
      })),
    );
    const [a, b] = await Promise.all([deliverDue(deps(), 15), deliverDue(deps(), 15)]);
    const rest = await deliverDue(deps(), 50);
    expect(a.sent + b.sent + rest.sent).toBe(24);
    expect(smtp.received).toHaveLength(12);
    expect(new Set(twilio.sent.map((s) => s.to)).size).toBe(12);
    expect(twilio.sent).toHaveLength(12);
    expect((await rows()).every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  test('a worker that lost its lease cannot overwrite the outcome', async () => {
    await enqueue(emailOnly, 'lease');
    // Worker A claims the row, then stalls past its lease; worker B takes it over and sends it.
    const [claimedByA] = await claimDue(t.database.db, t.clock.now(), 10);
    expect(claimedByA.attempts).toBe(1);
    t.clock.advance(121_000);
    expect(await deliverDue(deps())).toEqual({ sent: 1, failed: 0, retrying: 0 });
    // A's late report (a failure) changes nothing.
    await recordOutcome(
      t.database.db,
      { id: claimedByA.id, attempts: 1 },
      { status: 'failed', lastError: 'late' },
    );
    expect((await rows())[0]).toMatchObject({ status: 'sent', attempts: 2, lastError: null });
    expect(smtp.received).toHaveLength(1);
  });
});

describe('a failure for good falls back to the other channel once (decision 163)', () => {
  const page = (recipient: User, options: { emailOnly?: boolean; eventKey?: string } = {}) =>
    enqueueNotifications(t.database.db, t.cipher, t.clock.now(), [
      {
        eventKey: options.eventKey ?? 'page:1:sent',
        kind: 'page',
        recipient,
        subject: 'Page (high urgency): Payments: checkout is failing',
        text: 'Iris paged you: checkout is failing. Acknowledge: http://baton.test/pages/ack/x',
        html: '<p>Iris paged you: checkout is failing.</p>',
        sms: 'Baton PAGE (High) Payments: checkout is failing Ack: http://baton.test/pages/ack/x',
        emailOnly: options.emailOnly,
      },
    ]);
  let smsOnly: User;
  let emailWithPhone: User;
  beforeAll(async () => {
    smsOnly = await t.createUser({
      name: 'Priya Shah',
      email: 'priya.shah@example.com',
      phone: '+15551110002',
      notificationPreference: 'sms',
    });
    emailWithPhone = await t.createUser({
      name: 'Eli Phone',
      email: 'eli.phone@example.com',
      phone: '+15551110003',
      notificationPreference: 'email',
    });
  });

  test('an SMS refused for good goes by email instead, exactly once, with its own dedupe key', async () => {
    twilio.next({ kind: 'unsubscribed' });
    await page(smsOnly);
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 1, retrying: 0 });
    const [sms, email] = await rows();
    expect(sms).toMatchObject({
      channel: 'sms',
      status: 'failed',
      lastError: 'SMS provider answered 400',
    });
    expect(sms.failedAt?.toISOString()).toBe(t.clock.now().toISOString());
    expect(email).toMatchObject({
      channel: 'email',
      status: 'pending',
      userId: smsOnly.id,
      kind: 'page',
      dedupeKey: `fallback:${sms.id}:${smsOnly.id}:email`,
    });
    expect(await deliverDue(deps())).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(smtp.received.map((m) => m.to)).toEqual([['priya.shah@example.com']]);
    expect(smtp.received[0].raw).toContain('Iris paged you: checkout is failing.');
    expect(smtp.received[0].raw).toMatch(/Subject: Page \(high urgency\): Payments/);
    // Nothing more: the fallback is sent once.
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 0, retrying: 0 });
    expect(await rows()).toHaveLength(2);
  });

  test('an email refused for good goes by SMS to a person with a phone, with the SMS words', async () => {
    smtp.failNext(1, 550);
    await page(emailWithPhone);
    expect(await deliverDue(deps())).toEqual({ sent: 0, failed: 1, retrying: 0 });
    expect(await deliverDue(deps())).toEqual({ sent: 1, failed: 0, retrying: 0 });
    expect(twilio.sent).toEqual([
      expect.objectContaining({
        to: '+15551110003',
        body: 'Baton PAGE (High) Payments: checkout is failing Ack: http://baton.test/pages/ack/x',
      }),
    ]);
  });

  test('after the last retry, too', async () => {
    twilio.next(
      ...Array.from({ length: MAX_DELIVERY_ATTEMPTS }, () => ({
        kind: 'status' as const,
        status: 503,
      })),
    );
    await page(smsOnly);
    for (let i = 0; i < MAX_DELIVERY_ATTEMPTS; i++) {
      await deliverDue(deps(), 50, 'sms');
      t.clock.advance(3_600_000 * 2);
    }
    expect((await rows()).map((r) => [r.channel, r.status])).toEqual([
      ['sms', 'failed'],
      ['email', 'pending'],
    ]);
  });

  test('a fallback that fails too is not replaced again', async () => {
    twilio.next({ kind: 'unsubscribed' });
    smtp.failNext(1, 550);
    await page(smsOnly);
    await deliverDue(deps());
    await deliverDue(deps());
    await deliverDue(deps());
    expect((await rows()).map((r) => [r.channel, r.status])).toEqual([
      ['sms', 'failed'],
      ['email', 'failed'],
    ]);
  });

  test('no fallback when the message already went by both channels, or was email only', async () => {
    smtp.failNext(2, 550);
    await page(both);
    await page(emailWithPhone, { emailOnly: true, eventKey: 'page:2:sent' });
    await deliverDue(deps());
    await deliverDue(deps());
    expect((await rows()).map((r) => [r.userId, r.channel, r.status])).toEqual([
      [both.id, 'email', 'failed'],
      [both.id, 'sms', 'sent'],
      [emailWithPhone.id, 'email', 'failed'],
    ]);
    expect(twilio.sent).toHaveLength(1);
  });

  test('a channel this server lacks falls back to the one it has', async () => {
    await page(smsOnly);
    await deliverDue({ ...deps(), channels: { email: channels.email } });
    await deliverDue({ ...deps(), channels: { email: channels.email } });
    const [sms, email] = await rows();
    expect(sms).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/SMS is not configured/),
    });
    expect(email).toMatchObject({ status: 'sent' });
    expect(smtp.received).toHaveLength(1);
  });
});
