import { z } from 'zod';
import {
  NOTIFICATION_PREFERENCES,
  type NotificationPreference,
  smsPhoneProblem,
} from '../domain/notification-routing';
import { ROLES } from '../domain/roles';
import { isTimeZone } from '../domain/time-zones';
import { text } from './primitives';

export const TIMEZONES = [
  'UTC',
  'America/New_York',
  'America/Chicago',
  'America/Denver',
  'America/Los_Angeles',
  'Europe/London',
  'Europe/Paris',
  'Asia/Tokyo',
  'Australia/Sydney',
] as const;

/** The preferences the profile form offers, with the labels of specification section 9. */
export const PROFILE_NOTIFICATION_PREFERENCES = ['email', 'sms', 'both'] as const;
export const NOTIFICATION_PREFERENCE_LABELS: Record<NotificationPreference, string> = {
  email: 'Email only',
  sms: 'SMS only',
  both: 'Both Email and SMS',
  all: 'All channels',
};

export const RoleSchema = z.enum(ROLES);

/** UserSchema is a user as the API returns it (decrypted). */
export const UserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  /** legacy single role: the most privileged role held */
  role: RoleSchema,
  roles: z.array(RoleSchema),
  timezone: z.string(),
  notificationPreference: z.enum(NOTIFICATION_PREFERENCES),
});
export type User = z.infer<typeof UserSchema>;

const profileName = text({ label: 'Name', trim: true, error: 'Name must be at least 2 characters' })
  .min(2, 'Name must be at least 2 characters')
  .max(200, 'Name must be at most 200 characters');
const profilePhone = text({ label: 'Phone number', trim: true })
  .max(40, 'Phone number must be at most 40 characters')
  .nullish()
  // Absent leaves the phone as it is; empty or null clears it.
  .transform((p) => (p === undefined ? undefined : p || null));
/** A profile's time zone: any IANA zone (the profile form's and the setup checklist's). */
export const profileTimezone = text({ label: 'Timezone', error: 'Timezone is required' })
  .min(1, 'Timezone is required')
  .max(100, 'Timezone must be an IANA time zone such as Europe/London')
  .refine(isTimeZone, 'Timezone must be an IANA time zone such as Europe/London');

/** ProfileFormSchema is the Profile form (specification section 5): every field, as the form holds it. */
export const ProfileFormSchema = z
  .object({
    name: profileName,
    phone: text({ label: 'Phone number', trim: true }).max(
      40,
      'Phone number must be at most 40 characters',
    ),
    timezone: profileTimezone,
    notificationPreference: z.enum(PROFILE_NOTIFICATION_PREFERENCES, {
      error: 'Choose email, SMS or both',
    }),
  })
  .superRefine((value, ctx) => {
    const problem = smsPhoneProblem(value.notificationPreference, value.phone);
    if (problem) ctx.addIssue({ code: 'custom', path: ['phone'], message: problem });
  });
export type ProfileFormValues = z.infer<typeof ProfileFormSchema>;

/**
 * UpdateUserInputSchema is the body of PATCH /api/users/{id}: any of the profile fields (the
 * Settings screen sends notificationPreference alone). An empty phone clears it.
 */
export const UpdateUserInputSchema = z
  .object({
    name: profileName.optional(),
    phone: profilePhone,
    timezone: profileTimezone.optional(),
    notificationPreference: z
      .enum(NOTIFICATION_PREFERENCES, { error: 'Choose email, SMS or both' })
      .optional(),
  })
  .refine((u) => Object.values(u).some((v) => v !== undefined), 'Nothing to update');
export type UpdateUserInput = z.input<typeof UpdateUserInputSchema>;
export type UpdateUserValues = z.output<typeof UpdateUserInputSchema>;

/** The messages of the role rules (specification section 5), shared by server and client. */
export const ROLE_UPDATE_MESSAGES = {
  none: 'A user must have at least one role.',
  ownAdmin: 'You cannot remove your own admin role.',
  invalid: 'One or more selected roles are invalid.',
} as const;

/** The toast titles that go with each role rule message. */
export const ROLE_UPDATE_TITLES: Record<string, string> = {
  [ROLE_UPDATE_MESSAGES.none]: 'Role Required',
  [ROLE_UPDATE_MESSAGES.ownAdmin]: 'Cannot Remove Admin Role',
  [ROLE_UPDATE_MESSAGES.invalid]: 'Invalid Role Selection',
};

/** roleUpdateFailureTitle returns the toast title for a refused role change (specification section 5). */
export function roleUpdateFailureTitle(message: string): string {
  return Object.hasOwn(ROLE_UPDATE_TITLES, message) ? ROLE_UPDATE_TITLES[message] : 'Update Failed';
}

/**
 * UpdateRolesInputSchema is the body of PATCH /api/admin/users/{id}/roles: role names, checked by
 * the server against the rules above (an empty list, an unknown role, one's own admin role).
 */
export const UpdateRolesInputSchema = z.object({
  roles: z
    .array(text({ label: 'Role' }).max(50), { error: 'roles must be a list of role names' })
    .max(10),
});
export type UpdateRolesInput = z.infer<typeof UpdateRolesInputSchema>;

/** RolesFormSchema is the Edit User Roles form. */
export const RolesFormSchema = z.object({
  roles: z.array(RoleSchema).min(1, 'At least one role must be selected'),
});
export type RolesFormValues = z.infer<typeof RolesFormSchema>;

/**
 * PersonDetailSchema is GET /api/users/{id}: the read-only person view any signed-in member
 * opens from the On-Call Team (decision 187). Only what a teammate needs to reach and cover for
 * someone: no roles, no notification preference, no sign-in links.
 */
export const PersonDetailSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  timezone: z.string(),
  /** the rotations they belong to, by name; `holdsBaton` when they are on call there now */
  rotations: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      isSuspended: z.boolean(),
      holdsBaton: z.boolean(),
    }),
  ),
  /** the coverage they give: accepted or running requests not yet ended, soonest first */
  covering: z.array(
    z.object({
      id: z.number().int(),
      rotation: z.object({ id: z.number().int(), name: z.string() }),
      /** whom they cover */
      requester: z.object({ id: z.number().int(), name: z.string() }),
      /** ISO */
      startTime: z.string(),
      /** ISO */
      endTime: z.string(),
      /** accepted (to come) or active (running now) */
      status: z.enum(['accepted', 'active']),
    }),
  ),
});
export type PersonDetail = z.infer<typeof PersonDetailSchema>;
