import { describe, expect, test } from 'vitest';
import { isValidSlackSignature, slackSignature } from './slack-signature';

/** Slack's documented example (api.slack.com/authentication/verifying-requests-from-slack). */
const SECRET = '8f742231b10e8888abcd99yyyzzz85a5';
const TIMESTAMP = '1531420618';
const BODY =
  'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
const SIGNATURE = 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503';
const AT = new Date(Number(TIMESTAMP) * 1000);

describe('the Slack signature', () => {
  test('matches Slack’s documented example', () => {
    expect(slackSignature(SECRET, TIMESTAMP, BODY)).toBe(SIGNATURE);
    expect(
      isValidSlackSignature(
        SECRET,
        { timestamp: TIMESTAMP, signature: SIGNATURE, rawBody: BODY },
        AT,
      ),
    ).toBe(true);
  });

  test.each([
    ['no signature', { signature: undefined }, AT],
    ['no timestamp', { timestamp: undefined }, AT],
    ['a timestamp that is no number', { timestamp: '1531420618.5' }, AT],
    ['another body', { rawBody: `${BODY}&x=1` }, AT],
    ['no raw body', { rawBody: undefined }, AT],
    ['a signature cut short', { signature: SIGNATURE.slice(0, -2) }, AT],
    ['the same signature in capitals', { signature: SIGNATURE.toUpperCase() }, AT],
    ['5 minutes and a second late', {}, new Date(AT.getTime() + 301_000)],
    ['5 minutes and a second early', {}, new Date(AT.getTime() - 301_000)],
  ])('refuses %s', (_what, change, now) => {
    const request = { timestamp: TIMESTAMP, signature: SIGNATURE, rawBody: BODY, ...change };
    expect(isValidSlackSignature(SECRET, request, now)).toBe(false);
  });

  test('accepts exactly 5 minutes either way', () => {
    const request = { timestamp: TIMESTAMP, signature: SIGNATURE, rawBody: BODY };
    expect(isValidSlackSignature(SECRET, request, new Date(AT.getTime() + 300_000))).toBe(true);
    expect(isValidSlackSignature(SECRET, request, new Date(AT.getTime() - 300_000))).toBe(true);
  });
});
