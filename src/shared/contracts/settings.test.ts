import { describe, expect, test } from 'vitest';
import { handoffReminderChoicesText, handoffReminderLabel } from './settings';

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
