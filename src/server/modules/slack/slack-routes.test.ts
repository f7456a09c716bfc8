import { describe, expect, test } from 'vitest';
import { createTestApp } from '../../../../tests/setup/test-app';
import { SLACK_SIGNATURE_INVALID } from './slack-routes';
import {
  click,
  clickPayload,
  incident,
  MINUTE,
  posted,
  postedMessage,
  postSigned,
  SIGNING_SECRET,
  type Signing,
  SLACK,
  setUpSlackSuite,
  slackUser,
  slackUsers,
  status,
  t,
  usersInfoCalls,
} from './slack-routes.fixtures';
import { slackSignature } from './slack-signature';

/**
 * API tests of the Slack app (issue 19, decision 222), on PGlite and (TEST_DATABASE_URL)
 * PostgreSQL, against a loopback Slack: the signature on both routes, and both off without one.
 * The buttons are in slack-button-routes.test.ts, the /baton command in
 * slack-command-routes.test.ts.
 */
setUpSlackSuite();

describe('the signature', () => {
  test.each<[Signing, string]>([
    ['none', 'a missing X-Slack-Signature'],
    ['wrong', 'a signature with another secret'],
    ['old', 'a timestamp 6 minutes old'],
    ['future', 'a timestamp 6 minutes ahead'],
    ['altered', 'a body altered after signing'],
  ])('%s: %s is refused with 401 and changes nothing', async (signing) => {
    const { id } = await incident();
    const calls = usersInfoCalls;
    const res = await click(SLACK.olivia, 'incident.resolve', String(id), signing);
    expect(res.statusCode, res.body).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await status(id)).toBe('triggered');
    expect(usersInfoCalls).toBe(calls);
    expect(posted).toEqual([]);
  });

  test('a signed request with JSON instead of the form is refused too (the raw form is signed)', async () => {
    const body = JSON.stringify({ payload: '{}' });
    const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
    const res = await t.rawInject({
      method: 'POST',
      url: '/api/slack/interactions',
      payload: body,
      headers: {
        'content-type': 'application/json',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
      },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(SLACK_SIGNATURE_INVALID);
  });

  test('4 minutes either way is within the window', async () => {
    const { id } = await incident();
    slackUsers.set('U0LATE', slackUser('olivia@example.com'));
    const body = new URLSearchParams({
      payload: JSON.stringify(clickPayload('U0LATE', 'incident.acknowledge', String(id))),
    }).toString();
    const timestamp = String(Math.floor((t.clock.now().getTime() - 4 * MINUTE) / 1000));
    const res = await t.rawInject({
      method: 'POST',
      url: '/api/slack/interactions',
      payload: body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-slack-request-timestamp': timestamp,
        'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await postedMessage()).replace_original).toBe(true);
    expect(await status(id)).toBe('acknowledged');
  });

  test('a signed payload that is no click on a button is a 400 and changes nothing', async () => {
    const body = new URLSearchParams({ payload: '{"type":"view_submission"}' }).toString();
    const res = await postSigned('/api/slack/interactions', body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST' });
    const notJson = await postSigned('/api/slack/interactions', 'payload=%7Bnot');
    expect(notJson.statusCode).toBe(400);
  });
});

describe('off', () => {
  test('without SLACK_SIGNING_SECRET both routes answer 404', async () => {
    const off = await createTestApp();
    try {
      for (const url of ['/api/slack/interactions', '/api/slack/commands']) {
        const res = await off.rawInject({
          method: 'POST',
          url,
          payload: 'payload=%7B%7D',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'x-slack-signature': 'v0=00',
            'x-slack-request-timestamp': '1',
          },
        });
        expect(res.statusCode).toBe(404);
      }
    } finally {
      await off.close();
    }
  });
});
