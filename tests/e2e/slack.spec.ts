import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { actAs, raiseIncident, uniqueName } from './rotation-support';
import { E2E_SLACK, e2eSlackPort } from './slack-support';
import { accounts } from './support';

/**
 * The Slack app (issue 19, decision 222), on the server playwright.config.ts starts with
 * SLACK_SIGNING_SECRET, SLACK_BOT_TOKEN and SLACK_API_URL pointing at the loopback Slack this spec
 * starts (users.info and a response_url). An incident's page is open in the browser; Slack posts
 * a signed Acknowledge; within 2 s the page shows it acknowledged, from Slack, without a reload
 * (the live updates of issue 19 bring it), and the Slack message is updated.
 */

const ROTATION = 'Platform Primary';
const IRIS_SLACK_ID = 'U0E2EIRIS';

let slack: Server;
const updates: Record<string, unknown>[] = [];

test.beforeAll(async () => {
  slack = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET' && url.pathname === '/api/users.info') {
      const known =
        req.headers.authorization === `Bearer ${E2E_SLACK.botToken}` &&
        url.searchParams.get('user') === IRIS_SLACK_ID;
      res.end(
        JSON.stringify(
          known
            ? {
                ok: true,
                user: {
                  id: IRIS_SLACK_ID,
                  deleted: false,
                  is_bot: false,
                  is_email_confirmed: true,
                  profile: { email: accounts.incidentManager.email },
                },
              }
            : { ok: false, error: 'user_not_found' },
        ),
      );
      return;
    }
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      if (req.method === 'POST' && url.pathname.startsWith('/hooks/'))
        updates.push(JSON.parse(body));
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve, reject) => {
    slack.once('error', reject);
    slack.listen(e2eSlackPort(), '127.0.0.1', () => resolve());
  });
});

test.afterAll(async () => {
  await new Promise((resolve) => slack?.close(resolve));
});

/** A click on one of Baton's buttons as Slack posts it: form-encoded, signed, no Origin. */
function signedClick(
  incidentId: number,
  actionId: string,
  signingSecret: string = E2E_SLACK.signingSecret,
) {
  const payload = {
    type: 'block_actions',
    user: { id: IRIS_SLACK_ID, username: 'iris' },
    response_url: `http://127.0.0.1:${e2eSlackPort()}/hooks/T0/B0/e2e`,
    message: {
      text: 'Incident',
      blocks: [
        {
          type: 'actions',
          block_id: 'baton-actions',
          elements: ['acknowledge', 'resolve', 'escalate'].map((a) => ({
            type: 'button',
            action_id: `incident.${a}`,
            value: String(incidentId),
          })),
        },
      ],
    },
    actions: [
      { type: 'button', action_id: actionId, block_id: 'baton-actions', value: String(incidentId) },
    ],
  };
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
  return {
    data: body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': signature,
    },
  };
}

test('a signed Acknowledge from Slack acknowledges the open incident page within 2 s; a wrong signature changes nothing', async ({
  page,
  playwright,
  baseURL,
}) => {
  const { request } = playwright;
  test.setTimeout(60_000);
  if (!baseURL) throw new Error('no baseURL');
  const title = uniqueName('Slack acknowledges checkout errors');

  // Iris, an incident manager, raises an incident on the rotation.
  const incidentId = await raiseIncident(
    request,
    baseURL,
    accounts.incidentManager,
    ROTATION,
    title,
  );

  // Its page is open.
  await actAs(page, request, baseURL, accounts.incidentManager);
  await page.goto(`/incidents/${incidentId}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('Triggered', { exact: true }).first()).toBeVisible();

  // Slack's server posts, with no session and no Origin.
  const slackSide = await request.newContext({ baseURL });
  try {
    const forged = await slackSide.post(
      '/api/slack/interactions',
      signedClick(incidentId, 'incident.acknowledge', 'not-the-secret'),
    );
    expect(forged.status()).toBe(401);
    // Refused before any change (a forged click that acted would also make a second Slack
    // update, counted below): the page still says Triggered.
    await expect(page.getByText('Triggered', { exact: true }).first()).toBeVisible();

    const clicked = await slackSide.post(
      '/api/slack/interactions',
      signedClick(incidentId, 'incident.acknowledge'),
    );
    expect(clicked.status(), await clicked.text()).toBe(200);
  } finally {
    await slackSide.dispose();
  }

  // Without a reload, within 2 s: acknowledged, by Iris, from Slack.
  await expect(page.getByText('Acknowledged', { exact: true }).first()).toBeVisible({
    timeout: 2_000,
  });
  await expect(
    page
      .getByRole('list', { name: 'Timeline' })
      .getByText('Acknowledged by Iris Incident from Slack'),
  ).toBeVisible({ timeout: 2_000 });

  // And the Slack message says so, its Resolve button kept.
  await expect.poll(() => updates.length).toBe(1);
  expect(updates[0]).toMatchObject({ replace_original: true });
  expect(JSON.stringify(updates[0])).toContain('Acknowledged by Iris Incident at <!date^');
});
