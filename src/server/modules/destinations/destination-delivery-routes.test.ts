import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, test, vi } from 'vitest';
import type { DestinationDeliveryList } from '../../../shared/contracts/destinations';
import { destinations, notifications } from '../../db/schema';
import {
  create,
  deliverAll,
  hook,
  people,
  rotation,
  START,
  setUpDestinationSuite,
  slack,
  t,
  teams,
} from './destination-routes.fixtures';

setUpDestinationSuite();

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
