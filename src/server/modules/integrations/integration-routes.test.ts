import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { type Incident, IncidentSchema } from '../../../shared/contracts/incidents';
import {
  type AlertList,
  INTEGRATION_MESSAGES,
  type Integration,
  type IntegrationList,
  type IntegrationWithKey,
  type TestAlertResult,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import { allocateIds } from '../../db/ids';
import {
  alerts,
  auditEvents,
  escalationPolicies,
  type IncidentPolicyCopy,
  integrations,
  pages,
  rotations,
} from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { insertPolicyRow } from '../escalation-policies/escalation-policy-repository';
import { pageMessageCtx } from '../incidents/incident-text';
import { findIntegrationByKey, hashIntegrationKey } from './integration-keys';
import { signingSecretCtx } from './integration-service';

const START = '2026-11-02T12:00:00Z';

let t: TestApp;
let counting = false;
let statements = 0;

const people = {} as Record<
  'manager' | 'otherManager' | 'olivia' | 'noah' | 'iris' | 'admin' | 'outsider',
  User
>;

beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_URL: 'https://baton.example.com', INBOUND_SMTP_PORT: '2525' },
    db: {
      onQuery: () => {
        if (counting) statements += 1;
      },
    },
  });
  Object.assign(
    people,
    await t.cast({
      manager: {},
      otherManager: {},
      olivia: {},
      noah: {},
      iris: {},
      admin: {},
      outsider: {},
    }),
  );
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(integrations);
  await t.database.db.delete(pages);
  t.clock.set(START);
});

const suffix = () => Math.random().toString(36).slice(2, 7);

/** A rotation Morgan created, Olivia its holder and Noah its other member. */
async function rotation(name = `Platform ${suffix()}`) {
  return insertRotation(t.database.db, {
    name,
    memberIds: [people.olivia.id, people.noah.id],
    holderId: people.olivia.id,
    createdById: people.manager.id,
    now: t.clock.now(),
  });
}

async function create(user: User, body: Record<string, unknown>): Promise<IntegrationWithKey> {
  const res = await t.call(user, 'POST', '/api/integrations', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as IntegrationWithKey;
}

async function list(user: User, query = ''): Promise<Integration[]> {
  const res = await t.call(user, 'GET', `/api/integrations${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as IntegrationList).integrations;
}

const policyCopy = (rotationId: number): IncidentPolicyCopy => ({
  name: 'Default',
  repeat: 0,
  steps: [
    {
      delayMinutes: 5,
      targets: [{ type: 'rotation-holder', id: rotationId }],
      assignment: 'everyone',
      activeHours: null,
    },
  ],
});

/** insertIncident writes an incident an integration raised, as the intake does. */
async function insertIncident(
  rotationId: number,
  integrationId: number | null,
  seed: { status?: string; storm?: boolean } = {},
) {
  const db = t.database.db;
  const [id] = await allocateIds(db, 'pages');
  await db.insert(pages).values({
    id,
    rotationId,
    pagedById: null,
    messageEnc: t.cipher.encrypt('Disk full on db-1', pageMessageCtx(id)),
    status: seed.status ?? 'triggered',
    severity: 'P2',
    urgency: 'high',
    policy: policyCopy(rotationId),
    integrationId,
    storm: seed.storm ?? false,
  });
  return id;
}

/** insertAlert writes an alert as the intake does: its envelope and payload sealed to its id. */
async function insertAlert(
  integrationId: number,
  seed: { pageId?: number | null; summary?: string; payload?: string; at?: Date } = {},
) {
  const db = t.database.db;
  const [id] = await allocateIds(db, 'alerts');
  const at = seed.at ?? t.clock.now();
  const event = {
    summary: seed.summary ?? `Alert ${id}`,
    source: 'prometheus',
    details: [{ section: 'Labels', label: 'instance', value: 'db-1:9100' }],
    links: [{ href: 'https://grafana.example.com/d/1', text: 'Dashboard' }],
  };
  await db.insert(alerts).values({
    id,
    integrationId,
    pageId: seed.pageId ?? null,
    format: 'alertmanager',
    action: 'trigger',
    outcome: seed.pageId ? 'raised' : 'ignored',
    dedupKeyHash: hashIntegrationKey(`dedup-${id}`),
    eventHash: hashIntegrationKey(`event-${id}`),
    severity: 'P2',
    eventEnc: t.cipher.encrypt(JSON.stringify(event), {
      table: 'alerts',
      column: 'event',
      rowId: id,
    }),
    payloadEnc: t.cipher.encrypt(seed.payload ?? `{"alert":${id}}`, {
      table: 'alerts',
      column: 'payload',
      rowId: id,
    }),
    receivedAt: at,
    lastSeenAt: at,
  });
  return id;
}

async function auditOf(integrationId: number) {
  return t.database.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.targetType, 'integration'),
        eq(auditEvents.targetId, String(integrationId)),
      ),
    )
    .orderBy(auditEvents.id);
}

describe('create, list, read', () => {
  test('create answers the key once; the list and the read never show it; only its hash is kept', async () => {
    const r = await rotation('Database On-Call');
    const created = await create(people.manager, { name: 'Prometheus', rotationId: r.id });
    expect(created.key).toMatch(/^[0-9a-f]{32}$/);
    expect(created).toMatchObject({
      name: 'Prometheus',
      rotationId: r.id,
      rotationName: 'Database On-Call',
      escalationPolicyId: null,
      escalationPolicyName: null,
      keyHint: created.key.slice(-4),
      grouping: 'group',
      emailDedup: 'subject',
      urgency: 'severity',
      stormLimit: 20,
      rateLimit: 50,
      hasSigningSecret: false,
      createdAt: '2026-11-02T12:00:00.000Z',
      createdBy: { id: people.manager.id, name: 'Morgan Manager' },
      keyRegeneratedAt: null,
      lastUsedAt: null,
      counts: { alerts: 0, incidents: 0, openIncidents: 0 },
      canManage: true,
      endpoints: {
        pagerduty: 'https://baton.example.com/api/alerts/pagerduty/v2/enqueue',
        opsgenie: 'https://baton.example.com/api/alerts/opsgenie/',
        alertmanager: 'https://baton.example.com/api/alerts/alertmanager',
        grafana: 'https://baton.example.com/api/alerts/grafana',
        generic: 'https://baton.example.com/api/alerts/generic',
        emailDomain: 'baton.example.com',
        emailPort: 2525,
      },
    });

    const [listed] = await list(people.manager);
    expect(listed).not.toHaveProperty('key');
    const { key, ...shown } = created;
    expect(listed).toEqual(shown);
    const read = await t.call(people.manager, 'GET', `/api/integrations/${created.id}`);
    expect(read.json()).toEqual(shown);
    for (const body of [JSON.stringify(listed), read.body]) expect(body).not.toContain(key);

    const [row] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, created.id));
    expect(row.keyHash).toBe(hashIntegrationKey(key));
    expect(row.keyHash).not.toContain(key);
    expect((await findIntegrationByKey(t.database.db, key))?.id).toBe(created.id);

    const [event] = await auditOf(created.id);
    expect(event).toMatchObject({
      action: 'integration.created',
      actorUserId: people.manager.id,
      details: { name: 'Prometheus', rotationId: r.id, rotationName: 'Database On-Call' },
    });
    expect(JSON.stringify(event.details)).not.toContain(key);
    // The administrative trail names it, in words.
    const trail = await t.call(
      people.admin,
      'GET',
      '/api/audit-log/admin-events?action=integration.created',
    );
    expect(trail.statusCode, trail.body).toBe(200);
    expect(trail.json().events[0]).toMatchObject({
      action: 'integration.created',
      targetType: 'integration',
      target: 'Prometheus',
      actor: { id: people.manager.id, name: 'Morgan Manager' },
    });
  });

  test('the signing secret is sealed to its row, shown only as hasSigningSecret, and cleared by null', async () => {
    const r = await rotation();
    const created = await create(people.admin, {
      name: 'Grafana',
      rotationId: r.id,
      signingSecret: 'grafana-hmac-secret',
      grouping: 'fingerprint',
      urgency: 'high',
      stormLimit: 5,
      rateLimit: 10,
    });
    expect(created).toMatchObject({
      hasSigningSecret: true,
      grouping: 'fingerprint',
      urgency: 'high',
      stormLimit: 5,
      rateLimit: 10,
    });
    const db = t.database.db;
    const sealed = async () =>
      (await db.select().from(integrations).where(eq(integrations.id, created.id)))[0]
        .signingSecretEnc;
    const envelope = await sealed();
    expect(envelope).not.toContain('grafana-hmac-secret');
    expect(t.cipher.decrypt(envelope as string, signingSecretCtx(created.id))).toBe(
      'grafana-hmac-secret',
    );
    // Bound to its row: the same envelope does not open as another integration's.
    expect(() => t.cipher.decrypt(envelope as string, signingSecretCtx(created.id + 1))).toThrow();

    const cleared = await t.call(people.admin, 'PATCH', `/api/integrations/${created.id}`, {
      signingSecret: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json()).toMatchObject({ hasSigningSecret: false });
    expect(await sealed()).toBeNull();
  });

  test('on a policy alone; the list filters by rotation and by policy', async () => {
    const r = await rotation();
    const other = await rotation();
    const policy = await t.database.db.transaction((tx) =>
      insertPolicyRow(
        tx,
        {
          name: `Shared ${suffix()}`,
          repeat: 0,
          steps: [{ delayMinutes: 5, targets: [{ type: 'rotation-holder', id: r.id }] }],
        } as never,
        people.manager.id,
        t.clock.now(),
      ),
    );
    await t.database.db
      .update(rotations)
      .set({ escalationPolicyId: policy.id })
      .where(eq(rotations.id, r.id));
    const onRotation = await create(people.manager, { name: 'A on rotation', rotationId: r.id });
    await create(people.manager, { name: 'B on the other', rotationId: other.id });
    const onPolicy = await create(people.manager, {
      name: 'C on policy',
      escalationPolicyId: policy.id,
    });
    expect(onPolicy).toMatchObject({
      rotationId: null,
      rotationName: null,
      escalationPolicyId: policy.id,
      escalationPolicyName: policy.name,
      canManage: true,
    });
    expect((await list(people.manager)).map((i) => i.name)).toEqual([
      'A on rotation',
      'B on the other',
      'C on policy',
    ]);
    expect((await list(people.manager, `?rotationId=${r.id}`)).map((i) => i.id)).toEqual([
      onRotation.id,
    ]);
    expect(
      (await list(people.manager, `?escalationPolicyId=${policy.id}`)).map((i) => i.id),
    ).toEqual([onPolicy.id]);
  });

  test('counts: alerts, incidents raised and the open ones; incidents show their integration', async () => {
    const r = await rotation();
    const a = await create(people.manager, { name: 'Alertmanager', rotationId: r.id });
    const b = await create(people.manager, { name: 'Grafana', rotationId: r.id });
    const open = await insertIncident(r.id, a.id, { storm: true });
    const acknowledged = await insertIncident(r.id, a.id, { status: 'acknowledged' });
    await insertIncident(r.id, a.id, { status: 'resolved' });
    await insertIncident(r.id, null);
    const minutes = (n: number) => new Date(t.clock.now().getTime() - n * 60_000);
    for (const at of [minutes(3), minutes(1), minutes(2)])
      await insertAlert(a.id, { pageId: open, at });
    await insertAlert(a.id, { pageId: acknowledged });
    await insertAlert(b.id);
    const counts = Object.fromEntries((await list(people.olivia)).map((i) => [i.name, i.counts]));
    expect(counts).toEqual({
      Alertmanager: { alerts: 4, incidents: 3, openIncidents: 2 },
      Grafana: { alerts: 1, incidents: 0, openIncidents: 0 },
    });

    const res = await t.call(people.olivia, 'GET', `/api/incidents/${open}`);
    expect(res.statusCode, res.body).toBe(200);
    const incident = res.json() as Incident;
    expect(IncidentSchema.parse(incident)).toEqual(incident);
    expect(incident).toMatchObject({
      integration: { id: a.id, name: 'Alertmanager' },
      raisedBy: { kind: 'integration', user: null, name: 'Alertmanager' },
      alertCount: 3,
      lastAlertAt: minutes(1).toISOString(),
      storm: true,
    });
    // The incident reads the integration's name now: renamed, it says the new name.
    await t.call(people.manager, 'PATCH', `/api/integrations/${a.id}`, { name: 'Prometheus' });
    const renamed = (await t.call(people.olivia, 'GET', `/api/incidents?limit=10`)).json() as {
      incidents: Incident[];
    };
    expect(renamed.incidents.find((i) => i.id === open)).toMatchObject({
      integration: { id: a.id, name: 'Prometheus' },
      raisedBy: { kind: 'integration', name: 'Prometheus' },
    });
    expect(renamed.incidents.find((i) => i.integration === null)).toMatchObject({
      alertCount: 0,
      lastAlertAt: null,
      storm: false,
    });
  });
});

describe('change, regenerate, delete', () => {
  test('a change records which fields changed; the same values change nothing', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Pingdom', rotationId: r.id });
    const res = await t.call(people.manager, 'PATCH', `/api/integrations/${created.id}`, {
      name: 'Uptime checks',
      urgency: 'low',
      signingSecret: 'a-new-secret',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Uptime checks',
      urgency: 'low',
      hasSigningSecret: true,
      keyHint: created.keyHint,
    });
    expect(res.json()).not.toHaveProperty('key');
    const same = await t.call(people.manager, 'PATCH', `/api/integrations/${created.id}`, {
      name: 'Uptime checks',
      signingSecret: 'a-new-secret',
    });
    expect(same.statusCode).toBe(200);
    const events = await auditOf(created.id);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ['integration.created', expect.objectContaining({ name: 'Pingdom' })],
      [
        'integration.updated',
        { name: 'Uptime checks', fields: ['name', 'urgency', 'signingSecret'] },
      ],
    ]);
    expect(JSON.stringify(events)).not.toContain('a-new-secret');
  });

  test('regenerate: a new key once, the old one opens nothing at once', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'CI', rotationId: r.id });
    t.clock.set('2026-11-02T13:00:00Z');
    const res = await t.call(people.manager, 'POST', `/api/integrations/${created.id}/key`);
    expect(res.statusCode, res.body).toBe(200);
    const renewed = res.json() as IntegrationWithKey;
    expect(renewed.key).toMatch(/^[0-9a-f]{32}$/);
    expect(renewed.key).not.toBe(created.key);
    expect(renewed).toMatchObject({
      id: created.id,
      keyHint: renewed.key.slice(-4),
      keyRegeneratedAt: '2026-11-02T13:00:00.000Z',
    });
    expect(await findIntegrationByKey(t.database.db, created.key)).toBeUndefined();
    expect((await findIntegrationByKey(t.database.db, renewed.key))?.id).toBe(created.id);
    const [, event] = await auditOf(created.id);
    expect(event).toMatchObject({ action: 'integration.key_regenerated', details: { name: 'CI' } });
    expect(JSON.stringify(event.details)).not.toContain(renewed.key);
  });

  test('delete: the key, the alerts and the integration go; its incidents stay without it', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Cron', rotationId: r.id });
    const incidentId = await insertIncident(r.id, created.id);
    await insertAlert(created.id, { pageId: incidentId });
    const res = await t.call(people.manager, 'DELETE', `/api/integrations/${created.id}`);
    expect(res.statusCode, res.body).toBe(204);
    expect(
      (await t.call(people.manager, 'GET', `/api/integrations/${created.id}`)).statusCode,
    ).toBe(404);
    expect(await findIntegrationByKey(t.database.db, created.key)).toBeUndefined();
    const db = t.database.db;
    expect(await db.select().from(alerts).where(eq(alerts.integrationId, created.id))).toEqual([]);
    const [page] = await db.select().from(pages).where(eq(pages.id, incidentId));
    expect(page.integrationId).toBeNull();
    const incident = (await t.call(people.olivia, 'GET', `/api/incidents/${incidentId}`)).json();
    expect(incident).toMatchObject({ integration: null });
    const events = await auditOf(created.id);
    expect(events.at(-1)).toMatchObject({
      action: 'integration.deleted',
      details: { name: 'Cron', rotationId: r.id },
    });
  });
});

describe('validation', () => {
  test.each<[string, Record<string, unknown>, string]>([
    ['no rotation or policy', { name: 'X' }, `rotationId: ${INTEGRATION_MESSAGES.where}`],
    [
      'both a rotation and a policy',
      { name: 'X', rotationId: 1, escalationPolicyId: 1 },
      `escalationPolicyId: ${INTEGRATION_MESSAGES.both}`,
    ],
    ['no name', { rotationId: 1 }, `name: ${INTEGRATION_MESSAGES.nameRequired}`],
    ['a blank name', { name: '   ', rotationId: 1 }, `name: ${INTEGRATION_MESSAGES.nameRequired}`],
    [
      'a long name',
      { name: 'x'.repeat(101), rotationId: 1 },
      `name: ${INTEGRATION_MESSAGES.nameTooLong}`,
    ],
    [
      'a short signing secret',
      { name: 'X', rotationId: 1, signingSecret: 'short' },
      `signingSecret: ${INTEGRATION_MESSAGES.signingSecretLength}`,
    ],
    ['a storm limit of 0', { name: 'X', rotationId: 1, stormLimit: 0 }, 'stormLimit:'],
    ['an unknown grouping', { name: 'X', rotationId: 1, grouping: 'summary' }, 'grouping:'],
  ])('%s: 400, nothing written', async (_label, body, message) => {
    const r = await rotation();
    const res = await t.call(people.admin, 'POST', '/api/integrations', {
      ...body,
      ...(body.rotationId === undefined ? {} : { rotationId: r.id }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
    expect(await t.database.db.select().from(integrations)).toEqual([]);
  });

  test('a change with nothing in it, or a bad value, is 400 and changes nothing', async () => {
    const r = await rotation();
    const created = await create(people.admin, { name: 'Kept', rotationId: r.id });
    for (const body of [{}, { name: '' }, { rateLimit: 10_001 }, { urgency: 'medium' }]) {
      const res = await t.call(people.admin, 'PATCH', `/api/integrations/${created.id}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await list(people.admin))[0]).toMatchObject({ name: 'Kept', rateLimit: 50 });
    expect(await auditOf(created.id)).toHaveLength(1);
  });

  test('a missing rotation or policy is 404; a bad id 400', async () => {
    for (const [body, message] of [
      [{ name: 'X', rotationId: 999_999 }, INTEGRATION_MESSAGES.rotationNotFound],
      [{ name: 'X', escalationPolicyId: 999_999 }, INTEGRATION_MESSAGES.policyNotFound],
    ] as const) {
      const res = await t.call(people.manager, 'POST', '/api/integrations', body);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(message);
    }
    expect((await t.call(people.admin, 'GET', '/api/integrations/abc')).statusCode).toBe(400);
    expect((await t.call(people.admin, 'GET', '/api/integrations?rotationId=x')).statusCode).toBe(
      400,
    );
  });
});

describe('who may', () => {
  test('viewing: managers, incident managers and administrators all; on-call their rotations’', async () => {
    const mine = await rotation();
    const theirs = await insertRotation(t.database.db, {
      name: `Elsewhere ${suffix()}`,
      memberIds: [people.outsider.id],
      createdById: people.otherManager.id,
    });
    const a = await create(people.manager, { name: 'Mine', rotationId: mine.id });
    const b = await create(people.otherManager, { name: 'Theirs', rotationId: theirs.id });
    for (const user of [people.admin, people.manager, people.otherManager, people.iris]) {
      expect((await list(user)).map((i) => i.name)).toEqual(['Mine', 'Theirs']);
      expect((await t.call(user, 'GET', `/api/integrations/${b.id}`)).statusCode).toBe(200);
    }
    expect((await list(people.olivia)).map((i) => i.name)).toEqual(['Mine']);
    expect((await list(people.outsider)).map((i) => i.name)).toEqual(['Theirs']);
    const refused = await t.call(people.olivia, 'GET', `/api/integrations/${b.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(INTEGRATION_MESSAGES.mayNotView);
    expect(
      (await t.call(people.olivia, 'GET', `/api/integrations/${b.id}/alerts`)).statusCode,
    ).toBe(403);
    // 404 before 403: a missing integration is missing to everyone.
    expect((await t.call(people.olivia, 'GET', '/api/integrations/999999')).statusCode).toBe(404);
    expect((await t.call(people.olivia, 'GET', `/api/integrations/${a.id}`)).statusCode).toBe(200);
    // canManage: who may change each one
    const byName = (l: Integration[]) => Object.fromEntries(l.map((i) => [i.name, i.canManage]));
    expect(byName(await list(people.manager))).toEqual({ Mine: true, Theirs: false });
    expect(byName(await list(people.admin))).toEqual({ Mine: true, Theirs: true });
    expect(byName(await list(people.iris))).toEqual({ Mine: false, Theirs: false });
    expect(byName(await list(people.olivia))).toEqual({ Mine: false });
  });

  test('managing: administrators any, managers what they manage, nobody else (404 first)', async () => {
    const mine = await rotation();
    const theirs = await insertRotation(t.database.db, {
      name: `Elsewhere ${suffix()}`,
      memberIds: [people.outsider.id],
      createdById: people.otherManager.id,
    });
    const b = await create(people.otherManager, { name: 'Theirs', rotationId: theirs.id });
    const writes = (id: number) =>
      [
        ['PATCH', `/api/integrations/${id}`, { name: 'Renamed' }],
        ['POST', `/api/integrations/${id}/key`, undefined],
        ['DELETE', `/api/integrations/${id}`, undefined],
      ] as const;
    for (const user of [people.manager, people.olivia, people.iris]) {
      for (const [method, url, body] of writes(b.id)) {
        const res = await t.call(user, method, url, body);
        expect(res.statusCode, `${user.name} ${method} ${url}`).toBe(403);
        expect(res.json().message).toBe(INTEGRATION_MESSAGES.mayNotManage);
      }
      const made = await t.call(user, 'POST', '/api/integrations', {
        name: 'Not theirs',
        rotationId: theirs.id,
      });
      expect(made.statusCode).toBe(403);
      expect(made.json().message).toBe(INTEGRATION_MESSAGES.mayNotManage);
    }
    // A manager on a missing integration: 404, not 403.
    for (const [method, url, body] of writes(999_999)) {
      expect((await t.call(people.manager, method, url, body)).statusCode).toBe(404);
    }
    // On-call members and incident managers are refused before anything is looked up.
    expect(
      (await t.call(people.olivia, 'POST', '/api/integrations', { name: 'X' })).statusCode,
    ).toBe(403);
    expect(await auditOf(b.id)).toHaveLength(1);
    // The other manager manages theirs; the administrator manages any; Morgan manages his own.
    expect(
      (await t.call(people.otherManager, 'PATCH', `/api/integrations/${b.id}`, { name: 'Hers' }))
        .statusCode,
    ).toBe(200);
    expect((await t.call(people.admin, 'POST', `/api/integrations/${b.id}/key`)).statusCode).toBe(
      200,
    );
    await create(people.manager, { name: 'His', rotationId: mine.id });
  });

  test('a policy’s integration: its followers’ members view it; a manager of every follower manages it', async () => {
    const mine = await rotation();
    const theirs = await insertRotation(t.database.db, {
      name: `Elsewhere ${suffix()}`,
      memberIds: [people.outsider.id],
      createdById: people.otherManager.id,
    });
    const [policy] = await t.database.db
      .select()
      .from(escalationPolicies)
      .where(eq(escalationPolicies.id, mine.escalationPolicyId as number));
    const created = await create(people.manager, {
      name: 'On policy',
      escalationPolicyId: policy.id,
    });
    expect((await t.call(people.olivia, 'GET', `/api/integrations/${created.id}`)).statusCode).toBe(
      200,
    );
    expect(
      (await t.call(people.outsider, 'GET', `/api/integrations/${created.id}`)).statusCode,
    ).toBe(403);
    // Once another team's rotation follows the policy too, Morgan alone no longer manages it.
    await t.database.db
      .update(rotations)
      .set({ escalationPolicyId: policy.id })
      .where(eq(rotations.id, theirs.id));
    expect(
      (await t.call(people.outsider, 'GET', `/api/integrations/${created.id}`)).statusCode,
    ).toBe(200);
    const refused = await t.call(people.manager, 'PATCH', `/api/integrations/${created.id}`, {
      name: 'Renamed',
    });
    expect(refused.statusCode).toBe(403);
  });

  test('anonymous: 401', async () => {
    expect((await t.call(null, 'GET', '/api/integrations')).statusCode).toBe(401);
    expect((await t.call(null, 'POST', '/api/integrations', {})).statusCode).toBe(401);
  });
});

describe('alerts', () => {
  test('an integration’s alerts: newest first, 50 a page, opened; an incident’s alone', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Alertmanager', rotationId: r.id });
    const incidentId = await insertIncident(r.id, created.id);
    const ids: number[] = [];
    for (let i = 0; i < 52; i++) {
      ids.push(
        await insertAlert(created.id, {
          pageId: i % 2 === 0 ? incidentId : null,
          summary: `Disk ${i}`,
          payload: `{"n":${i}}`,
        }),
      );
    }
    const first = await t.call(people.olivia, 'GET', `/api/integrations/${created.id}/alerts`);
    expect(first.statusCode, first.body).toBe(200);
    const page1 = first.json() as AlertList;
    expect(page1.alerts).toHaveLength(50);
    expect(page1.alerts.map((a) => a.id)).toEqual([...ids].reverse().slice(0, 50));
    expect(page1.nextCursor).toBe(ids[2]);
    expect(page1.alerts[0]).toEqual({
      id: ids[51],
      integrationId: created.id,
      integrationName: 'Alertmanager',
      incidentId: null,
      format: 'alertmanager',
      action: 'trigger',
      outcome: 'ignored',
      summary: 'Disk 51',
      source: 'prometheus',
      severity: 'P2',
      details: [{ section: 'Labels', label: 'instance', value: 'db-1:9100' }],
      links: [{ href: 'https://grafana.example.com/d/1', text: 'Dashboard' }],
      receivedAt: START.replace('Z', '.000Z'),
      lastSeenAt: START.replace('Z', '.000Z'),
      seenCount: 1,
      payload: '{"n":51}',
      payloadCut: false,
    });
    const second = (
      await t.call(
        people.olivia,
        'GET',
        `/api/integrations/${created.id}/alerts?before=${page1.nextCursor}`,
      )
    ).json() as AlertList;
    expect(second.alerts.map((a) => a.id)).toEqual([ids[1], ids[0]]);
    expect(second.nextCursor).toBeNull();

    // A member of the rotation reads them. (Issue 30: this was the outsider, another team's
    // member, who is now refused: see the test below.)
    const ofIncident = await t.call(people.olivia, 'GET', `/api/incidents/${incidentId}/alerts`);
    expect(ofIncident.statusCode, ofIncident.body).toBe(200);
    const incidentAlerts = (ofIncident.json() as AlertList).alerts;
    expect(incidentAlerts).toHaveLength(26);
    expect(incidentAlerts.every((a) => a.incidentId === incidentId)).toBe(true);
    expect((await t.call(people.olivia, 'GET', '/api/incidents/999999/alerts')).statusCode).toBe(
      404,
    );
  });

  test('an incident’s alerts: another team’s member reads no payload, though the incident reads to every role (issue 30)', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Alertmanager', rotationId: r.id });
    const incidentId = await insertIncident(r.id, created.id);
    await insertAlert(created.id, { pageId: incidentId, payload: '{"secret":"db password"}' });
    const policy = await create(people.manager, {
      name: 'Policy source',
      escalationPolicyId: r.escalationPolicyId,
    });
    const policyIncident = await insertIncident(r.id, policy.id);
    await insertAlert(policy.id, { pageId: policyIncident, payload: '{"n":2}' });

    for (const id of [incidentId, policyIncident]) {
      // The incident itself is not hidden (decision 205) ...
      expect((await t.call(people.outsider, 'GET', `/api/incidents/${id}`)).statusCode).toBe(200);
      // ... but its alerts are the integration's, as the integration's own list is.
      const refused = await t.call(people.outsider, 'GET', `/api/incidents/${id}/alerts`);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual({
        message: INTEGRATION_MESSAGES.mayNotViewAlerts,
        code: 'FORBIDDEN',
      });
      expect(refused.body).not.toContain('db password');
      expect(
        (await t.call(people.outsider, 'GET', `/api/integrations/${created.id}/alerts`)).statusCode,
      ).toBe(403);
      // Members, incident managers, managers and administrators read them.
      for (const reader of [people.noah, people.iris, people.otherManager, people.admin]) {
        const res = await t.call(reader, 'GET', `/api/incidents/${id}/alerts`);
        expect(res.statusCode, res.body).toBe(200);
        expect((res.json() as AlertList).alerts).toHaveLength(1);
      }
    }
    // An incident with no alerts has none to hide: an empty list.
    const quiet = await insertIncident(r.id, null);
    const none = await t.call(people.outsider, 'GET', `/api/incidents/${quiet}/alerts`);
    expect(none.statusCode, none.body).toBe(200);
    expect((none.json() as AlertList).alerts).toEqual([]);
  });
});

describe('query counts', () => {
  async function count(user: User, url: string) {
    await t.call(user, 'GET', url);
    await t.database.db.execute(sql`select 1`);
    statements = 0;
    counting = true;
    const res = await t.call(user, 'GET', url);
    counting = false;
    expect(res.statusCode, res.body).toBe(200);
    return statements;
  }

  test('the list and the alert lists run as many statements for 2 as for 20', async () => {
    const r = await rotation();
    const seed = async (n: number) => {
      for (let i = 0; i < n; i++) {
        const made = await create(people.manager, {
          name: `Source ${i} ${suffix()}`,
          ...(i % 2 === 0 ? { rotationId: r.id } : { escalationPolicyId: r.escalationPolicyId }),
        });
        const incidentId = await insertIncident(r.id, made.id);
        await insertAlert(made.id, { pageId: incidentId });
      }
    };
    await seed(2);
    const [one] = await list(people.olivia);
    const [incident] = await t.database.db.select().from(pages).limit(1);
    const urls = [
      '/api/integrations',
      `/api/integrations/${one.id}/alerts`,
      `/api/incidents/${incident.id}/alerts`,
    ];
    const few = [];
    for (const url of urls) few.push(await count(people.olivia, url));
    await seed(18);
    const many = [];
    for (const url of urls) many.push(await count(people.olivia, url));
    expect(await list(people.olivia)).toHaveLength(20);
    expect(many).toEqual(few);
  });
});

describe('send test alert', () => {
  test('raises an incident through the integration, as its tool would; each test its own', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Prometheus', rotationId: r.id });
    t.clock.set('2026-11-02T12:05:00Z');
    const res = await t.call(people.manager, 'POST', `/api/integrations/${created.id}/test`);
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json() as TestAlertResult;
    expect(result).toEqual({ incidentId: expect.any(Number), outcome: 'raised' });

    const incident = (
      await t.call(people.olivia, 'GET', `/api/incidents/${result.incidentId}`)
    ).json() as Incident;
    expect(incident).toMatchObject({
      title: 'Test alert from Prometheus',
      severity: 'P3',
      urgency: 'low',
      rotation: { id: r.id },
      integration: { id: created.id, name: 'Prometheus' },
      raisedBy: { kind: 'integration', user: null, name: 'Prometheus' },
      alertCount: 1,
      storm: false,
    });
    expect(incident.assignees.map((p) => p.id)).toEqual([people.olivia.id]);

    const second = await t.call(people.admin, 'POST', `/api/integrations/${created.id}/test`, {
      severity: 'P1',
    });
    expect(second.statusCode, second.body).toBe(201);
    const again = second.json() as TestAlertResult;
    expect(again.outcome).toBe('raised');
    expect(again.incidentId).not.toBe(result.incidentId);
    const p1 = (await t.call(people.olivia, 'GET', `/api/incidents/${again.incidentId}`)).json();
    expect(p1).toMatchObject({ severity: 'P1', urgency: 'high' });

    const alertList = (
      await t.call(people.olivia, 'GET', `/api/integrations/${created.id}/alerts`)
    ).json() as AlertList;
    expect(alertList.alerts.map((a) => [a.incidentId, a.format, a.outcome, a.severity])).toEqual([
      [again.incidentId, 'test', 'raised', 'P1'],
      [result.incidentId, 'test', 'raised', 'P3'],
    ]);
    const [latest, first] = alertList.alerts;
    expect(latest).toMatchObject({ summary: 'Test alert from Prometheus', source: 'Baton' });
    expect(first.details).toContainEqual({
      section: 'Test alert',
      label: 'sent by',
      value: 'Morgan Manager',
    });
    expect(JSON.parse(first.payload ?? '')).toMatchObject({ test: true, sentBy: 'Morgan Manager' });
    const ofIncident = (
      await t.call(people.olivia, 'GET', `/api/incidents/${result.incidentId}/alerts`)
    ).json() as AlertList;
    expect(ofIncident.alerts.map((a) => a.id)).toEqual([first.id]);

    const [shown] = await list(people.manager);
    expect(shown).toMatchObject({
      lastUsedAt: '2026-11-02T12:05:00.000Z',
      counts: { alerts: 2, incidents: 2, openIncidents: 2 },
    });
  });

  test('only those who manage it; 404 first; a bad severity is 400 and raises nothing', async () => {
    const r = await rotation();
    const created = await create(people.manager, { name: 'Grafana', rotationId: r.id });
    for (const user of [people.olivia, people.iris, people.otherManager]) {
      const res = await t.call(user, 'POST', `/api/integrations/${created.id}/test`);
      expect(res.statusCode, user.name).toBe(403);
      expect(res.json().message).toBe(INTEGRATION_MESSAGES.mayNotManage);
    }
    expect(
      (await t.call(people.otherManager, 'POST', '/api/integrations/999999/test')).statusCode,
    ).toBe(404);
    const bad = await t.call(people.manager, 'POST', `/api/integrations/${created.id}/test`, {
      severity: 'P4',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(`severity: ${INTEGRATION_MESSAGES.severity}`);
    expect(await t.database.db.select().from(alerts)).toEqual([]);
    expect(await t.database.db.select().from(pages)).toEqual([]);
  });
});
