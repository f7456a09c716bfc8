import { describe, expect, test } from 'vitest';
import {
  DEFAULT_NOTIFICATION_TYPE_CHOICE,
  handoffReminderChoicesText,
  handoffReminderLabel,
  NOTIFICATION_TYPE_CHOICES,
} from './settings';

describe('handoff reminder choices', () => {
  test('are named as the Settings screen and the help articles show them', () => {
    expect([15, 30, 60, 120, 1440].map(handoffReminderLabel)).toEqual([
      '15 minutes',
      '30 minutes',
      '1 hour',
      '2 hours',
      '1 day',
    ]);
    expect(handoffReminderChoicesText()).toBe(
      '15 minutes, 30 minutes (the default), 1 hour, 2 hours or 1 day',
    );
  });
});

describe('per-type notification choices', () => {
  // Specification section 9: email, sms, both, none, default both; shown, not saved (the
  // Settings screen shows them disabled at the default, decision 188).
  test('are the specification’s four, defaulting to both', () => {
    expect(NOTIFICATION_TYPE_CHOICES).toEqual(['email', 'sms', 'both', 'none']);
    expect(DEFAULT_NOTIFICATION_TYPE_CHOICE).toBe('both');
  });
});
