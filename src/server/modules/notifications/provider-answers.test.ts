import { describe, expect, test } from 'vitest';
import {
  failureReason,
  HIDDEN_ADDRESS,
  HIDDEN_NUMBER,
  scrubProviderAnswer,
} from './provider-answers';

describe('scrubProviderAnswer', () => {
  test.each([
    [
      'an SMTP refusal quoting the recipient',
      '550 5.1.1 <Ada.Lovelace@Example.com>: Recipient address rejected: User unknown',
      'ada.lovelace@example.com',
      `550 5.1.1 <${HIDDEN_ADDRESS}>: Recipient address rejected: User unknown`,
    ],
    [
      "a Twilio error quoting the 'To' number",
      '{"code":21211,"message":"The \'To\' number +15551234567 is not a valid phone number.","status":400}',
      '+15551234567',
      `{"code":21211,"message":"The 'To' number ${HIDDEN_NUMBER} is not a valid phone number.","status":400}`,
    ],
    [
      'the number without its plus',
      'Attempt to send to unsubscribed recipient 15551234567',
      '+15551234567',
      `Attempt to send to unsubscribed recipient ${HIDDEN_NUMBER}`,
    ],
    [
      'another address than the recipient (a forward, an alias)',
      '550 mailbox of grace.hopper@navy.mil moved, forwarded from ada@example.com',
      'ada@example.com',
      `550 mailbox of ${HIDDEN_ADDRESS} moved, forwarded from ${HIDDEN_ADDRESS}`,
    ],
    [
      'E.164-looking numbers, written with spaces, dashes, brackets or URL-encoded',
      'To=%2B447700900123 failed; also +1 (555) 765-4321 and +33 6 12 34 56 78',
      '+15550000000',
      `To=${HIDDEN_NUMBER} failed; also ${HIDDEN_NUMBER} and ${HIDDEN_NUMBER}`,
    ],
  ])('hides %s', (_name, answer, recipient, expected) => {
    expect(scrubProviderAnswer(answer, recipient)).toBe(expected);
  });

  test.each([
    [
      'an SMTP acceptance with its Message-ID',
      '<3f2a9c0e1b7d4a6f@baton> 250 2.0.0 Ok: queued as 4B1C2',
    ],
    ['a Twilio message id', 'SM00000000000000000000000000000001'],
    ['error codes and statuses', 'SMS provider answered 429 (code 20429, 5.7.1, retry in 30 s)'],
    ['a timeout', 'SMS provider unreachable: The operation was aborted due to timeout'],
  ])('keeps %s as it is', (_name, answer) => {
    expect(scrubProviderAnswer(answer, 'ada@example.com')).toBe(answer);
  });

  test('null stays null', () => {
    expect(scrubProviderAnswer(null, '+15551234567')).toBeNull();
  });
});

describe('failureReason', () => {
  test.each([
    [
      'SMS provider answered 400',
      '{"code":21610,"message":"Attempt to send to unsubscribed recipient (number hidden)"}',
      'SMS provider answered 400 (Attempt to send to unsubscribed recipient (number hidden))',
    ],
    [
      '550 5.1.1 <(address hidden)>: User unknown',
      '550 5.1.1 <(address hidden)>: User unknown',
      '550 5.1.1 <(address hidden)>: User unknown',
    ],
    ['SMS provider answered 500', 'Internal error', 'SMS provider answered 500'],
    [
      'Email is not configured on this server (SMTP_URL).',
      null,
      'Email is not configured on this server (SMTP_URL).',
    ],
    [null, null, 'Not delivered'],
  ])('%s + %s', (lastError, response, expected) => {
    expect(failureReason(lastError, response)).toBe(expected);
  });
});
