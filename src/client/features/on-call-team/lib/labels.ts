const PREFERENCE_LABELS: Record<string, string> = {
  email: 'Email only',
  sms: 'SMS only',
  both: 'Both Email and SMS',
  all: 'All channels',
};

/** notificationPreferenceLabel returns the label of a notification preference (section 9). */
export function notificationPreferenceLabel(preference: string): string {
  return PREFERENCE_LABELS[preference] ?? preference;
}
