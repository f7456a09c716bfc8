import { describe, expect, test } from 'vitest';
import { notDeliveredText } from './delivery-failure-text';

describe('notDeliveredText', () => {
  test.each([
    [
      {
        to: { name: 'Priya Shah' },
        channel: 'sms',
        reason: 'SMS provider answered 400',
        fallbackChannel: 'email',
      },
      'Not delivered to Priya Shah by SMS: SMS provider answered 400. Sent by email instead.',
    ],
    [
      {
        to: { name: 'Sam Sullivan' },
        channel: 'email',
        reason: '550 5.2.1 Mailbox disabled',
        fallbackChannel: null,
      },
      'Not delivered to Sam Sullivan by email: 550 5.2.1 Mailbox disabled.',
    ],
    [
      {
        to: null,
        channel: 'email',
        reason: 'Email is not configured on this server (SMTP_URL).',
        fallbackChannel: 'sms',
      },
      'Not delivered to a deleted user by email: Email is not configured on this server (SMTP_URL). Sent by SMS instead.',
    ],
    [
      {
        to: { name: 'Vera Voice' },
        channel: 'voice',
        reason: 'The call was not answered',
        fallbackChannel: null,
      },
      'Not delivered to Vera Voice by phone call: The call was not answered.',
    ],
  ] as const)('%j', (failure, expected) => {
    expect(notDeliveredText(failure)).toBe(expected);
  });
});
