import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { Incident } from '../../../shared/contracts/incidents';
import type { AlertFormat, AlertList } from '../../../shared/contracts/integrations';
import type { Page } from '../../../shared/contracts/paging';
import type { User } from '../../../shared/contracts/users';
import type { AlertEvent } from '../../../shared/domain/alerts';
import {
  alertKeys,
  alerts,
  auditEvents,
  integrations,
  notifications,
  pages,
} from '../../db/schema';
import { type IntegrationSeed, insertIntegration, insertRotation } from '../../seed/factories';
import { resolveIncidentAs } from '../incidents/incident-actions';
import { pageMessageOf } from '../incidents/incident-text';
import type { IntegrationRow } from '../integrations/integration-keys';
import { countIncidentAlerts } from '../integrations/integration-repository';
import { type IntakeDeps, receiveAlerts, stormTitle } from './alert-intake';
import { alertPayloadSweepTask, dropOldAlertPayloads } from './alert-payload-task';

/**
 * The alert intake (decision 209) at the service level: dedup per integration and key, repeats,
 * changes, acknowledge and resolve from the source, storms, and the payload sealed. Runs on PGlite,
 * and on PostgreSQL with TEST_DATABASE_URL.
 */

let t: TestApp;
let deps: IntakeDeps;
let holder: User;
let manager: User;
let rotationId: number;

beforeAll(async () => {
  t = await createTestApp();
  deps = { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config };
  manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
  holder = await t.createUser({ name: 'Hana Holder', phone: '+15550100111' });
  const next = await t.createUser({ name: 'Ned Next' });
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id, next.id],
    holderId: holder.id,
    createdById: manager.id,
    now: t.clock.now(),
  });
  rotationId = rotation.id;
});
afterAll(() => t.close());

/** An integration on the test rotation (or, given a policy, on the policy alone). */
async function newIntegration(seed: IntegrationSeed = {}) {
  const { integration } = await insertIntegration(t.database.db, t.cipher, {
    name: 'Prometheus',
    createdById: manager.id,
    ...(seed.escalationPolicyId === undefined ? { rotationId } : {}),
    ...seed,
  });
  return integration;
}

const alert = (dedupKey: string, extra: Partial<AlertEvent> = {}): AlertEvent => ({
  action: 'trigger',
  dedupKey,
  summary: `Disk full on ${dedupKey}`,
  source: 'prometheus',
  severity: 'P1',
  urgency: 'high',
  details: [{ section: 'Labels', label: 'instance', value: dedupKey }],
  links: [{ href: 'https://prometheus.example.com/graph', text: 'Source' }],
  ...extra,
});

const receive = (
  integration: IntegrationRow,
  events: AlertEvent[],
  format: AlertFormat = 'pagerduty',
  payload = JSON.stringify(events),
) => receiveAlerts(deps, integration, { format, events, payload });

/** an incident's row, with its count of distinct alerts (counted from its alerts) */
const incident = async (id: number) => {
  const [row] = await t.database.db.select().from(pages).where(eq(pages.id, id));
  const counted = (await countIncidentAlerts(t.database.db, [id])).get(id);
  return { ...row, alertCount: counted?.alertCount ?? 0 };
};
const alertRows = (integrationId: number) =>
  t.database.db
    .select()
    .from(alerts)
    .where(eq(alerts.integrationId, integrationId))
    .orderBy(asc(alerts.id));
const notificationCount = async (pageId: number) =>
  (await t.database.db.select().from(notifications).where(eq(notifications.pageId, pageId))).length;
const eventsOf = (pageId: number) =>
  t.database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.targetType, 'page'), eq(auditEvents.targetId, String(pageId))))
    .orderBy(asc(auditEvents.id));

describe('a trigger', () => {
  test('raises an incident on the rotation, names the integration, and pages the holder', async () => {
    const integration = await newIntegration();
    const [receipt] = await receive(integration, [alert('db-1')]);
    expect(receipt.outcome).toBe('raised');
    const row = await incident(receipt.incidentId as number);
    expect(row).toMatchObject({
      rotationId,
      integrationId: integration.id,
      pagedById: null,
      severity: 'P1',
      urgency: 'high',
      alertCount: 1,
      storm: false,
      assigneeIds: [holder.id],
    });
    const raised = (await eventsOf(row.id)).find((e) => e.action === 'incident.raised');
    expect(raised?.details).toMatchObject({ source: 'integration', integrationName: 'Prometheus' });
    expect(await notificationCount(row.id)).toBeGreaterThan(0);
    const [stored] = await alertRows(integration.id);
    expect(stored).toMatchObject({ pageId: row.id, outcome: 'raised', format: 'pagerduty' });
    const [integrationRow] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, integration.id));
    expect(integrationRow.lastUsedAt).toEqual(t.clock.now());
  });

  test('keeps the event and the payload sealed, bound to the alert', async () => {
    const integration = await newIntegration();
    const payload = JSON.stringify({ secret: 'labels of db-secret' });
    const [receipt] = await receive(integration, [alert('db-secret')], 'alertmanager', payload);
    const [row] = await t.database.db.select().from(alerts).where(eq(alerts.id, receipt.alertId));
    expect(row.payloadEnc).not.toContain('db-secret');
    expect(row.eventEnc).not.toContain('db-secret');
    const ctx = { table: 'alerts', rowId: row.id };
    expect(t.cipher.decrypt(row.payloadEnc ?? '', { ...ctx, column: 'payload' })).toBe(payload);
    expect(JSON.parse(t.cipher.decrypt(row.eventEnc, { ...ctx, column: 'event' }))).toMatchObject({
      summary: 'Disk full on db-secret',
      details: [{ section: 'Labels', label: 'instance', value: 'db-secret' }],
      links: [{ href: 'https://prometheus.example.com/graph', text: 'Source' }],
    });
    // Bound to its row: under another row's context it does not open.
    expect(() =>
      t.cipher.decrypt(row.payloadEnc ?? '', { ...ctx, rowId: row.id + 1, column: 'payload' }),
    ).toThrow();
  });

  test('cuts a payload beyond what an alert keeps, and says so', async () => {
    const integration = await newIntegration();
    const [receipt] = await receive(integration, [alert('big')], 'generic', 'x'.repeat(70 * 1024));
    const [row] = await t.database.db.select().from(alerts).where(eq(alerts.id, receipt.alertId));
    expect(row.payloadCut).toBe(true);
    const opened = t.cipher.decrypt(row.payloadEnc ?? '', {
      table: 'alerts',
      column: 'payload',
      rowId: row.id,
    });
    expect(opened).toHaveLength(64 * 1024);
  });
});

describe('the same key again', () => {
  test('the same event is a repeat: only its last-seen time and count change', async () => {
    const integration = await newIntegration();
    const [first] = await receive(integration, [alert('web-1')]);
    const before = await notificationCount(first.incidentId as number);
    t.clock.advance(60_000);
    const [again] = await receive(integration, [alert('web-1')]);
    expect(again).toMatchObject({
      outcome: 'repeated',
      incidentId: first.incidentId,
      alertId: first.alertId,
    });
    const rows = await alertRows(integration.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ seenCount: 2, lastSeenAt: t.clock.now() });
    const row = await incident(first.incidentId as number);
    expect(row.alertCount).toBe(1);
    expect(await notificationCount(row.id)).toBe(before);
    expect((await eventsOf(row.id)).some((e) => e.action === 'incident.alert')).toBe(false);
  });

  test('a repeat through the one-statement path (a key used within the minute) is the same repeat', async () => {
    const made = await newIntegration();
    const [first] = await receive(made, [alert('fast-1')]);
    const reread = async () =>
      (await t.database.db.select().from(integrations).where(eq(integrations.id, made.id)))[0];
    const used = await reread();
    expect(used.lastUsedAt).not.toBeNull();
    t.clock.advance(5_000);
    const [again] = await receive(used, [alert('fast-1')]);
    expect(again).toMatchObject({
      outcome: 'repeated',
      incidentId: first.incidentId,
      alertId: first.alertId,
    });
    const [row] = await alertRows(made.id);
    expect(row).toMatchObject({ seenCount: 2, lastSeenAt: t.clock.now() });
    // Resolved in Baton, the same event is no repeat: it raises anew.
    await resolveIncidentAs(
      { ...deps, database: t.database, config: t.config },
      holder,
      first.incidentId as number,
    );
    const [after] = await receive(used, [alert('fast-1')]);
    expect(after.outcome).toBe('raised');
    expect(after.incidentId).not.toBe(first.incidentId);
    // A changed event is no repeat either: it counts.
    const [changed] = await receive(used, [alert('fast-1', { summary: 'changed' })]);
    expect(changed).toMatchObject({ outcome: 'updated', incidentId: after.incidentId });
  });

  test('a changed event counts on the open incident, in its timeline, and pages nobody again', async () => {
    const integration = await newIntegration();
    const [first] = await receive(integration, [alert('web-2')]);
    const id = first.incidentId as number;
    const before = await notificationCount(id);
    const [changed] = await receive(integration, [alert('web-2', { summary: 'Disk 99% full' })]);
    expect(changed).toMatchObject({ outcome: 'updated', incidentId: id });
    expect((await incident(id)).alertCount).toBe(2);
    expect(await notificationCount(id)).toBe(before);
    const alertEvent = (await eventsOf(id)).find((e) => e.action === 'incident.alert');
    expect(alertEvent?.details).toMatchObject({
      outcome: 'updated',
      integrationName: 'Prometheus',
    });
    // The changed event is now the one a repeat matches.
    const [repeat] = await receive(integration, [alert('web-2', { summary: 'Disk 99% full' })]);
    expect(repeat.outcome).toBe('repeated');
  });

  test('deliveries of one new key at once raise one incident (the key row is the lock)', async () => {
    const integration = await newIntegration();
    const receipts = await Promise.all(
      Array.from({ length: 8 }, () => receive(integration, [alert('race-1')])),
    );
    const outcomes = receipts.map(([r]) => r.outcome).sort();
    expect(outcomes).toEqual(['raised', ...Array(7).fill('repeated')]);
    expect(new Set(receipts.map(([r]) => r.incidentId)).size).toBe(1);
    const raised = await t.database.db
      .select()
      .from(pages)
      .where(eq(pages.integrationId, integration.id));
    expect(raised).toHaveLength(1);
  });

  test('two requests naming the same keys in opposite orders both land', async () => {
    const integration = await newIntegration();
    const keys = Array.from({ length: 6 }, (_, i) => `order-${i}`);
    const results = await Promise.all([
      receive(
        integration,
        keys.map((k) => alert(k)),
      ),
      receive(
        integration,
        [...keys].reverse().map((k) => alert(k)),
      ),
    ]);
    expect(results.flat()).toHaveLength(12);
    const rows = await t.database.db
      .select()
      .from(pages)
      .where(eq(pages.integrationId, integration.id));
    expect(rows).toHaveLength(6);
  });

  test('keys are per integration: another integration with the same key raises its own', async () => {
    const a = await newIntegration();
    const b = await newIntegration({ name: 'Grafana' });
    const [ra] = await receive(a, [alert('shared-key')]);
    const [rb] = await receive(b, [alert('shared-key')]);
    expect(ra.outcome).toBe('raised');
    expect(rb.outcome).toBe('raised');
    expect(ra.incidentId).not.toBe(rb.incidentId);
  });
});

describe('acknowledge and resolve from the source', () => {
  test('acknowledge acknowledges, resolve resolves, both name the source', async () => {
    const integration = await newIntegration();
    const [raised] = await receive(integration, [alert('api-1')]);
    const id = raised.incidentId as number;
    const [ack] = await receive(integration, [alert('api-1', { action: 'acknowledge' })]);
    expect(ack).toMatchObject({ outcome: 'acknowledged', incidentId: id });
    expect((await incident(id)).status).toBe('acknowledged');
    const [resolved] = await receive(integration, [alert('api-1', { action: 'resolve' })]);
    expect(resolved).toMatchObject({ outcome: 'resolved', incidentId: id });
    const row = await incident(id);
    expect(row).toMatchObject({ status: 'resolved', resolvedById: null });
    const events = await eventsOf(id);
    expect(events.find((e) => e.action === 'page.acknowledged')?.details).toMatchObject({
      via: 'integration',
      integrationName: 'Prometheus',
    });
    expect(events.find((e) => e.action === 'page.resolved')?.details).toMatchObject({
      via: 'integration',
      integrationName: 'Prometheus',
    });
    // The incident and the page history name the integration, never "a deleted user" (issue 35).
    const read = (await t.call(manager, 'GET', `/api/incidents/${id}`)).json() as Incident;
    const byPrometheus = { kind: 'integration', user: null, name: 'Prometheus' };
    expect(read.acknowledgedBySource).toEqual(byPrometheus);
    expect(read.resolvedBySource).toEqual(byPrometheus);
    const pagesRes = await t.call(manager, 'GET', `/api/rotations/${rotationId}/pages`);
    expect(pagesRes.statusCode, pagesRes.body).toBe(200);
    const page = (pagesRes.json() as Page[]).find((p) => p.id === id);
    expect(page?.events.filter((e) => e.source).map((e) => [e.kind, e.source])).toEqual([
      ['acknowledged', 'Prometheus'],
      ['resolved', 'Prometheus'],
    ]);
  });

  test('a trigger after resolution raises a new incident', async () => {
    const integration = await newIntegration();
    const [first] = await receive(integration, [alert('api-2')]);
    await receive(integration, [alert('api-2', { action: 'resolve' })]);
    const [second] = await receive(integration, [alert('api-2')]);
    expect(second.outcome).toBe('raised');
    expect(second.incidentId).not.toBe(first.incidentId);
  });

  test('an incident resolved in Baton takes no more alerts: the next trigger raises anew', async () => {
    const integration = await newIntegration();
    const [first] = await receive(integration, [alert('api-3')]);
    await resolveIncidentAs(
      { ...deps, database: t.database, config: t.config },
      holder,
      first.incidentId as number,
    );
    const [second] = await receive(integration, [alert('api-3')]);
    expect(second.outcome).toBe('raised');
    expect(second.incidentId).not.toBe(first.incidentId);
  });

  test('acknowledge or resolve of an unknown key is recorded and changes nothing', async () => {
    const integration = await newIntegration();
    const receipts = await receive(integration, [
      alert('never-seen', { action: 'acknowledge' }),
      alert('never-seen-2', { action: 'resolve' }),
    ]);
    expect(receipts.map((r) => [r.outcome, r.incidentId])).toEqual([
      ['ignored', null],
      ['ignored', null],
    ]);
    expect(await alertRows(integration.id)).toHaveLength(2);
    const keys = await t.database.db
      .select()
      .from(alertKeys)
      .where(eq(alertKeys.integrationId, integration.id));
    expect(keys).toHaveLength(0);
  });
});

describe('an alert storm', () => {
  test('past the limit of new incidents a minute, new keys fold into one storm incident', async () => {
    const integration = await newIntegration({ stormLimit: 3 });
    const events = Array.from({ length: 10 }, (_, i) => alert(`storm-${i}`));
    const receipts = await receive(integration, events, 'alertmanager');
    expect(receipts.map((r) => r.outcome)).toEqual([
      ...Array(3).fill('raised'),
      ...Array(7).fill('folded'),
    ]);
    const stormIds = new Set(receipts.slice(3).map((r) => r.incidentId));
    expect(stormIds.size).toBe(1);
    const storm = await incident([...stormIds][0] as number);
    expect(storm).toMatchObject({ storm: true, alertCount: 7, integrationId: integration.id });
    expect(await alertRows(integration.id)).toHaveLength(10);
    // A folded key's next event goes to the storm, not to a new incident.
    const [again] = await receive(integration, [alert('storm-5', { summary: 'changed' })]);
    expect(again).toMatchObject({ outcome: 'updated', incidentId: storm.id });
    // A minute later the limit has room again.
    t.clock.advance(61_000);
    const [fresh] = await receive(integration, [alert('after-the-storm')]);
    expect(fresh.outcome).toBe('raised');
  });

  test('the storm is titled for its integration and resolves when its last key does', async () => {
    const integration = await newIntegration({ stormLimit: 1, name: 'Uptime' });
    await receive(integration, [alert('u-0'), alert('u-1'), alert('u-2')]);
    const [storm] = await t.database.db
      .select()
      .from(pages)
      .where(and(eq(pages.integrationId, integration.id), eq(pages.storm, true)));
    expect(storm.status).not.toBe('resolved');
    expect(pageMessageOf(storm, t.cipher)).toBe(stormTitle('Uptime', 1));
    await receive(integration, [alert('u-1', { action: 'resolve' })]);
    expect((await incident(storm.id)).status).not.toBe('resolved');
    await receive(integration, [alert('u-2', { action: 'resolve' })]);
    expect((await incident(storm.id)).status).toBe('resolved');
  });
});

describe('a policy integration', () => {
  test('raises on the policy alone', async () => {
    const [rotationRow] = await t.database.db
      .select({ policyId: pages.escalationPolicyId })
      .from(pages)
      .where(eq(pages.rotationId, rotationId))
      .limit(1);
    const integration = await newIntegration({
      escalationPolicyId: rotationRow.policyId as number,
    });
    const [receipt] = await receive(integration, [alert('policy-1')]);
    const row = await incident(receipt.incidentId as number);
    expect(row).toMatchObject({ rotationId: null, escalationPolicyId: rotationRow.policyId });
  });
});

describe('raw payloads past ALERT_PAYLOAD_DAYS (decision 232)', () => {
  const payloadOf = (row: typeof alerts.$inferSelect) =>
    t.cipher.decrypt(row.payloadEnc ?? '', { table: 'alerts', column: 'payload', rowId: row.id });
  const eventOf = (row: typeof alerts.$inferSelect): AlertEvent =>
    JSON.parse(t.cipher.decrypt(row.eventEnc, { table: 'alerts', column: 'event', rowId: row.id }));

  test('dropped once the alert and its resolved incident are that old; the alert, counted, stays', async () => {
    const integration = await newIntegration({ name: 'Old payloads' });
    const start = t.clock.now();
    const keep = t.config.alertPayloadKeepMs;
    const [resolved] = await receive(integration, [alert('kept-resolved')]);
    const [open] = await receive(integration, [alert('kept-open')]);
    const [ignored] = await receive(integration, [alert('kept-unknown', { action: 'resolve' })]);
    expect(ignored.incidentId).toBeNull();
    const engine = { database: t.database, cipher: t.cipher, clock: t.clock, config: t.config };
    await resolveIncidentAs(engine, holder, resolved.incidentId as number);
    const payloads = async () =>
      new Map(
        (await alertRows(integration.id)).map((row) => [
          row.id,
          row.payloadEnc === null ? null : payloadOf(row),
        ]),
      );
    const before = await payloads();
    expect([...before.values()].every((p) => p?.includes('kept-'))).toBe(true);

    // A minute short of the time kept: nothing goes.
    await alertPayloadSweepTask(engine, new Date(start.getTime() + keep - 60_000));
    expect(await payloads()).toEqual(before);

    // Past it: the resolved incident's alert and the alert that raised nothing lose their
    // payload; the open incident's alert keeps it, however old.
    await alertPayloadSweepTask(engine, new Date(start.getTime() + keep + 60_000));
    const after = await payloads();
    expect(after.get(resolved.alertId)).toBeNull();
    expect(after.get(ignored.alertId)).toBeNull();
    expect(after.get(open.alertId)).toBe(before.get(open.alertId));
    expect((await incident(resolved.incidentId as number)).alertCount).toBe(1);
    const [row] = await t.database.db.select().from(alerts).where(eq(alerts.id, resolved.alertId));
    expect(eventOf(row).summary).toBe('Disk full on kept-resolved');
    // The incident's alert list: the alert, its summary and details, and no payload.
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/incidents/${resolved.incidentId}/alerts`,
      headers: { cookie: await t.cookieFor(manager) },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as AlertList).alerts).toMatchObject([
      {
        id: resolved.alertId,
        summary: 'Disk full on kept-resolved',
        details: [{ label: 'instance', value: 'kept-resolved' }],
        payload: null,
      },
    ]);

    // A batch at a time: first what the file's other tests left, then three alerts that raised
    // nothing (a resolve of a key never seen).
    const later = new Date(start.getTime() + 3 * keep);
    while ((await dropOldAlertPayloads(t.database.db, later)) > 0);
    const integration2 = await newIntegration({ name: 'Batched payloads' });
    const never = (key: string) => alert(key, { action: 'resolve' });
    await receive(integration2, [never('b-1'), never('b-2'), never('b-3')], 'generic');
    expect(await dropOldAlertPayloads(t.database.db, later, 2)).toBe(2);
    expect(await dropOldAlertPayloads(t.database.db, later, 2)).toBe(1);
    expect(await dropOldAlertPayloads(t.database.db, later, 2)).toBe(0);
  });
});
