import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Incident } from '../../../shared/contracts/incidents';
import type { SlackBlock } from '../../../shared/contracts/slack';
import type { User } from '../../../shared/contracts/users';
import { pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { slackSignature } from './slack-signature';

/**
 * The Slack suites' shared set-up (issue 19, decision 222): the app against a loopback Slack
 * (users.info with its bearer token, and a response_url), the people on both sides, and requests
 * signed as Slack signs them. Each suite calls `setUpSlackSuite()` once; its hooks set the
 * bindings below (an import sees them as they are now), since the files of a worker share this
 * module (decision 230).
 */

export const SIGNING_SECRET = 'slack-signing-secret-for-tests';
const BOT_TOKEN = 'xoxb-1234-5678-testtoken';
export const MINUTE = 60_000;

/** The Slack users the loopback users.info knows: id → the user object it answers. */
export const slackUsers = new Map<string, Record<string, unknown>>();
/** What Baton posted to response_urls, in order. */
export const posted: { path: string; body: Record<string, unknown> }[] = [];
export let usersInfoCalls = 0;
let slack: Server;
let slackUrl = '';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => resolve(body));
  });
}

/** A loopback Slack Web API: users.info as documented (bearer token, ok/error), and response_urls. */
function startSlack(): Promise<Server> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && url.pathname === '/api/users.info') {
      usersInfoCalls += 1;
      if (req.headers.authorization !== `Bearer ${BOT_TOKEN}`) {
        return json(200, { ok: false, error: 'invalid_auth' });
      }
      const user = slackUsers.get(url.searchParams.get('user') ?? '');
      return json(200, user ? { ok: true, user } : { ok: false, error: 'user_not_found' });
    }
    if (req.method === 'POST' && url.pathname.startsWith('/hooks/')) {
      posted.push({ path: url.pathname, body: JSON.parse(await readBody(req)) });
      return json(200, { ok: true });
    }
    json(404, { ok: false, error: 'unknown_method' });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

export let t: TestApp;
export const people = {} as Record<'manager' | 'olivia' | 'noah' | 'outsider', User>;

/** Slack ids: each person's, and ones Baton must not act for. */
export const SLACK = {
  morgan: 'U0MORGAN',
  olivia: 'U0OLIVIA',
  noah: 'U0NOAH',
  outsider: 'U0OUTSIDER',
  stranger: 'U0STRANGER',
  unconfirmed: 'U0UNCONF',
};

export function slackUser(email: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'U',
    deleted: false,
    is_bot: false,
    is_email_confirmed: true,
    profile: { email, real_name: 'someone' },
    ...extra,
  };
}

/** setUpSlackSuite registers the suite's hooks: the loopback Slack and the app, per file. */
export function setUpSlackSuite() {
  beforeAll(async () => {
    slack = await startSlack();
    slackUrl = `http://127.0.0.1:${(slack.address() as AddressInfo).port}`;
    t = await createTestApp({
      env: {
        SLACK_SIGNING_SECRET: SIGNING_SECRET,
        SLACK_BOT_TOKEN: BOT_TOKEN,
        SLACK_API_URL: `${slackUrl}/api`,
      },
    });
    Object.assign(
      people,
      await t.cast({
        manager: { email: 'morgan@example.com' },
        olivia: {
          name: 'Olivia <Ortiz>',
          email: 'olivia@example.com',
          timezone: 'America/Chicago',
        },
        noah: { email: 'noah@example.com' },
        outsider: { email: 'oscar@example.com' },
      }),
    );
    // Each file starts from the same Slack, as when it had this module to itself.
    slackUsers.clear();
    usersInfoCalls = 0;
    // Slack's profile email may differ in case from the one Baton knows: the blind index
    // normalises.
    slackUsers.set(SLACK.olivia, slackUser('Olivia@Example.com'));
    slackUsers.set(SLACK.noah, slackUser('noah@example.com'));
    slackUsers.set(SLACK.morgan, slackUser('morgan@example.com'));
    slackUsers.set(SLACK.outsider, slackUser('oscar@example.com'));
    slackUsers.set(SLACK.stranger, slackUser('stranger@elsewhere.test'));
    slackUsers.set(
      SLACK.unconfirmed,
      slackUser('olivia@example.com', { is_email_confirmed: false }),
    );
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => slack?.close(resolve));
  });
  beforeEach(async () => {
    await t.database.db.delete(pages);
    posted.length = 0;
  });
}

/** A rotation Olivia holds (then Noah), and an incident on it Morgan raised: its id. */
export async function incident(): Promise<{ id: number; rotationId: number }> {
  const r = await insertRotation(t.database.db, {
    name: `Checkout ${Math.random().toString(36).slice(2, 7)}`,
    memberIds: [people.olivia.id, people.noah.id],
    holderId: people.olivia.id,
    createdById: people.manager.id,
    now: t.clock.now(),
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/incidents',
    payload: { rotationId: r.id, title: 'Checkout is failing' },
    headers: { cookie: await t.cookieFor(people.manager) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json<Incident>().id, rotationId: r.id };
}

/** The message chat's destinations post about an incident (decision 222's contract with them). */
function incidentMessage(id: number): { text: string; blocks: SlackBlock[] } {
  const button = (actionId: string, text: string) => ({
    type: 'button',
    action_id: actionId,
    text: { type: 'plain_text', text },
    value: String(id),
  });
  return {
    text: 'Incident: Checkout is failing',
    blocks: [
      {
        type: 'section',
        block_id: 'summary',
        text: { type: 'mrkdwn', text: '*Checkout is failing*' },
      },
      {
        type: 'actions',
        block_id: 'baton-actions',
        elements: [
          button('incident.acknowledge', 'Acknowledge'),
          button('incident.resolve', 'Resolve'),
          button('incident.escalate', 'Escalate'),
        ],
      },
    ],
  };
}

export function clickPayload(slackUserId: string, actionId: string, value: string) {
  return {
    type: 'block_actions',
    team: { id: 'T0TEAM', domain: 'example' },
    user: { id: slackUserId, username: 'someone', team_id: 'T0TEAM' },
    api_app_id: 'A0APP',
    token: 'deprecated-verification-token',
    trigger_id: '123.456.abc',
    container: { type: 'message', message_ts: '1700000000.000100', channel_id: 'C0CHAN' },
    channel: { id: 'C0CHAN', name: 'incidents' },
    message: { type: 'message', ts: '1700000000.000100', ...incidentMessage(Number(value) || 1) },
    response_url: `${slackUrl}/hooks/T0TEAM/B0/abc`,
    actions: [
      {
        type: 'button',
        action_id: actionId,
        block_id: 'baton-actions',
        value,
        action_ts: '1700000001.000200',
      },
    ],
  };
}

export type Signing = 'valid' | 'none' | 'wrong' | 'old' | 'future' | 'altered';

/** Posts as Slack does: form-encoded, no Origin, signed over `v0:{timestamp}:{raw body}`. */
export async function postSigned(path: string, body: string, signing: Signing = 'valid') {
  const now = Math.floor(t.clock.now().getTime() / 1000);
  const timestamp = String(
    signing === 'old' ? now - 6 * 60 : signing === 'future' ? now + 6 * 60 : now,
  );
  const secret = signing === 'wrong' ? 'another-secret' : SIGNING_SECRET;
  const signature = slackSignature(secret, timestamp, body);
  return t.rawInject({
    method: 'POST',
    url: path,
    payload:
      signing === 'altered' ? body.replace('incident.resolve', 'incident.acknowledge') : body,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': timestamp,
      ...(signing === 'none' ? {} : { 'x-slack-signature': signature }),
    },
  });
}

export function click(
  slackUserId: string,
  actionId: string,
  value: string,
  signing: Signing = 'valid',
) {
  const body = new URLSearchParams({
    payload: JSON.stringify(clickPayload(slackUserId, actionId, value)),
  }).toString();
  return postSigned('/api/slack/interactions', body, signing);
}

export function command(slackUserId: string, text: string) {
  const body = new URLSearchParams({
    token: 'deprecated',
    team_id: 'T0TEAM',
    channel_id: 'C0CHAN',
    user_id: slackUserId,
    user_name: 'someone',
    command: '/baton',
    text,
    response_url: `${slackUrl}/hooks/commands/1`,
    trigger_id: '1.2.3',
  }).toString();
  return postSigned('/api/slack/commands', body);
}

/** The one message Baton posts to the click's response_url (after its answer). */
export async function postedMessage() {
  await vi.waitFor(() => expect(posted).toHaveLength(1), { timeout: 3_000 });
  return posted[0].body as {
    text: string;
    blocks?: SlackBlock[];
    replace_original?: boolean;
    response_type?: string;
  };
}

export async function status(id: number) {
  const [row] = await t.database.db.select().from(pages).where(eq(pages.id, id));
  return row.status;
}
