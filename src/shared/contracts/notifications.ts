import { z } from 'zod';
import { smsPhoneProblem } from '../domain/notification-routing';
import { NOTIFICATION_PREFERENCES, type NotificationPreference } from './users';

export const NOTIFICATION_STATUSES = ['pending', 'sent', 'failed'] as const;

/** OutboxEntrySchema is one notification as administrators see it in the outbox view. */
export const OutboxEntrySchema = z.object({
  id: z.number().int(),
  userId: z.number().int().nullable(),
  channel: z.enum(['email', 'sms']),
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

export const OutboxQuerySchema = z.object({
  status: z.enum(NOTIFICATION_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** NotificationStatusSchema tells a user where their notifications go (GET /api/user/notification-status). */
export const NotificationStatusSchema = z.object({
  preference: z.enum(NOTIFICATION_PREFERENCES),
  channels: z.array(z.enum(['email', 'sms'])),
  /** why the channels differ from the preference (SMS without a usable phone), else null */
  note: z.string().nullable(),
});
export type NotificationStatus = z.infer<typeof NotificationStatusSchema>;

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
