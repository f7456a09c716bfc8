import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { INCIDENT_MESSAGES, type Incident } from '../../../shared/contracts/incidents';
import type { OnCall, OnCalls } from '../../../shared/contracts/oncalls';
import type { SlackBlock } from '../../../shared/contracts/slack';
import type { User } from '../../../shared/contracts/users';
import { handoffs, pages, rotations, scheduleEntries } from '../../db/schema';
import { runEngineTick } from '../../engine-tasks';
import { insertRotation } from '../../seed/factories';
import { SLACK_COMMAND_MESSAGES } from './slack-commands';
import { SLACK_ESCALATION_REASON } from './slack-interactions';
import { SLACK_PEOPLE_MESSAGES } from './slack-people';
import { SLACK_SIGNATURE_INVALID } from './slack-routes';
import { slackSignature } from './slack-signature';

/**
 * API tests of the Slack app (issue 19, decision 222), on PGlite and (TEST_DATABASE_URL)
 * PostgreSQL, against a loopback Slack: users.info (with its bearer token) and a response_url.
 */

const SIGNING_SECRET = 'slack-signing-secret-for-tests';
const BOT_TOKEN = 'xoxb-1234-5678-testtoken';
const MINUTE = 60_000;

/** The Slack users the loopback users.info knows: id → the user object it answers. */
const slackUsers = new Map<string, Record<string, unknown>>();
/** What Baton posted to response_urls, in order. */
let posted: { path: string; body: Record<string, unknown> }[] = [];
let usersInfoCalls = 0;
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

let t: TestApp;
const people = {} as Record<'manager' | 'olivia' | 'noah' | 'outsider', User>;

/** Slack ids: each person's, and ones Baton must not act for. */
const SLACK = {
  morgan: 'U0MORGAN',
  olivia: 'U0OLIVIA',
  noah: 'U0NOAH',
  outsider: 'U0OUTSIDER',
  stranger: 'U0STRANGER',
  unconfirmed: 'U0UNCONF',
};

function slackUser(email: string, extra: Record<string, unknown> = {}) {
  return {
    id: 'U',
    deleted: false,
    is_bot: false,
    is_email_confirmed: true,
    profile: { email, real_name: 'someone' },
    ...extra,
  };
}

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
      olivia: { name: 'Olivia <Ortiz>', email: 'olivia@example.com', timezone: 'America/Chicago' },
      noah: { email: 'noah@example.com' },
      outsider: { email: 'oscar@example.com' },
    }),
  );
  // Slack's profile email may differ in case from the one Baton knows: the blind index normalises.
  slackUsers.set(SLACK.olivia, slackUser('Olivia@Example.com'));
  slackUsers.set(SLACK.noah, slackUser('noah@example.com'));
  slackUsers.set(SLACK.morgan, slackUser('morgan@example.com'));
  slackUsers.set(SLACK.outsider, slackUser('oscar@example.com'));
  slackUsers.set(SLACK.stranger, slackUser('stranger@elsewhere.test'));
  slackUsers.set(SLACK.unconfirmed, slackUser('olivia@example.com', { is_email_confirmed: false }));
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => slack?.close(resolve));
});
beforeEach(async () => {
  await t.database.db.delete(pages);
  posted = [];
});

/** A rotation Olivia holds (then Noah), and an incident on it Morgan raised: its id. */
async function incident(): Promise<{ id: number; rotationId: number }> {
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

async function incidentAs(user: User, id: number): Promise<Incident> {
  const res = await t.app.inject({
    url: `/api/incidents/${id}`,
    headers: { cookie: await t.cookieFor(user) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Incident>();
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

function clickPayload(slackUserId: string, actionId: string, value: string) {
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

type Signing = 'valid' | 'none' | 'wrong' | 'old' | 'future' | 'altered';

/** Posts as Slack does: form-encoded, no Origin, signed over `v0:{timestamp}:{raw body}`. */
async function postSigned(path: string, body: string, signing: Signing = 'valid') {
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

function click(slackUserId: string, actionId: string, value: string, signing: Signing = 'valid') {
  const body = new URLSearchParams({
    payload: JSON.stringify(clickPayload(slackUserId, actionId, value)),
  }).toString();
  return postSigned('/api/slack/interactions', body, signing);
}

function command(slackUserId: string, text: string) {
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
async function postedMessage() {
  await vi.waitFor(() => expect(posted).toHaveLength(1), { timeout: 3_000 });
  return posted[0].body as {
    text: string;
    blocks?: SlackBlock[];
    replace_original?: boolean;
    response_type?: string;
  };
}

async function status(id: number) {
  const [row] = await t.database.db.select().from(pages).where(eq(pages.id, id));
  return row.status;
}

const contextLine = (blocks: SlackBlock[] | undefined) => {
  const context = blocks?.at(-1) as { type: string; elements: { text: string }[] } | undefined;
  expect(context?.type).toBe('context');
  return context?.elements[0].text ?? '';
};

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

describe('the buttons', () => {
  test('a signed Acknowledge acknowledges as the person, from Slack, and updates the message', async () => {
    const { id } = await incident();
    const res = await click(SLACK.olivia, 'incident.acknowledge', String(id));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe('');
    const seen = await incidentAs(people.manager, id);
    expect(seen.status).toBe('acknowledged');
    expect(seen.timeline?.find((e) => e.kind === 'acknowledged')).toMatchObject({
      actor: { id: people.olivia.id, name: 'Olivia <Ortiz>' },
      via: 'slack',
    });
    const message = await postedMessage();
    expect(message.replace_original).toBe(true);
    expect(message.text).toBe('Incident: Checkout is failing');
    // The summary stays; of the buttons only Resolve is left; a line says who and when.
    expect(message.blocks?.[0]).toMatchObject({ block_id: 'summary' });
    const actions = message.blocks?.[1] as unknown as {
      block_id: string;
      elements: { action_id: string }[];
    };
    expect(actions.block_id).toBe('baton-actions');
    expect(actions.elements.map((e) => e.action_id)).toEqual(['incident.resolve']);
    const seconds = Math.floor(t.clock.now().getTime() / 1000);
    expect(contextLine(message.blocks)).toBe(
      `Acknowledged by Olivia &lt;Ortiz&gt; at <!date^${seconds}^{date_short_pretty} at {time}|Mon, Nov 2, 2026, 6:00 AM CST>`,
    );
  });

  test('a second Acknowledge is refused as the screen refuses it, to the clicker alone', async () => {
    const { id } = await incident();
    expect((await click(SLACK.olivia, 'incident.acknowledge', String(id))).statusCode).toBe(200);
    await postedMessage();
    posted = [];
    const res = await click(SLACK.morgan, 'incident.acknowledge', String(id));
    expect(res.statusCode).toBe(200);
    const message = await postedMessage();
    expect(message).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text: INCIDENT_MESSAGES.acknowledgedBy('Olivia <Ortiz>', 'Mon, Nov 2, 2026, 12:00 PM UTC'),
    });
  });

  test('Resolve resolves and takes the buttons away', async () => {
    const { id } = await incident();
    expect((await click(SLACK.morgan, 'incident.resolve', String(id))).statusCode).toBe(200);
    const seen = await incidentAs(people.manager, id);
    expect(seen.status).toBe('resolved');
    expect(seen.timeline?.find((e) => e.kind === 'resolved')).toMatchObject({
      actor: { id: people.manager.id },
      via: 'slack',
    });
    const message = await postedMessage();
    expect(message.blocks?.map((b) => b.block_id ?? b.type)).toEqual(['summary', 'context']);
    expect(contextLine(message.blocks)).toMatch(/^Resolved by Morgan Manager at <!date\^/);
  });

  test('Escalate escalates to the next step with the reason "Escalated from Slack"', async () => {
    const { id } = await incident();
    expect((await click(SLACK.olivia, 'incident.escalate', String(id))).statusCode).toBe(200);
    const seen = await incidentAs(people.manager, id);
    expect(seen.timeline?.find((e) => e.kind === 'escalated')).toMatchObject({
      actor: { id: people.olivia.id },
      reason: SLACK_ESCALATION_REASON,
    });
    const message = await postedMessage();
    // Still open: every button stays.
    const actions = message.blocks?.[1] as unknown as { elements: unknown[] };
    expect(actions.elements).toHaveLength(3);
    expect(contextLine(message.blocks)).toMatch(/^Escalated by Olivia &lt;Ortiz&gt; at /);
  });

  test('a signed Escalate click replayed three times moves the incident one step (decision 236)', async () => {
    const { id } = await incident();
    expect((await incidentAs(people.manager, id)).currentStep).toBe(1);
    // The button as Baton posts it carries the step its message showed.
    const body = new URLSearchParams({
      payload: JSON.stringify(clickPayload(SLACK.olivia, 'incident.escalate', `${id}:1`)),
    }).toString();
    for (let i = 0; i < 4; i++) {
      expect((await postSigned('/api/slack/interactions', body)).statusCode).toBe(200);
    }
    await vi.waitFor(() => expect(posted).toHaveLength(4), { timeout: 5_000 });
    const seen = await incidentAs(people.manager, id);
    expect(seen.currentStep).toBe(2);
    expect(seen.timeline?.filter((e) => e.kind === 'escalated')).toHaveLength(1);
    const answers = posted.map((p) => p.body);
    expect(answers.filter((a) => a.replace_original === true)).toHaveLength(1);
    expect(answers.filter((a) => a.response_type === 'ephemeral')).toEqual(
      Array.from({ length: 3 }, () => ({
        response_type: 'ephemeral',
        replace_original: false,
        text: INCIDENT_MESSAGES.alreadyMoved(2),
      })),
    );
  });

  test.each([
    ['someone outside the rotation', SLACK.outsider],
    ['a member it did not notify', SLACK.noah],
  ])('%s: the rules refuse, nothing changes, the screen’s words', async (_who, slackId) => {
    const { id } = await incident();
    expect((await click(slackId, 'incident.acknowledge', String(id))).statusCode).toBe(200);
    expect(await postedMessage()).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
      text: INCIDENT_MESSAGES.mayNotAct,
    });
    expect(await status(id)).toBe('triggered');
  });

  test.each([
    [
      SLACK.stranger,
      SLACK_PEOPLE_MESSAGES.unknown('stranger@elsewhere.test', 'http://localhost:3000'),
    ],
    [SLACK.unconfirmed, SLACK_PEOPLE_MESSAGES.unconfirmed],
    ['U0NOBODY', SLACK_PEOPLE_MESSAGES.unavailable],
  ])('Slack user %s: nothing changes, an ephemeral answer says why', async (slackId, text) => {
    const { id } = await incident();
    expect((await click(slackId, 'incident.resolve', String(id))).statusCode).toBe(200);
    expect(await status(id)).toBe('triggered');
    expect(await postedMessage()).toEqual({
      response_type: 'ephemeral',
      replace_original: false,
      text,
    });
  });

  test('an unknown incident or button changes nothing', async () => {
    expect((await click(SLACK.olivia, 'incident.acknowledge', '999999')).statusCode).toBe(200);
    expect((await postedMessage()).text).toBe(INCIDENT_MESSAGES.notFound);
    posted = [];
    expect((await click(SLACK.olivia, 'incident.delete', '1')).statusCode).toBe(200);
    expect((await postedMessage()).response_type).toBe('ephemeral');
  });

  test('the Slack user’s email is asked once and remembered for a few minutes', async () => {
    const { id } = await incident();
    slackUsers.set('U0REMEMBER', slackUser('olivia@example.com'));
    const before = usersInfoCalls;
    await click('U0REMEMBER', 'incident.escalate', String(id));
    await postedMessage();
    posted = [];
    await click('U0REMEMBER', 'incident.acknowledge', String(id));
    await postedMessage();
    expect(usersInfoCalls - before).toBe(1);
    expect(await status(id)).toBe('acknowledged');
  });

  test('Acknowledge on a handoff message acknowledges the incoming holder’s handoff', async () => {
    const r = await insertRotation(t.database.db, {
      name: `Handoffs ${Math.random().toString(36).slice(2, 7)}`,
      memberIds: [people.olivia.id, people.noah.id],
      holderId: people.olivia.id,
      createdById: people.manager.id,
      now: t.clock.now(),
    });
    const pass = await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      payload: { toUserId: people.noah.id },
      headers: { cookie: await t.cookieFor(people.olivia) },
    });
    expect(pass.statusCode, pass.body).toBe(200);
    // Olivia passed it: only Noah, who received the baton, may acknowledge.
    await click(SLACK.olivia, 'handoff.acknowledge', String(r.id));
    expect((await postedMessage()).text).toBe(
      'Only the person who received the baton can acknowledge this handoff.',
    );
    posted = [];
    expect((await click(SLACK.noah, 'handoff.acknowledge', String(r.id))).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(handoffs).where(eq(handoffs.rotationId, r.id));
    expect(row.acknowledgedAt?.toISOString()).toBe(t.clock.now().toISOString());
    const message = await postedMessage();
    expect(message.replace_original).toBe(true);
    expect(contextLine(message.blocks)).toMatch(/^Acknowledged by Noah Nakamura at /);
  });
});

describe('/baton', () => {
  test('who <rotation>: who holds the baton now, since when, and who is next, when', async () => {
    const r = await insertRotation(t.database.db, {
      name: 'Payments primary',
      memberIds: [people.olivia.id, people.noah.id],
      holderId: people.olivia.id,
      createdById: people.manager.id,
      now: t.clock.now(),
    });
    await insertRotation(t.database.db, { name: 'Payments secondary', now: t.clock.now() });
    const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, r.id));
    const next = Math.floor((row.nextHandoffAt as Date).getTime() / 1000);
    for (const text of ['who payments PRIMARY', 'who Payments p', 'WHO   payments   primary']) {
      const res = await command(SLACK.noah, text);
      expect(res.statusCode, res.body).toBe(200);
      const answer = res.json<{ response_type: string; text: string }>();
      expect(answer.response_type).toBe('ephemeral');
      expect(answer.text).toMatch(
        /^\*Payments primary\*: Olivia &lt;Ortiz&gt; holds the baton since <!date\^\d+\^/,
      );
      expect(answer.text).toContain(`\nNext: Noah Nakamura from <!date^${next}^`);
    }
    const several = (await command(SLACK.noah, 'who payments')).json<{ text: string }>();
    expect(several.text).toBe(
      SLACK_COMMAND_MESSAGES.several('payments', ['Payments primary', 'Payments secondary']),
    );
    const none = (await command(SLACK.noah, 'who billing')).json<{ text: string }>();
    expect(none.text).toBe(SLACK_COMMAND_MESSAGES.noRotation('billing'));
  });

  test('who <rotation> answers as GET /api/oncalls does: suspended, covered, nobody on call', async () => {
    // Mon 2 Nov, 12:00 UTC. "Relay weekly" hands over on Mondays at 09:00 (Ana, Ben, Cal, Dan):
    // Ana holds it, Dan covers Ben's week of 9 Nov. "Relay paused" is suspended, though its row
    // still names Ana. "Relay shifts" is scheduled: Ben until 3 Nov 12:00, nobody, Cal 5–7 Nov.
    const start = t.clock.now();
    const [ana, ben, cal, dan] = await Promise.all(
      ['Ana Relay', 'Ben Relay', 'Cal Relay', 'Dan Relay'].map((name) => t.createUser({ name })),
    );
    const as = async (user: User, method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, payload, headers: { cookie: await t.cookieFor(user) } });
    try {
      const weekly = await insertRotation(t.database.db, {
        name: 'Relay weekly',
        memberIds: [ana.id, ben.id, cal.id, dan.id],
        holderId: ana.id,
        holderSince: new Date('2026-11-02T09:00:00Z'),
        now: start,
      });
      const asked = await as(ben, 'POST', `/api/rotations/${weekly.id}/cover-plans`, {
        coveringUserId: dan.id,
        startTime: '2026-11-09T09:00:00Z',
        endTime: '2026-11-16T09:00:00Z',
        notes: 'Holiday',
      });
      expect(asked.statusCode, asked.body).toBe(201);
      const accepted = await as(dan, 'POST', `/api/coverage-requests/${asked.json().id}/accept`);
      expect(accepted.statusCode, accepted.body).toBe(200);
      const paused = await insertRotation(t.database.db, {
        name: 'Relay paused',
        memberIds: [ana.id],
        holderId: ana.id,
        holderSince: new Date('2026-10-20T09:00:00Z'),
        suspended: true,
        now: start,
      });
      const shifts = await insertRotation(t.database.db, {
        name: 'Relay shifts',
        type: 'scheduled',
        memberIds: [ben.id, cal.id],
        holderId: ben.id,
        holderSince: new Date('2026-11-01T12:00:00Z'),
        now: start,
      });
      await t.database.db.insert(scheduleEntries).values([
        {
          rotationId: shifts.id,
          userId: ben.id,
          startAt: new Date('2026-11-01T12:00:00Z'),
          endAt: new Date('2026-11-03T12:00:00Z'),
        },
        {
          rotationId: shifts.id,
          userId: cal.id,
          startAt: new Date('2026-11-05T12:00:00Z'),
          endAt: new Date('2026-11-07T12:00:00Z'),
        },
      ]);
      // The engine's next change is the end of Ben's entry (the factory counts a weekly turn).
      await t.database.db
        .update(rotations)
        .set({ nextHandoffAt: new Date('2026-11-03T12:00:00Z') })
        .where(eq(rotations.id, shifts.id));
      const rotationIds = { weekly: weekly.id, paused: paused.id, shifts: shifts.id };

      const iso = (seconds: string) => new Date(Number(seconds) * 1000).toISOString();
      /** What `/baton who` says: holder, since, next [name, from] (null: none), suspended. */
      const slackSays = async (name: string) => {
        const res = await command(SLACK.noah, `who ${name}`);
        expect(res.statusCode, res.body).toBe(200);
        const [first, second, ...rest] = res.json<{ text: string }>().text.split('\n');
        expect(rest).toEqual([]);
        const holds = /^\*[^*]+\*: (.+) holds the baton since <!date\^(\d+)\^[^>]*>\.$/.exec(first);
        if (!holds) expect(first).toBe(`*${name}*: nobody holds the baton now.`);
        const next = /^Next: (.+) from <!date\^(\d+)\^[^>]*>\.$/.exec(second);
        if (!next) {
          expect(second).toMatch(
            /^(The rotation is suspended: nobody is next\.|Nobody is next in the coming 62 days\.)$/,
          );
        }
        return {
          holder: holds ? holds[1] : null,
          since: holds ? iso(holds[2]) : null,
          next: next ? [next[1], iso(next[2])] : null,
          suspended: second.startsWith('The rotation is suspended'),
        };
      };
      const oncall = async (id: number, at?: string) => {
        const query = at ? `?rotationId=${id}&at=${at}` : `?rotationId=${id}`;
        const res = await as(people.noah, 'GET', `/api/oncalls${query}`);
        expect(res.statusCode, res.body).toBe(200);
        return (res.json() as OnCalls).oncalls[0] as OnCall;
      };
      /** Slack's answer, checked against GET /api/oncalls now and ?at= its next holder's start. */
      const agreed = async (key: keyof typeof rotationIds) => {
        const name = `Relay ${key}`;
        const says = await slackSays(name);
        const now = await oncall(rotationIds[key]);
        expect(says).toEqual({
          holder: now.holder?.name ?? null,
          since: now.holder ? now.since : null,
          next: now.next ? [now.next.holder.name, now.next.from] : null,
          suspended: now.rotation.suspended,
        });
        if (says.next) {
          const then = await oncall(rotationIds[key], says.next[1]);
          expect([then.holder?.name, then.since]).toEqual(says.next);
        }
        return says;
      };
      const at = async (instant: string) => {
        t.clock.set(instant);
        await runEngineTick(
          { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
          t.clock.now(),
        );
      };

      // Now: Ana's turn; next the covered shift, Dan in Ben's place.
      expect(await agreed('weekly')).toMatchObject({
        holder: 'Ana Relay',
        since: '2026-11-02T09:00:00.000Z',
        next: ['Dan Relay', '2026-11-09T09:00:00.000Z'],
      });
      expect(await oncall(weekly.id, '2026-11-09T09:00:00Z')).toMatchObject({
        source: 'coverage',
        coveredUserId: ben.id,
      });
      // Suspended: nobody on call from now on, though the row still names Ana.
      expect(await agreed('paused')).toEqual({
        holder: null,
        since: null,
        next: null,
        suspended: true,
      });
      expect(await agreed('shifts')).toMatchObject({
        holder: 'Ben Relay',
        since: '2026-11-01T12:00:00.000Z',
        next: ['Cal Relay', '2026-11-05T12:00:00.000Z'],
      });

      // Between the entries nobody is on call; Cal comes next.
      await at('2026-11-04T00:00:00Z');
      expect(await agreed('shifts')).toMatchObject({
        holder: null,
        next: ['Cal Relay', '2026-11-05T12:00:00.000Z'],
      });
      expect(await agreed('weekly')).toMatchObject({ holder: 'Ana Relay' });

      // The covered shift: Dan holds it for Ben, Cal takes over after; no entries are left.
      await at('2026-11-10T12:00:00Z');
      expect(await agreed('weekly')).toEqual({
        holder: 'Dan Relay',
        since: '2026-11-09T09:00:00.000Z',
        next: ['Cal Relay', '2026-11-16T09:00:00.000Z'],
        suspended: false,
      });
      expect((await oncall(weekly.id)).source).toBe('coverage');
      expect(await agreed('shifts')).toEqual({
        holder: null,
        since: null,
        next: null,
        suspended: false,
      });
      expect(await agreed('paused')).toMatchObject({ holder: null, suspended: true });
    } finally {
      t.clock.set(start);
    }
  });

  test('who <rotation> in a gap: everyone is away until when, and who keeps the baton', async () => {
    const start = t.clock.now();
    const hal = await t.createUser({ name: 'Hal Alone' });
    const engineAt = async (instant: Date) => {
      t.clock.set(instant);
      await runEngineTick(
        { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock },
        instant,
      );
    };
    try {
      const lone = await insertRotation(t.database.db, {
        name: 'Lone desk',
        memberIds: [hal.id],
        holderId: hal.id,
        holderSince: new Date(start.getTime() - 86_400_000),
        now: start,
      });
      // Away for two weeks from within the next turn: that turn is a gap (decision 217).
      const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, lone.id));
      const boundary = (row.nextHandoffAt as Date).getTime();
      const away = await t.app.inject({
        method: 'POST',
        url: `/api/users/${hal.id}/time-off`,
        headers: { cookie: await t.cookieFor(hal) },
        payload: {
          startTime: new Date(boundary + 3_600_000).toISOString(),
          endTime: new Date(boundary + 15 * 86_400_000).toISOString(),
        },
      });
      expect(away.statusCode, away.body).toBe(201);
      const says = async () =>
        (await command(SLACK.noah, 'who lone')).json<{ text: string }>().text;
      const oncall = async () => {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/oncalls?rotationId=${lone.id}`,
          headers: { cookie: await t.cookieFor(people.noah) },
        });
        return (res.json() as OnCalls).oncalls[0] as OnCall;
      };

      // Before the gap: no line about it.
      expect((await oncall()).gap).toBeNull();
      expect(await says()).not.toContain('away');
      await engineAt(new Date(boundary + 2 * 3_600_000));
      const { gap } = await oncall();
      expect(gap).not.toBeNull();
      const lines = (await says()).split('\n');
      expect(lines[0]).toMatch(/^\*Lone desk\*: Hal Alone holds the baton since <!date\^\d+\^/);
      expect(lines[1]).toMatch(
        new RegExp(
          `^Everyone is away until <!date\\^${Date.parse(gap?.end ?? '') / 1000}\\^[^>]*>: the baton stays with Hal Alone\\.$`,
        ),
      );
      expect(lines).toHaveLength(3);
    } finally {
      t.clock.set(start);
    }
  });

  test('help, nothing or anything else: the usage; a stranger: why not', async () => {
    for (const text of ['', 'help', 'dance']) {
      expect((await command(SLACK.noah, text)).json<{ text: string }>().text).toBe(
        SLACK_COMMAND_MESSAGES.usage,
      );
    }
    expect((await command(SLACK.stranger, 'who payments')).json<{ text: string }>().text).toBe(
      SLACK_PEOPLE_MESSAGES.unknown('stranger@elsewhere.test', 'http://localhost:3000'),
    );
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
