/** How a user wants to be notified (the profile's Notification Preference). */
export const NOTIFICATION_PREFERENCES = ['email', 'sms', 'both', 'all'] as const;
export type NotificationPreference = (typeof NOTIFICATION_PREFERENCES)[number];

/** The channels a Notification Preference chooses from. */
export type PreferenceChannel = 'email' | 'sms';
/** A person's channels: email and SMS by preference; a call only by a notification rule. */
export type ChannelName = PreferenceChannel | 'voice';

/**
 * deliveryChannels returns the channels a user's preference asks for. SMS needs a phone number: a
 * user who chose SMS without one gets email instead, with a note saying why.
 */
export function deliveryChannels(
  preference: NotificationPreference,
  hasPhone: boolean,
): { channels: PreferenceChannel[]; note?: string } {
  const wantsEmail = preference !== 'sms';
  const wantsSms = preference !== 'email';
  if (wantsSms && !hasPhone) {
    return {
      channels: ['email'],
      note: 'SMS needs a phone number on your profile; notifications go by email until you add one.',
    };
  }
  return {
    channels: [...(wantsEmail ? ['email' as const] : []), ...(wantsSms ? ['sms' as const] : [])],
  };
}

/** MAX_DELIVERY_ATTEMPTS bounds retries of one notification. */
export const MAX_DELIVERY_ATTEMPTS = 6;

/**
 * retryDelayMs returns the wait before attempt `attempt + 1`: exponential from 30 s, capped at one
 * hour, with ±20% jitter so many failures do not retry in step. `random` is in [0, 1).
 */
export function retryDelayMs(attempt: number, random: number): number {
  const base = Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 3_600_000);
  return Math.round(base * (0.8 + 0.4 * random));
}

/** isE164 tells whether a phone number is in E.164 form (+ and 7 to 15 digits). */
export function isE164(phone: string): boolean {
  return /^\+[1-9]\d{6,14}$/.test(phone);
}

/**
 * normalizePhone returns a phone number without the spaces, dots, dashes and brackets people type
 * ('+1 (555) 123-4567' → '+15551234567'), or null when empty. It does not validate.
 */
export function normalizePhone(phone: string | null | undefined): string | null {
  const compact = (phone ?? '').replace(/[\s().-]/g, '');
  return compact === '' ? null : compact;
}

/** usesSms tells whether a preference asks for SMS. */
function usesSms(preference: NotificationPreference): boolean {
  return preference !== 'email';
}

export const PHONE_E164_MESSAGE =
  'Enter the phone number in international format, e.g. +15551234567, to receive SMS';

/**
 * smsPhoneProblem returns why a phone number cannot take SMS for this preference, or null. The
 * rule applies only when the preference uses SMS (the profile's phone has no format rule
 * otherwise, specification section 5); an empty phone is allowed: email is used instead.
 */
export function smsPhoneProblem(
  preference: NotificationPreference,
  phone: string | null | undefined,
): string | null {
  const normalized = normalizePhone(phone);
  if (!usesSms(preference) || normalized === null) return null;
  return isE164(normalized) ? null : PHONE_E164_MESSAGE;
}

/**
 * notificationRoute returns where a user's notifications go: the channels, the SMS number
 * (normalized) and, when SMS was chosen but cannot be used, a note saying why email is used.
 */
export function notificationRoute(
  preference: NotificationPreference,
  phone: string | null | undefined,
): { channels: PreferenceChannel[]; smsTo: string | null; note: string | null } {
  const normalized = normalizePhone(phone);
  const valid = normalized !== null && isE164(normalized);
  const { channels, note } = deliveryChannels(preference, valid);
  if (usesSms(preference) && normalized !== null && !valid) {
    return {
      channels,
      smsTo: null,
      note: 'Your phone number is not in international format (for example +15551234567), so notifications go by email until you correct it.',
    };
  }
  return { channels, smsTo: valid ? normalized : null, note: note ?? null };
}
