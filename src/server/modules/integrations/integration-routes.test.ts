import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { type Incident, IncidentSchema } from '../../../shared/contracts/incidents';
import {
  INTEGRATION_MESSAGES,
  type IntegrationWithKey,
} from '../../../shared/contracts/integrations';
import { alerts, integrations, pages, rotations } from '../../db/schema';
import { insertPolicyRow } from '../escalation-policies/escalation-policy-repository';
import { findIntegrationByKey, hashIntegrationKey } from './integration-keys';
import {
  auditOf,
  create,
  insertAlert,
  insertIncident,
  list,
  people,
  rotation,
  setUpIntegrationSuite,
  suffix,
  t,
} from './integration-routes.fixtures';
import { signingSecretCtx } from './integration-service';

// Creating, reading, changing and deleting integrations, and what they refuse. Who may is in
// integration-access-routes.test.ts, the alerts and the test alert in
// integration-alert-routes.test.ts.
setUpIntegrationSuite();

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
      source: 'generic',
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

  test('the source: generic unless chosen, changed like a setting; the key is taken on every endpoint whatever it is', async () => {
    const r = await rotation();
    const chosen = await create(people.manager, {
      name: 'Prometheus',
      rotationId: r.id,
      source: 'alertmanager',
    });
    expect(chosen.source).toBe('alertmanager');
    const changed = await t.call(people.manager, 'PATCH', `/api/integrations/${chosen.id}`, {
      source: 'grafana',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().source).toBe('grafana');
    expect((await list(people.manager, `?rotationId=${r.id}`))[0].source).toBe('grafana');
    const events = await auditOf(chosen.id);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ['integration.created', expect.objectContaining({ source: 'alertmanager' })],
      ['integration.updated', { name: 'Prometheus', fields: ['source'] }],
    ]);
    // A source chooses what the screen shows first; it refuses no format.
    const generic = await t.app.inject({
      method: 'POST',
      url: `/api/alerts/generic?token=${chosen.key}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ summary: 'Disk almost full' }),
    });
    expect(generic.statusCode, generic.body).toBeLessThan(300);
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
    ['an unknown source', { name: 'X', rotationId: 1, source: 'datadog' }, 'source:'],
    ['the test format as a source', { name: 'X', rotationId: 1, source: 'test' }, 'source:'],
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
    for (const body of [
      {},
      { name: '' },
      { rateLimit: 10_001 },
      { urgency: 'medium' },
      { source: 'nagios' },
    ]) {
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
