import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { type ChatReceiver, startChatReceiver } from '../../../../tests/setup/chat-receivers';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  DESTINATION_MESSAGES,
  type Destination,
  type DestinationCreated,
  type DestinationDeliveryList,
} from '../../../shared/contracts/destinations';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, destinations, notifications, rotations } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { digestDueOn, postDigests } from '../calendar/digest-task';
import type { Channels } from '../notifications/channels';
import { tellFailingOwners } from '../notifications/destination-failures';
import { deliverDue } from '../notifications/outbox';
import { scheduledRotationsTask } from '../schedules/schedule-task';
import { shiftChangesTask } from '../shift-changes/shift-change-task';
import { createChatChannel, destinationRule, secretCtx, urlCtx } from './chat-channel';

const START = '2026-11-02T12:00:00Z';

let t: TestApp;
let slack: ChatReceiver;
let teams: ChatReceiver;
let hook: ChatReceiver;
let channels: Channels;
const people = {} as Record<
  'manager' | 'otherManager' | 'olivia' | 'noah' | 'admin' | 'outsider',
  User
>;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL: 'https://baton.example.com' } });
  Object.assign(
    people,
    await t.cast({
      manager: {},
      otherManager: {},
      olivia: {},
      noah: {},
      admin: {},
      outsider: {},
    }),
  );
  slack = await startChatReceiver('slack');
  teams = await startChatReceiver('teams');
  hook = await startChatReceiver('webhook');
  channels = {
    chat: createChatChannel({
      db: t.database.db,
      cipher: t.cipher,
      clock: t.clock,
      timeoutMs: 2_000,
      rule: destinationRule(t.config),
      onFailure: async (id, now) => {
        await tellFailingOwners(t.database.db, { cipher: t.cipher }, now, id);
      },
    }),
  };
});
afterAll(async () => {
  await t.close();
  await Promise.all([slack.close(), teams.close(), hook.close()]);
});
beforeEach(async () => {
  await t.database.db.delete(notifications);
  await t.database.db.delete(destinations);
  t.clock.set(START);
  for (const r of [slack, teams, hook]) {
    r.received.length = 0;
    r.failNext = 0;
    r.failing = false;
    r.attempts = 0;
    r.attemptIds.length = 0;
  }
});

/** A loopback receiver answering as `answer` says, counting the requests it got. */
async function startServer(answer: (res: ServerResponse) => void) {
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    req.resume();
    req.on('end', () => answer(res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    get requests() {
      return requests;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A rotation Morgan created, Olivia its holder and Noah its other member. */
async function rotation() {
  return insertRotation(t.database.db, {
    name: `Platform ${Math.random().toString(36).slice(2, 7)}`,
    memberIds: [people.olivia.id, people.noah.id],
    holderId: people.olivia.id,
    createdById: people.manager.id,
    now: t.clock.now(),
  });
}

async function create(user: User, body: Record<string, unknown>): Promise<DestinationCreated> {
  const res = await t.call(user, 'POST', '/api/destinations', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as DestinationCreated;
}

const deps = () => ({
  db: t.database.db,
  cipher: t.cipher,
  channels,
  clock: t.clock,
  random: () => 0.5,
});

/** deliverAll runs the outbox's chat loop until nothing is due now. */
async function deliverAll() {
  for (let i = 0; i < 5; i += 1) {
    const r = await deliverDue(deps(), 50, 'chat');
    if (r.sent + r.failed + r.retrying === 0) return;
  }
}

/**
 * verifyStandardWebhook verifies a delivery with the Standard Webhooks reference implementation
 * (the `standardwebhooks` package's `Webhook.verify`) at `now`, Baton's clock: the package checks
 * the timestamp against `Date.now()`, so only Date is faked, for the one synchronous call.
 */
function verifyStandardWebhook(
  secret: string,
  raw: string,
  headers: Record<string, string | string[] | undefined>,
  now: Date,
): unknown {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now);
  try {
    return new Webhook(secret).verify(raw, headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

describe('POST /api/destinations', () => {
  test('a manager of the rotation adds a Slack destination; its URL is sealed at rest', async () => {
    const r = await rotation();
    const url = `${slack.url}?token=T000-secret-B000`;
    const created = await create(people.manager, {
      kind: 'slack',
      url,
      rotationId: r.id,
      events: ['handoff', 'incident.raised'],
    });
    expect(created).toMatchObject({
      kind: 'slack',
      rotationId: r.id,
      targetName: r.name,
      events: ['handoff', 'incident.raised'],
      failingSince: null,
      canManage: true,
    });
    expect(created.secret).toBeUndefined();
    expect(created.urlHint).toBe(`127.0.0.1:${new URL(slack.url).port} …B000`);
    const [row] = await t.database.db
      .select()
      .from(destinations)
      .where(eq(destinations.id, created.id));
    expect(row.urlEnc).not.toContain('secret');
    expect(row.urlEnc).not.toContain('127.0.0.1');
    expect(t.cipher.decrypt(row.urlEnc, urlCtx(created.id))).toBe(url);
    const [audit] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(created.id)));
    expect(audit.action).toBe('destination.created');
    expect(JSON.stringify(audit.details)).not.toContain('secret-B000');
  });

  test('a webhook’s signing secret is answered once, sealed, and never again', async () => {
    const r = await rotation();
    const created = await create(people.admin, {
      kind: 'webhook',
      url: hook.url,
      rotationId: r.id,
      events: ['handoff'],
    });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from((created.secret as string).slice(6), 'base64')).toHaveLength(32);
    const [row] = await t.database.db
      .select()
      .from(destinations)
      .where(eq(destinations.id, created.id));
    expect(row.secretEnc).not.toContain((created.secret as string).slice(6, 20));
    expect(t.cipher.decrypt(row.secretEnc as string, secretCtx(created.id))).toBe(created.secret);
    const again = await t.call(people.admin, 'GET', `/api/destinations/${created.id}`);
    expect(again.statusCode).toBe(200);
    expect(again.body).not.toContain('whsec_');
    const listed = await t.call(people.admin, 'GET', `/api/destinations?rotationId=${r.id}`);
    expect(listed.body).not.toContain('whsec_');
  });

  test.each([
    ['an unknown kind', { kind: 'irc' }, DESTINATION_MESSAGES.kind],
    ['no URL', { url: undefined }, DESTINATION_MESSAGES.urlRequired],
    ['a URL that is not one', { url: 'not a url' }, DESTINATION_MESSAGES.urlInvalid],
    ['an ftp URL', { url: 'ftp://example.com/hook' }, DESTINATION_MESSAGES.urlInvalid],
    [
      'plain http to a remote host',
      { url: 'http://example.com/hook' },
      DESTINATION_MESSAGES.urlHttps,
    ],
    ['no events', { events: [] }, DESTINATION_MESSAGES.eventsRequired],
    ['an unknown event', { events: ['handoff', 'birthday'] }, DESTINATION_MESSAGES.eventUnknown],
    ['a digest without its time', { events: ['digest'] }, DESTINATION_MESSAGES.digestTime],
    [
      'a digest time that is not HH:MM',
      { events: ['digest'], digestTime: '9am', digestTimeZone: 'Europe/London' },
      DESTINATION_MESSAGES.digestTimeFormat,
    ],
    [
      'an unknown digest zone',
      { events: ['digest'], digestTime: '09:00', digestTimeZone: 'Mars/Olympus' },
      DESTINATION_MESSAGES.timeZone,
    ],
    [
      'a webhook with the digest',
      { kind: 'webhook', events: ['digest'], digestTime: '09:00', digestTimeZone: 'UTC' },
      DESTINATION_MESSAGES.digestOnlyChat,
    ],
    ['nothing it belongs to', { rotationId: undefined }, DESTINATION_MESSAGES.where],
    ['two things it belongs to', { escalationPolicyId: 1 }, DESTINATION_MESSAGES.onlyOne],
  ])('%s answers 400 with its message', async (_name, change, message) => {
    const r = await rotation();
    const body = {
      kind: 'slack',
      url: 'https://hooks.slack.com/services/T/B/x',
      rotationId: r.id,
      events: ['handoff'],
      ...change,
    };
    const res = await t.call(people.manager, 'POST', '/api/destinations', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
  });

  test('a self-hosted Slack-compatible URL (Mattermost) is accepted for kind slack', async () => {
    const r = await rotation();
    const created = await create(people.manager, {
      kind: 'slack',
      url: 'https://chat.example.org/hooks/abc123xyz',
      rotationId: r.id,
      events: ['digest'],
      digestTime: '09:00',
      digestTimeZone: 'Europe/London',
    });
    expect(created).toMatchObject({ digestTime: '09:00', digestTimeZone: 'Europe/London' });
  });

  test('outside production a loopback receiver is accepted; a private or metadata address is not', async () => {
    const r = await rotation();
    const body = { kind: 'webhook', rotationId: r.id, events: ['handoff'] };
    expect(
      (await t.call(people.manager, 'POST', '/api/destinations', { ...body, url: hook.url }))
        .statusCode,
    ).toBe(201);
    for (const [url, range] of [
      ['https://10.0.0.5/hook', 'private'],
      ['https://192.168.1.20/hook', 'private'],
      ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ]) {
      const res = await t.call(people.manager, 'POST', '/api/destinations', { ...body, url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().fields.url).toBe(
        `The webhook URL points to a ${range} address inside the network. ${DESTINATION_MESSAGES.urlInsideNetwork}`,
      );
    }
  });

  test('who may: managers of the rotation and administrators; others are refused', async () => {
    const r = await rotation();
    const body = { kind: 'teams', url: teams.url, rotationId: r.id, events: ['handoff'] };
    expect((await t.call(null, 'POST', '/api/destinations', body)).statusCode).toBe(401);
    const member = await t.call(people.olivia, 'POST', '/api/destinations', body);
    expect(member.statusCode).toBe(403);
    expect(member.json().message).toBe(DESTINATION_MESSAGES.mayNotManage);
    expect((await t.call(people.otherManager, 'POST', '/api/destinations', body)).statusCode).toBe(
      403,
    );
    const missing = await t.call(people.admin, 'POST', '/api/destinations', {
      ...body,
      rotationId: 999_999,
    });
    expect(missing.statusCode).toBe(404);
    const made = await create(people.admin, body);
    // Reading: members of the rotation and managers; not an on-call person outside it.
    expect((await t.call(people.noah, 'GET', `/api/destinations/${made.id}`)).statusCode).toBe(200);
    expect(
      (await t.call(people.noah, 'GET', `/api/destinations/${made.id}`)).json().canManage,
    ).toBe(false);
    expect((await t.call(people.outsider, 'GET', `/api/destinations/${made.id}`)).statusCode).toBe(
      403,
    );
    const outsiderList = await t.call(people.outsider, 'GET', '/api/destinations');
    expect(outsiderList.json().destinations).toEqual([]);
    expect(
      (
        await t.call(people.otherManager, 'PATCH', `/api/destinations/${made.id}`, {
          events: ['cover'],
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await t.call(people.otherManager, 'DELETE', `/api/destinations/${made.id}`)).statusCode,
    ).toBe(403);
    expect(
      (await t.call(people.otherManager, 'POST', `/api/destinations/${made.id}/test`)).statusCode,
    ).toBe(403);
  });

  test('PATCH changes the events and the URL; DELETE removes it', async () => {
    const r = await rotation();
    const made = await create(people.manager, {
      kind: 'discord',
      url: 'https://discord.com/api/webhooks/1/abc/slack',
      rotationId: r.id,
      events: ['handoff'],
    });
    const bad = await t.call(people.manager, 'PATCH', `/api/destinations/${made.id}`, {
      events: ['digest'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain(DESTINATION_MESSAGES.digestTime);
    const res = await t.call(people.manager, 'PATCH', `/api/destinations/${made.id}`, {
      events: ['cover', 'incident.resolved'],
      url: 'https://discord.com/api/webhooks/2/def/slack',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as Destination).events).toEqual(['cover', 'incident.resolved']);
    expect((res.json() as Destination).urlHint).toBe('discord.com …lack');
    expect(
      (await t.call(people.manager, 'PATCH', `/api/destinations/${made.id}`, {})).statusCode,
    ).toBe(400);
    expect(
      (await t.call(people.manager, 'DELETE', `/api/destinations/${made.id}`)).statusCode,
    ).toBe(204);
    expect((await t.call(people.manager, 'GET', `/api/destinations/${made.id}`)).statusCode).toBe(
      404,
    );
  });

  test('a policy’s and an integration’s destinations follow who manages them', async () => {
    const r = await rotation();
    const policy = await t.call(people.manager, 'POST', '/api/destinations', {
      kind: 'slack',
      url: slack.url,
      escalationPolicyId: r.escalationPolicyId,
      events: ['incident.raised'],
    });
    expect(policy.statusCode, policy.body).toBe(201);
    expect(
      (
        await t.call(people.otherManager, 'POST', '/api/destinations', {
          kind: 'slack',
          url: slack.url,
          escalationPolicyId: r.escalationPolicyId,
          events: ['incident.raised'],
        })
      ).statusCode,
    ).toBe(403);
    const integration = await t.call(people.manager, 'POST', '/api/integrations', {
      name: 'Grafana',
      rotationId: r.id,
    });
    expect(integration.statusCode, integration.body).toBe(201);
    const made = await create(people.manager, {
      kind: 'webhook',
      url: hook.url,
      integrationId: integration.json().id,
      events: ['incident.raised'],
    });
    expect(made).toMatchObject({ integrationId: integration.json().id, targetName: 'Grafana' });
    expect(
      (
        await t.call(people.otherManager, 'POST', '/api/destinations', {
          kind: 'webhook',
          url: hook.url,
          integrationId: integration.json().id,
          events: ['incident.raised'],
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('delivery through the outbox', () => {
  async function threeDestinations() {
    const r = await rotation();
    const events = ['handoff', 'incident.raised', 'incident.acknowledged', 'incident.resolved'];
    const s = await create(people.manager, {
      kind: 'slack',
      url: slack.url,
      rotationId: r.id,
      events,
    });
    const m = await create(people.manager, {
      kind: 'teams',
      url: teams.url,
      rotationId: r.id,
      events,
    });
    const w = await create(people.manager, {
      kind: 'webhook',
      url: hook.url,
      rotationId: r.id,
      events,
    });
    return { r, s, m, w };
  }

  test('a handoff reaches a Slack, a Teams and a webhook receiver exactly once each', async () => {
    const { r, w } = await threeDestinations();
    const res = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
      notes: 'Queue lag <high> & rising',
    });
    expect(res.statusCode, res.body).toBe(200);
    await deliverAll();
    await deliverAll();
    expect(slack.received).toHaveLength(1);
    expect(teams.received).toHaveLength(1);
    expect(hook.received).toHaveLength(1);

    const slackBody = slack.received[0].body as { text: string; blocks: Record<string, unknown>[] };
    expect(slackBody.text).toBe(`Noah Nakamura is now on call for ${r.name}`);
    expect(JSON.stringify(slackBody.blocks)).toContain('Queue lag &lt;high&gt; &amp; rising');
    const actions = slackBody.blocks.find((b) => b.type === 'actions') as {
      block_id: string;
      elements: { action_id: string; value: string }[];
    };
    expect(actions.block_id).toBe('baton-actions');
    expect(actions.elements).toEqual([
      expect.objectContaining({ action_id: 'handoff.acknowledge', value: String(r.id) }),
    ]);

    const teamsBody = teams.received[0].body as {
      type: string;
      attachments: { contentType: string; contentUrl: null; content: Record<string, unknown> }[];
    };
    expect(teamsBody.type).toBe('message');
    expect(teamsBody.attachments).toHaveLength(1);
    expect(teamsBody.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(teamsBody.attachments[0].contentUrl).toBeNull();
    expect(teamsBody.attachments[0].content).toMatchObject({
      type: 'AdaptiveCard',
      version: '1.4',
    });
    expect(JSON.stringify(teamsBody.attachments[0].content)).toContain('Queue lag <high> & rising');

    const received = hook.received[0];
    const event = verifyStandardWebhook(
      w.secret as string,
      received.raw,
      received.headers,
      t.clock.now(),
    ) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(event).toMatchObject({
      type: 'handoff',
      timestamp: START.replace('Z', '.000Z'),
      data: { to: 'Noah Nakamura', from: 'Olivia Ortiz', notes: 'Queue lag <high> & rising' },
    });
    expect(received.headers['webhook-id']).toMatch(/^msg_/);
    expect(received.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    // A wrong secret does not verify.
    expect(() =>
      verifyStandardWebhook(
        `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
        received.raw,
        received.headers,
        t.clock.now(),
      ),
    ).toThrow('No matching signature');
  });

  test('an incident raised, acknowledged and resolved: one message each, with Slack’s buttons', async () => {
    const { r } = await threeDestinations();
    const raised = await t.call(people.manager, 'POST', '/api/incidents', {
      title: 'Checkout errors',
      severity: 'P1',
      rotationId: r.id,
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const incidentId = raised.json().id as number;
    await deliverAll();
    expect(
      (await t.call(people.olivia, 'POST', `/api/incidents/${incidentId}/acknowledge`)).statusCode,
    ).toBe(200);
    await deliverAll();
    expect(
      (await t.call(people.olivia, 'POST', `/api/incidents/${incidentId}/resolve`)).statusCode,
    ).toBe(200);
    await deliverAll();
    for (const receiver of [slack, teams, hook]) expect(receiver.received).toHaveLength(3);
    expect(hook.received.map((m) => (m.body as { type: string }).type)).toEqual([
      'incident.raised',
      'incident.acknowledged',
      'incident.resolved',
    ]);
    const first = slack.received[0].body as { blocks: Record<string, unknown>[] };
    const actions = first.blocks.find((b) => b.type === 'actions') as {
      block_id: string;
      elements: { action_id: string; value: string }[];
    };
    expect(actions.block_id).toBe('baton-actions');
    expect(actions.elements.map((e) => [e.action_id, e.value])).toEqual([
      ['incident.acknowledge', String(incidentId)],
      ['incident.resolve', String(incidentId)],
      // The step its message showed (decision 236): a replayed click moves it no further.
      ['incident.escalate', `${incidentId}:1`],
    ]);
    expect((hook.received[1].body as { data: { by: string } }).data.by).toBe('Olivia Ortiz');
  });

  test('a receiver failing for a while gets each message once, when it recovers, with the same id', async () => {
    const { r } = await threeDestinations();
    slack.failNext = 2;
    teams.failNext = 2;
    hook.failNext = 2;
    hook.failStatus = 503;
    await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
    });
    await deliverAll();
    expect(hook.received).toHaveLength(0);
    const [failing] = await t.database.db
      .select()
      .from(destinations)
      .where(eq(destinations.kind, 'webhook'));
    expect(failing.failingSince?.toISOString()).toBe(new Date(START).toISOString());
    for (let i = 0; i < 4; i += 1) {
      t.clock.advance(5 * 60_000);
      await deliverAll();
    }
    expect(slack.received).toHaveLength(1);
    expect(teams.received).toHaveLength(1);
    expect(hook.received).toHaveLength(1);
    expect(hook.attempts).toBe(3);
    expect(new Set(hook.attemptIds).size).toBe(1);
    expect(hook.attemptIds[0]).toBe(hook.received[0].headers['webhook-id']);
    const [recovered] = await t.database.db
      .select()
      .from(destinations)
      .where(eq(destinations.kind, 'webhook'));
    expect(recovered.failingSince).toBeNull();
    expect(recovered.lastDeliveredAt).not.toBeNull();
  });

  test('4xx other than 408 and 429 is refused for good; 429 is retried', async () => {
    const { r, w } = await threeDestinations();
    hook.failNext = 1;
    hook.failStatus = 410;
    slack.failNext = 1;
    slack.failStatus = 429;
    await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
    });
    await deliverAll();
    t.clock.advance(5 * 60_000);
    await deliverAll();
    expect(hook.received).toHaveLength(0);
    expect(hook.attempts).toBe(1);
    expect(slack.received).toHaveLength(1);
    const log = await t.call(people.manager, 'GET', `/api/destinations/${w.id}/deliveries`);
    const deliveries = (log.json() as DestinationDeliveryList).deliveries;
    expect(deliveries).toEqual([
      expect.objectContaining({
        event: 'handoff',
        status: 'failed',
        lastError: 'The destination answered 410',
      }),
    ]);
  });

  test('a receiver’s answer is never kept: only its status, in Baton’s words', async () => {
    // An internal service answers what it knows: the delivery log once showed its first 500 characters.
    const secret = 'db_password=hunter2 vault_token=s.9f8e7d';
    const statuses = [200, 500, 410];
    const talkative = await startServer((res) => {
      res.writeHead(statuses.shift() ?? 500, { 'content-type': 'text/plain' }).end(secret);
    });
    try {
      const r = await rotation();
      const made = await create(people.manager, {
        kind: 'webhook',
        url: talkative.url,
        rotationId: r.id,
        events: ['handoff'],
      });
      await t.call(people.manager, 'POST', `/api/destinations/${made.id}/test`);
      await deliverAll();
      await t.call(people.manager, 'POST', `/api/destinations/${made.id}/test`);
      await deliverAll();
      t.clock.advance(5 * 60_000);
      await deliverAll();
      expect(talkative.requests).toBe(3);

      const log = await t.call(people.noah, 'GET', `/api/destinations/${made.id}/deliveries`);
      expect(log.statusCode).toBe(200);
      expect(log.body).not.toMatch(/hunter2|vault_token|db_password/);
      expect((log.json() as DestinationDeliveryList).deliveries).toEqual([
        expect.objectContaining({
          status: 'failed',
          attempts: 2,
          lastError: 'The destination answered 410',
          response: null,
        }),
        expect.objectContaining({ status: 'sent', lastError: null, response: 'HTTP 200' }),
      ]);
      const outbox = await t.call(people.admin, 'GET', '/api/admin/notifications');
      expect(outbox.statusCode).toBe(200);
      expect(outbox.body).not.toMatch(/hunter2|vault_token|db_password/);
      const rows = await t.database.db.select().from(notifications);
      expect(JSON.stringify(rows)).not.toMatch(/hunter2|vault_token|db_password/);
    } finally {
      await talkative.close();
    }
  });

  test('a redirect is not followed: the delivery fails for good and the target hears nothing', async () => {
    const target = await startServer((res) => res.writeHead(200).end('ok'));
    const redirecting = await startServer((res) => {
      res.writeHead(307, { location: target.url }).end();
    });
    try {
      const r = await rotation();
      const made = await create(people.manager, {
        kind: 'slack',
        url: redirecting.url,
        rotationId: r.id,
        events: ['handoff'],
      });
      await t.call(people.manager, 'POST', `/api/destinations/${made.id}/test`);
      await deliverAll();
      t.clock.advance(5 * 60_000);
      await deliverAll();
      expect(redirecting.requests).toBe(1);
      expect(target.requests).toBe(0);
      const log = await t.call(people.manager, 'GET', `/api/destinations/${made.id}/deliveries`);
      expect((log.json() as DestinationDeliveryList).deliveries).toEqual([
        expect.objectContaining({
          status: 'failed',
          attempts: 1,
          lastError: 'The destination answered 307: redirect not followed',
        }),
      ]);
    } finally {
      await Promise.all([target.close(), redirecting.close()]);
    }
  });

  test('"send test event" goes through the outbox and shows in the delivery log, newest first', async () => {
    const { w } = await threeDestinations();
    const first = await t.call(people.manager, 'POST', `/api/destinations/${w.id}/test`);
    expect(first.statusCode, first.body).toBe(202);
    t.clock.advance(1000);
    const second = await t.call(people.manager, 'POST', `/api/destinations/${w.id}/test`);
    await deliverAll();
    expect(hook.received).toHaveLength(2);
    expect((hook.received[0].body as { type: string }).type).toBe('test');
    const log = await t.call(people.noah, 'GET', `/api/destinations/${w.id}/deliveries`);
    expect(log.statusCode).toBe(200);
    const deliveries = (log.json() as DestinationDeliveryList).deliveries;
    expect(deliveries.map((d) => d.id)).toEqual([
      second.json().deliveryId,
      first.json().deliveryId,
    ]);
    expect(deliveries.every((d) => d.status === 'sent' && d.attempts === 1)).toBe(true);
    expect(
      (await t.call(people.outsider, 'GET', `/api/destinations/${w.id}/deliveries`)).statusCode,
    ).toBe(403);
  });

  test('failing for an hour marks it failing and tells the rotation’s managers once', async () => {
    const r = await rotation();
    const made = await create(people.manager, {
      kind: 'slack',
      url: slack.url,
      rotationId: r.id,
      events: ['handoff'],
    });
    slack.failing = true;
    await t.call(people.manager, 'POST', `/api/destinations/${made.id}/test`);
    await deliverAll();
    const told = () =>
      t.database.db
        .select()
        .from(notifications)
        .where(eq(notifications.kind, 'destination.failing'));
    expect(await told()).toHaveLength(0);
    for (let i = 0; i < 8; i += 1) {
      t.clock.advance(15 * 60_000);
      await t.call(people.manager, 'POST', `/api/destinations/${made.id}/test`);
      await deliverAll();
    }
    const screen = await t.call(people.manager, 'GET', `/api/destinations/${made.id}`);
    expect(screen.json().failingSince).toBe(new Date(START).toISOString());
    const notices = await told();
    expect(notices.map((n) => n.userId)).toEqual([people.manager.id]);
    // Recovery clears it; a new run of failures tells again.
    slack.failing = false;
    t.clock.advance(2 * 60 * 60_000);
    await deliverAll();
    const cleared = await t.call(people.manager, 'GET', `/api/destinations/${made.id}`);
    expect(cleared.json().failingSince).toBeNull();
    expect(await told()).toHaveLength(1);
  });
});

describe('time off, shifts moved and the daily digest', () => {
  const engineDeps = () => ({
    config: t.config,
    database: t.database,
    cipher: t.cipher,
    clock: t.clock,
  });

  test('time off is posted once to each of the person’s rotations that want it', async () => {
    const r = await rotation();
    await create(people.manager, {
      kind: 'webhook',
      url: hook.url,
      rotationId: r.id,
      events: ['time-off'],
    });
    await create(people.manager, {
      kind: 'slack',
      url: slack.url,
      rotationId: r.id,
      events: ['handoff'],
    });
    const res = await t.call(people.noah, 'POST', `/api/users/${people.noah.id}/time-off`, {
      startTime: '2026-11-20T09:00:00Z',
      endTime: '2026-11-27T09:00:00Z',
    });
    expect(res.statusCode, res.body).toBe(201);
    await deliverAll();
    expect(slack.received).toHaveLength(0);
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].body).toMatchObject({
      type: 'time-off',
      data: {
        person: 'Noah Nakamura',
        rotation: { id: r.id },
        startAt: '2026-11-20T09:00:00.000Z',
      },
    });
  });

  test('shifts moved by an edit are posted once, when the change is told', async () => {
    const r = await rotation();
    await create(people.manager, {
      kind: 'webhook',
      url: hook.url,
      rotationId: r.id,
      events: ['shift-moved'],
    });
    const res = await t.call(people.manager, 'PATCH', `/api/rotations/${r.id}`, {
      handoffTime: '13:00',
    });
    expect(res.statusCode, res.body).toBe(200);
    t.clock.advance(3 * 60_000);
    await shiftChangesTask(engineDeps(), t.clock.now());
    await shiftChangesTask(engineDeps(), t.clock.now());
    await deliverAll();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].body).toMatchObject({
      type: 'shift-moved',
      data: { rotation: { id: r.id } },
    });
  });

  test('the digest goes at its local time, once per local day', async () => {
    const r = await rotation();
    await create(people.manager, {
      kind: 'slack',
      url: slack.url,
      rotationId: r.id,
      events: ['digest'],
      digestTime: '09:00',
      digestTimeZone: 'America/New_York',
    });
    // 12:00 UTC is 07:00 in New York: not yet.
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    expect(slack.received).toHaveLength(0);
    t.clock.set('2026-11-02T14:05:00Z'); // 09:05 in New York
    await postDigests(engineDeps(), t.clock.now());
    t.clock.set('2026-11-02T14:35:00Z');
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    expect(slack.received).toHaveLength(1);
    const body = slack.received[0].body as { text: string; blocks: unknown[] };
    expect(body.text).toBe(`On call today and this week: ${r.name}`);
    expect(JSON.stringify(body.blocks)).toContain('Olivia Ortiz');
    t.clock.set('2026-11-03T14:01:00Z'); // the next day
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    expect(slack.received).toHaveLength(2);
  });

  test('a policy’s and an integration’s destinations get the digest of each rotation that follows the policy', async () => {
    const first = await rotation();
    const second = await rotation();
    // Both rotations follow the first one's policy.
    await t.database.db
      .update(rotations)
      .set({ escalationPolicyId: first.escalationPolicyId })
      .where(eq(rotations.id, second.id));
    const integration = await t.call(people.manager, 'POST', '/api/integrations', {
      name: 'Grafana',
      escalationPolicyId: first.escalationPolicyId,
    });
    expect(integration.statusCode, integration.body).toBe(201);
    const digest = { kind: 'slack', url: slack.url, events: ['digest'], digestTime: '09:00' };
    await create(people.manager, {
      ...digest,
      escalationPolicyId: first.escalationPolicyId,
      digestTimeZone: 'UTC',
    });
    await create(people.manager, {
      ...digest,
      integrationId: integration.json().id,
      digestTimeZone: 'UTC',
    });
    t.clock.set('2026-11-05T09:10:00Z');
    await postDigests(engineDeps(), t.clock.now());
    t.clock.set('2026-11-05T09:40:00Z');
    await postDigests(engineDeps(), t.clock.now());
    await deliverAll();
    const texts = slack.received.map((m) => (m.body as { text: string }).text).sort();
    expect(texts).toEqual(
      [first.name, first.name, second.name, second.name]
        .map((name) => `On call today and this week: ${name}`)
        .sort(),
    );
  });
});

test.each([
  ['2026-11-02T14:00:00Z', 'America/New_York', '09:00', '2026-11-02'],
  ['2026-11-02T13:59:00Z', 'America/New_York', '09:00', null],
  ['2026-11-02T15:00:00Z', 'America/New_York', '09:00', null],
  // The day Europe/London leaves summer time: 09:00 local is 09:00 UTC.
  ['2026-10-25T09:30:00Z', 'Europe/London', '09:00', '2026-10-25'],
  ['2026-10-26T23:30:00Z', 'Asia/Tokyo', '08:00', '2026-10-27'],
])('digestDueOn(%s, %s, %s) is %s', (now, zone, time, expected) => {
  expect(digestDueOn(new Date(now), zone, time)).toBe(expected);
});

test('a scheduled rotation’s handoff by the engine is posted once', async () => {
  const r = await insertRotation(t.database.db, {
    name: `Scheduled ${Math.random().toString(36).slice(2, 7)}`,
    type: 'scheduled',
    memberIds: [people.olivia.id, people.noah.id],
    createdById: people.manager.id,
    now: t.clock.now(),
  });
  await t.database.db.update(rotations).set({ nextHandoffAt: null }).where(eq(rotations.id, r.id));
  await create(people.manager, {
    kind: 'webhook',
    url: hook.url,
    rotationId: r.id,
    events: ['handoff'],
  });
  const add = await t.call(people.admin, 'POST', `/api/rotations/${r.id}/schedules`, {
    userId: people.noah.id,
    startTime: '2026-11-02T13:00:00Z',
    endTime: '2026-11-02T17:00:00Z',
  });
  expect(add.statusCode, add.body).toBe(201);
  const engine = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
  t.clock.set('2026-11-02T13:00:00Z');
  await scheduledRotationsTask(engine, t.clock.now());
  await scheduledRotationsTask(engine, t.clock.now());
  await deliverAll();
  expect(hook.received).toHaveLength(1);
  expect(hook.received[0].body).toMatchObject({
    type: 'handoff',
    data: { to: 'Noah Nakamura', how: 'scheduled', rotation: { id: r.id } },
  });
});

test('an incident escalated by hand is posted once to its policy’s destination, naming whom it pages', async () => {
  const r = await rotation();
  await create(people.manager, {
    kind: 'webhook',
    url: hook.url,
    escalationPolicyId: r.escalationPolicyId,
    events: ['incident.escalated'],
  });
  const raised = await t.call(people.manager, 'POST', '/api/incidents', {
    title: 'Queue stuck',
    rotationId: r.id,
  });
  expect(raised.statusCode, raised.body).toBe(201);
  const id = raised.json().id as number;
  const escalated = await t.call(people.manager, 'POST', `/api/incidents/${id}/escalate`, {
    reason: 'Olivia is on a plane',
  });
  expect(escalated.statusCode, escalated.body).toBe(200);
  await deliverAll();
  expect(hook.received.map((m) => (m.body as { type: string }).type)).toEqual([
    'incident.escalated',
  ]);
  expect(hook.received[0].body).toMatchObject({ data: { incident: { id, title: 'Queue stuck' } } });
});
