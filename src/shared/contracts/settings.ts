import { z } from 'zod';
import { NOTIFICATION_PREFERENCES } from '../domain/notification-routing';
import { TIMEZONES } from './users';

/**
 * Contracts of the Settings screen (specification sections 2 and 9). The time zone is the same
 * one the profile edits; the handoff reminder is how long before a shift boundary the user is
 * reminded to hand off.
 */

/** The time zones the Settings screen offers (a subset of the profile's TIMEZONES). */
export const SETTINGS_TIMEZONES = [
  { value: 'America/New_York', label: 'New York' },
  { value: 'America/Los_Angeles', label: 'Los Angeles' },
  { value: 'America/Chicago', label: 'Chicago' },
  { value: 'Europe/London', label: 'London' },
  { value: 'Asia/Tokyo', label: 'Tokyo' },
] as const satisfies readonly { value: (typeof TIMEZONES)[number]; label: string }[];

/** Handoff reminder choices, in minutes before the shift boundary. */
export const HANDOFF_REMINDER_MINUTES = [15, 30, 60, 120, 1440] as const;
export type HandoffReminderMinutes = (typeof HANDOFF_REMINDER_MINUTES)[number];
export const DEFAULT_HANDOFF_REMINDER_MINUTES: HandoffReminderMinutes = 30;

/** handoffReminderLabel returns '15 minutes', '1 hour', '2 hours' or '1 day'. */
export function handoffReminderLabel(minutes: number): string {
  if (minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return `${minutes} minutes`;
}

/**
 * handoffReminderChoicesText lists the reminder choices for help text: '15 minutes, 30 minutes
 * (the default), 1 hour, 2 hours or 1 day'.
 */
export function handoffReminderChoicesText(): string {
  const labels = HANDOFF_REMINDER_MINUTES.map(
    (m) =>
      `${handoffReminderLabel(m)}${m === DEFAULT_HANDOFF_REMINDER_MINUTES ? ' (the default)' : ''}`,
  );
  return `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

/** Per-type notification choices; shown on the Notifications tab but not saved (section 9). */
export const NOTIFICATION_TYPE_CHOICES = ['email', 'sms', 'both', 'none'] as const;
export type NotificationTypeChoice = (typeof NOTIFICATION_TYPE_CHOICES)[number];
export const DEFAULT_NOTIFICATION_TYPE_CHOICE: NotificationTypeChoice = 'both';

/** UserSettingsSchema is what GET and PATCH /api/user/settings answer. */
export const UserSettingsSchema = z.object({
  timezone: z.string(),
  handoffReminderMinutes: z.number().int(),
  notificationPreference: z.enum(NOTIFICATION_PREFERENCES),
});
export type UserSettings = z.infer<typeof UserSettingsSchema>;

/**
 * UpdateUserSettingsInputSchema is the body of PATCH /api/user/settings: time zone, handoff
 * reminder or both. The notification preference is saved through PATCH /api/users/{id} alone.
 */
export const UpdateUserSettingsInputSchema = z
  .object({
    timezone: z.enum(TIMEZONES, { error: 'Please choose a time zone from the list' }).optional(),
    handoffReminderMinutes: z
      .union(
        HANDOFF_REMINDER_MINUTES.map((m) => z.literal(m)),
        { error: `Handoff reminder must be one of ${HANDOFF_REMINDER_MINUTES.join(', ')} minutes` },
      )
      .optional(),
  })
  .strict()
  .refine((input) => Object.values(input).some((v) => v !== undefined), {
    message: 'Nothing to save: send timezone or handoffReminderMinutes',
  });
export type UpdateUserSettingsInput = z.infer<typeof UpdateUserSettingsInputSchema>;
