import { readFileSync } from 'node:fs';
import { count, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { OpenOptions } from '../../db/client';
import { alertKeys, alerts, notifications, pages } from '../../db/schema';
import { insertIntegration, insertRotation } from '../../seed/factories';
import { countIncidentAlerts } from '../integrations/integration-repository';

/**
 * The inbound alert endpoints through the app (issue 17, decision 211): each vendor's documented
 * request raises, repeats, acknowledges and resolves; every refusal (no key, a wrong key, a bad
 * body, too large, too fast, a wrong Grafana signature) answers 4xx in the vendor's own error
 * shape with a message and writes nothing. The suites, one job each: `alert-routes.test.ts`
 * (what the senders document), `alert-refusal-routes.test.ts`, `alert-malformed-routes.test.ts`
 * and `alert-storm-routes.test.ts` (decision 216). What they share is here: each calls
 * setUpAlertApp() once, at its top, for an app and database of its own. Files in one worker share
 * this module (decision 230), so its hooks set `t`, `rotationId`, `key` and `integrationId` afresh
 * for each file.
 */

// What Alertmanager 0.25 really sends (tests/fixtures/alertmanager-0.25/README.md).
const FIXTURES = new URL('../../../../tests/fixtures/alertmanager-0.25/', import.meta.url);
export const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as {
    path: string;
    headers: Record<string, string>;
    body: Record<string, unknown>;
  };

/** the suite's app, set by setUpAlertApp's beforeAll */
export let t: TestApp;
/** the rotation of the suite's integration: Priya Holder holds it, Sam Member is next */
export let rotationId: number;
/** the suite's integration's key */
export let key: string;
export let integrationId: number;

/**
 * setUpAlertApp builds the suite's app (with `db`'s options), its rotation and its integration
 * (Prometheus) before the tests, and closes the app after.
 */
export function setUpAlertApp(db: OpenOptions = {}) {
  beforeAll(async () => {
    t = await createTestApp({ db });
    const holder = await t.createUser({ name: 'Priya Holder' });
    const other = await t.createUser({ name: 'Sam Member' });
    const rotation = await insertRotation(t.database.db, {
      name: 'Platform',
      memberIds: [holder.id, other.id],
      holderId: holder.id,
      now: t.clock.now(),
    });
    rotationId = rotation.id;
    const made = await insertIntegration(t.database.db, t.cipher, {
      name: 'Prometheus',
      rotationId,
    });
    key = made.key;
    integrationId = made.integration.id;
  });
  afterAll(() => t.close());
}

/** The rows an inbound request may write, counted. */
export async function counts() {
  const n = async (table: typeof alerts | typeof alertKeys | typeof pages | typeof notifications) =>
    (await t.database.db.select({ n: count() }).from(table))[0].n;
  return {
    alerts: await n(alerts),
    alertKeys: await n(alertKeys),
    pages: await n(pages),
    notifications: await n(notifications),
  };
}

/** A machine's request: no Origin, no cookie (the raw inject, as a monitoring tool sends). */
export function send(options: InjectOptions) {
  return t.rawInject(options);
}

export const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  send({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });

export const pdTrigger = (over: Record<string, unknown> = {}) => ({
  routing_key: key,
  event_action: 'trigger',
  payload: { summary: 'Disk full on db1', source: 'db1', severity: 'critical' },
  ...over,
});

export const amFiring = fixture('webhook-firing').body;

export function expectShape(
  shape: 'pagerduty' | 'opsgenie' | 'baton',
  body: Record<string, unknown>,
  message: string | RegExp,
) {
  if (shape === 'pagerduty') {
    expect(body.status).toBe('invalid event');
    expect((body.errors as string[]).join('\n')).toMatch(message);
  } else {
    expect(body.message).toMatch(message);
  }
  if (shape === 'opsgenie') {
    expect(typeof body.took).toBe('number');
    expect(typeof body.requestId).toBe('string');
  }
  expect(typeof body.code).toBe('string');
}

export const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A rotation of its own with a holder, and an integration on it: the notifications are its own. */
export async function fresh(seed: Parameters<typeof insertIntegration>[2] = {}) {
  const holder = await t.createUser();
  const rotation = await insertRotation(t.database.db, {
    memberIds: [holder.id],
    holderId: holder.id,
    now: t.clock.now(),
  });
  const made = await insertIntegration(t.database.db, t.cipher, {
    rotationId: rotation.id,
    ...seed,
  });
  const incidents = async () => {
    const rows = await t.database.db
      .select({
        id: pages.id,
        status: pages.status,
        severity: pages.severity,
        urgency: pages.urgency,
      })
      .from(pages)
      .where(eq(pages.integrationId, made.integration.id))
      .orderBy(pages.id);
    const counted = await countIncidentAlerts(
      t.database.db,
      rows.map((r) => r.id),
    );
    return rows.map((r) => ({ ...r, alertCount: counted.get(r.id)?.alertCount ?? 0 }));
  };
  const notified = async () =>
    (
      await t.database.db
        .select({ userId: notifications.userId, pageId: notifications.pageId })
        .from(notifications)
        .innerJoin(pages, eq(pages.id, notifications.pageId))
        .where(eq(pages.integrationId, made.integration.id))
    ).map((n) => n.userId);
  return { key: made.key, integration: made.integration, holderId: holder.id, incidents, notified };
}
