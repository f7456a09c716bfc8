import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { DESTINATION_MESSAGES, type Destination } from '../../../shared/contracts/destinations';
import { auditEvents, destinations } from '../../db/schema';
import { secretCtx, urlCtx } from './chat-channel';
import {
  create,
  hook,
  people,
  rotation,
  setUpDestinationSuite,
  slack,
  t,
  teams,
} from './destination-routes.fixtures';

// Adding, reading, changing and removing destinations, and who may. Delivery is in
// destination-delivery-routes.test.ts, the events beyond handoffs and incidents in
// destination-event-routes.test.ts.
setUpDestinationSuite();

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
