import { expect, test } from 'vitest';
import {
  deliveryChannels,
  isE164,
  normalizePhone,
  notificationRoute,
  PHONE_E164_MESSAGE,
  retryDelayMs,
  smsPhoneProblem,
} from './notification-routing';

test.each([
  ['email', true, ['email']],
  ['sms', true, ['sms']],
  ['both', true, ['email', 'sms']],
  ['all', true, ['email', 'sms']],
  ['sms', false, ['email']],
  ['both', false, ['email']],
  ['email', false, ['email']],
] as const)('preference %s with phone %s → %j', (preference, hasPhone, channels) => {
  expect(deliveryChannels(preference, hasPhone).channels).toEqual(channels);
});

test('choosing SMS without a phone says why email is used', () => {
  expect(deliveryChannels('sms', false).note).toMatch(/phone number/);
  expect(deliveryChannels('email', false).note).toBeUndefined();
});

test.each([
  [1, 0.5, 30_000],
  [2, 0.5, 60_000],
  [3, 0, 96_000],
  [3, 0.999_999, 144_000],
  [20, 0.5, 3_600_000],
])('retry delay after attempt %i (random %f) is %i ms', (attempt, random, expected) => {
  expect(retryDelayMs(attempt, random)).toBe(expected);
});

test.each([
  ['+15551234567', true],
  ['+442071838750', true],
  ['5551234567', false],
  ['+0123456789', false],
  ['+1 555 123 4567', false],
])('isE164(%s) = %s', (phone, expected) => {
  expect(isE164(phone)).toBe(expected);
});

test.each([
  ['+1 (555) 010-0001', '+15550100001'],
  [' +44 20 7946 0958 ', '+442079460958'],
  ['', null],
  [null, null],
])('normalizePhone(%j) is %j', (phone, expected) => {
  expect(normalizePhone(phone)).toBe(expected);
});

test.each([
  ['sms', '+15550100001', null],
  ['both', '+1 555 010 0001', null],
  ['sms', '', null], // no phone: allowed, email is used instead
  ['sms', '555-0100', PHONE_E164_MESSAGE],
  ['all', '0044 20 7946 0958', PHONE_E164_MESSAGE],
  ['email', '555-0100', null], // no format rule unless SMS is chosen
] as const)('preference %s with phone %j: %s', (preference, phone, problem) => {
  expect(smsPhoneProblem(preference, phone)).toBe(problem);
});

test('notificationRoute sends SMS to the normalized number, or says why it cannot', () => {
  expect(notificationRoute('both', '+1 555 010 0001')).toEqual({
    channels: ['email', 'sms'],
    smsTo: '+15550100001',
    note: null,
  });
  expect(notificationRoute('sms', null).channels).toEqual(['email']);
  expect(notificationRoute('sms', null).note).toMatch(/phone number/);
  const bad = notificationRoute('sms', '555-0100');
  expect(bad).toMatchObject({ channels: ['email'], smsTo: null });
  expect(bad.note).toMatch(/international format/);
  expect(notificationRoute('email', '555-0100')).toEqual({
    channels: ['email'],
    smsTo: null,
    note: null,
  });
});
