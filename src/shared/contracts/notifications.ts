import { z } from 'zod';
import type { NotificationPreference } from '../domain/notification-routing';
import { smsPhoneProblem } from '../domain/notification-routing';

export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed'] as const;

/** OutboxEntrySchema is one notification as administrators see it in the outbox view. */
export const OutboxEntrySchema = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  /**
   * chat: a destination's message (decision 221); token-sync: to the companion (decision 228);
   * voice: a phone call (decision 252); push: to a person's devices (decision 253)
   */
  channel: z.enum(['email', 'sms', 'voice', 'chat', 'token-sync', 'push']),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  status: z.string(),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  providerResponse: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string(),
  sentAt: z.string().nullable(),
});
export type OutboxEntry = z.infer<typeof OutboxEntrySchema>;

/**
 * channelNotConfiguredReason is the reason recorded on a notification whose channel this server has
 * no settings for: the notification is kept, not sent, with this reason, never dropped silently
 * (decision 006). In demo mode such a channel is the demo inbox instead (decision 186).
 */
export function channelNotConfiguredReason(channel: 'email' | 'sms' | 'voice'): string {
  if (channel === 'email') return 'Email is not configured on this server (SMTP_URL).';
  return channel === 'sms'
    ? 'SMS is not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM).'
    : 'Phone calls are not configured on this server (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM).';
}

/** isNotSentForNoChannel tells whether a notification failed only because its channel is not configured. */
export function isNotSentForNoChannel(
  entry: Pick<OutboxEntry, 'status' | 'channel' | 'lastError'>,
): boolean {
  return (
    entry.status === 'failed' &&
    (entry.channel === 'email' || entry.channel === 'sms' || entry.channel === 'voice') &&
    entry.lastError === channelNotConfiguredReason(entry.channel)
  );
}

/**
 * NotificationStatusSchema is what administrators see of delivery (GET
 * /api/admin/notifications/status, decision 163): which channels this server can use, what is
 * missing, and the channels that failed for good in the last hour (not counting failures for a
 * channel that is not configured, which `missing` already says).
 */
export const NotificationStatusSchema = z.object({
  channels: z.object({ email: z.boolean(), sms: z.boolean() }),
  /** one sentence per channel that is not configured, naming its settings */
  missing: z.array(z.string()),
  /** true when no channel is configured: no notification can be delivered */
  noChannel: z.boolean(),
  /** demo mode: what a missing channel would carry is kept in the demo inbox (decision 186) */
  demoInbox: z.boolean(),
  recentFailures: z.array(
    z.object({
      channel: z.enum(['email', 'sms']),
      count: z.number().int(),
      lastAt: z.string(),
      lastReason: z.string().nullable(),
    }),
  ),
});
export type NotificationStatus = z.infer<typeof NotificationStatusSchema>;

/** CHANNEL_FAILURE_WINDOW_MS is how far back administrators' failure banner looks. */
export const CHANNEL_FAILURE_WINDOW_MS = 3_600_000;

export const OutboxQuerySchema = z.object({
  status: z.enum(NOTIFICATION_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/**
 * checkSmsPhone is a zod refinement for profile forms and PATCH bodies: with a preference that
 * uses SMS, a phone number given must be in E.164 form (spaces and dashes allowed). Use it as
 * `Schema.superRefine(checkSmsPhone)`; a PATCH that sends only the preference should be checked
 * against the stored phone with `smsPhoneProblem`.
 */
export function checkSmsPhone(
  value: { phone?: string | null; notificationPreference?: NotificationPreference },
  ctx: z.RefinementCtx,
): void {
  if (!value.notificationPreference) return;
  const problem = smsPhoneProblem(value.notificationPreference, value.phone);
  if (problem) ctx.addIssue({ code: 'custom', path: ['phone'], message: problem });
}
