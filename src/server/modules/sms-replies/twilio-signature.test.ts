import { describe, expect, test } from 'vitest';
import { isValidTwilioSignature, twilioSignature } from './twilio-signature';

// Twilio's documented example (https://www.twilio.com/docs/usage/security): auth token 12345, this
// URL, these POST parameters. Its page has shown two sets of phone numbers over the years, each
// with its signature; both are here.
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const documented = (caller: string) =>
  [
    ['CallSid', 'CA1234567890ABCDE'],
    ['Caller', caller],
    ['Digits', '1234'],
    ['From', caller],
    ['To', '+18005551212'],
  ] as [string, string][];

const OWN_VECTOR = 'VYi+eegCFGLPMJ/eKQqNS5L7IaE=';

describe('the Twilio signature', () => {
  test.each([
    ['+14158675309', 'RSOYDt4T1cUTdK1PDd93/VVr8B8='],
    ['+12349013030', '0/KCTR6DLpKmkAf8muzZqo1nDgQ='],
  ])("reproduces Twilio's documented example (%s)", (caller, signature) => {
    expect(twilioSignature('12345', URL, documented(caller))).toBe(signature);
    expect(isValidTwilioSignature('12345', URL, documented(caller), signature)).toBe(true);
  });

  test('sorts the parameters by name, whatever order they came in', () => {
    const params = documented('+14158675309');
    expect(twilioSignature('12345', URL, [...params].reverse())).toBe(
      'RSOYDt4T1cUTdK1PDd93/VVr8B8=',
    );
  });

  test('is the HMAC-SHA1 of the URL followed by each name and value (own vector)', () => {
    // echo -n 'https://baton.example.test/api/twilio/sms?x=1Body4821RFrom+15550100001' |
    //   openssl dgst -sha1 -hmac secret -binary | base64
    const params: [string, string][] = [
      ['From', '+15550100001'],
      ['Body', '4821R'],
    ];
    expect(twilioSignature('secret', 'https://baton.example.test/api/twilio/sms?x=1', params)).toBe(
      OWN_VECTOR,
    );
  });

  test('a repeated name signs each of its values in the order sent', () => {
    const a = twilioSignature('k', URL, [
      ['B', '2'],
      ['A', 'x'],
      ['B', '1'],
    ]);
    expect(a).toBe(twilioSignature('k', `${URL}`, [['A', 'xB2B1']]));
  });

  test.each([
    ['another token', '54321', URL, documented('+14158675309')],
    [
      'another URL',
      '12345',
      'https://mycompany.com/myapp.php?foo=1&bar=3',
      documented('+14158675309'),
    ],
    ['a changed value', '12345', URL, [...documented('+14158675309').slice(1), ['CallSid', 'CA0']]],
    ['a parameter added', '12345', URL, [...documented('+14158675309'), ['Body', '4821']]],
  ] as [string, string, string, [string, string][]][])(
    'refuses %s',
    (_name, token, url, params) => {
      expect(isValidTwilioSignature(token, url, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8=')).toBe(
        false,
      );
    },
  );

  test('refuses a missing, empty or truncated signature', () => {
    const params = documented('+14158675309');
    expect(isValidTwilioSignature('12345', URL, params, undefined)).toBe(false);
    expect(isValidTwilioSignature('12345', URL, params, '')).toBe(false);
    expect(isValidTwilioSignature('12345', URL, params, 'RSOYDt4T1cUTdK1PDd93/VVr8B8')).toBe(false);
  });
});
