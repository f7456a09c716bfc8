import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  channelNotConfiguredReason,
  isNotSentForNoChannel,
  type OutboxEntry,
} from '../../../shared/contracts/notifications';
import { insertRotation } from '../../db/factories';
import { channelsFromConfig } from './channels';
import { deliverDue } from './outbox';

/**
 * Demo mode: a server with no channel configured (no SMTP_URL, no Twilio) still records every
 * notification and shows it to administrators, not sent, with the reason (decision 006).
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('with no channel configured, a page is recorded and the outbox view shows it not sent, with the reason', async () => {
  expect(channelsFromConfig(t.config)).toEqual({ email: undefined, sms: undefined });
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
  expect(report).toEqual({ sent: 0, failed: 2, retrying: 0 });

  const outbox = await t.app.inject({ url: '/api/admin/notifications', headers: { cookie } });
  const entries = (outbox.json() as OutboxEntry[]).filter((e) => e.kind === 'page');
  expect(entries.map((e) => [e.channel, e.to, e.status, e.attempts, e.lastError]).sort()).toEqual([
    ['email', 'holly.holder@example.com', 'failed', 1, channelNotConfiguredReason('email')],
    ['sms', '+15550100042', 'failed', 1, channelNotConfiguredReason('sms')],
  ]);
  expect(entries.every(isNotSentForNoChannel)).toBe(true);
  expect(entries[0].subject).toContain('Queue is backing up');
  // A real delivery failure is not mistaken for a missing channel.
  expect(isNotSentForNoChannel({ ...entries[0], lastError: 'Mailbox unavailable' })).toBe(false);
  expect(isNotSentForNoChannel({ ...entries[0], status: 'sent' })).toBe(false);
});
