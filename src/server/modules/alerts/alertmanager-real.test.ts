import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  alertmanagerConfig,
  type RunningAlertmanager,
  startAlertmanager,
} from '../../../../tests/setup/alertmanager';
import { TEST_KEY, testConfig } from '../../../../tests/setup/test-app';
import { createTestDatabase } from '../../../../tests/setup/test-database';
import { buildApp } from '../../app';
import { systemClock } from '../../core/clock';
import { FieldCipher, parseMasterKey } from '../../crypto/field-crypto';
import type { Database } from '../../db/client';
import { alertKeys, alerts, notifications, pages } from '../../db/schema';
import { insertIntegration, insertRotation, insertUser } from '../../seed/factories';
import { countIncidentAlerts } from '../integrations/integration-repository';

/**
 * Issue 17's "done when": the real Prometheus Alertmanager (Debian's 0.25), unmodified, raises
 * and resolves incidents in Baton through each of its three receivers — webhook_configs (Bearer
 * key), pagerduty_configs (url and routing_key) and opsgenie_configs (api_url and api_key) —
 * against Baton listening on a loopback port. Two alerts of one group give one incident and one
 * notification to the rotation's holder; Alertmanager's repeats of the group (every second here)
 * change nothing but the last-seen time; ending the alerts resolves the incident. Runs on
 * PostgreSQL too (TEST_DATABASE_URL). Fails, never skips, when Alertmanager is not installed.
 */

const RECEIVERS = ['webhook', 'pagerduty', 'opsgenie'] as const;
type Receiver = (typeof RECEIVERS)[number];

let database: Database;
let app: FastifyInstance;
let alertmanager: RunningAlertmanager | undefined;
const setup = {} as Record<Receiver, { integrationId: number; holderId: number }>;
let alertmanagerYaml = '';

beforeAll(async () => {
  database = await createTestDatabase();
  const config = testConfig();
  const cipher = new FieldCipher(parseMasterKey(TEST_KEY));
  // Alertmanager keeps real time, so Baton does too.
  app = await buildApp({ config, database, cipher, clock: systemClock, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const keys = {} as Record<Receiver, string>;
  for (const receiver of RECEIVERS) {
    const holder = await insertUser(database.db, cipher, { name: `Holder ${receiver}` });
    const other = await insertUser(database.db, cipher, { name: `Member ${receiver}` });
    const rotation = await insertRotation(database.db, {
      name: `Alertmanager ${receiver}`,
      memberIds: [holder.id, other.id],
      holderId: holder.id,
    });
    const { integration, key } = await insertIntegration(database.db, cipher, {
      name: `Alertmanager (${receiver})`,
      rotationId: rotation.id,
    });
    keys[receiver] = key;
    setup[receiver] = { integrationId: integration.id, holderId: holder.id };
  }
  alertmanagerYaml = alertmanagerConfig(base, keys);
}, 30_000);

afterAll(async () => {
  await alertmanager?.stop();
  await app?.close();
  await database?.close();
});

/** an integration's incidents, each with its count of distinct alerts */
const incidentsOf = async (integrationId: number) => {
  const rows = await database.db
    .select({ id: pages.id, status: pages.status })
    .from(pages)
    .where(eq(pages.integrationId, integrationId));
  const counted = await countIncidentAlerts(
    database.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({ ...r, alertCount: counted.get(r.id)?.alertCount ?? 0 }));
};

async function waitFor<T>(
  what: string,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms = 15_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(
        `${what}: still ${JSON.stringify(value)} after ${ms / 1000} s\nAlertmanager's log:\n${alertmanager?.output()}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

function firing(receiver: Receiver, instance: string, endsAt?: string) {
  return {
    labels: {
      alertname: `DiskFull_${receiver}`,
      baton: receiver,
      instance,
      severity: 'critical',
    },
    annotations: { summary: `Disk full on ${instance}`, description: '95% used' },
    generatorURL: 'http://prometheus.example:9090/graph?g0.expr=disk',
    ...(endsAt ? { endsAt } : {}),
  };
}

test('an unmodified Alertmanager raises, repeats and resolves incidents through its webhook, PagerDuty and Opsgenie receivers', {
  timeout: 45_000,
}, async () => {
  // Started here, not before all: without Alertmanager this test fails (it is never skipped).
  const am = await startAlertmanager(alertmanagerYaml);
  alertmanager = am;
  // Two alerts in each receiver's group (grouped by alertname): one incident each.
  await am.postAlerts(RECEIVERS.flatMap((r) => [firing(r, 'db1'), firing(r, 'db2')]));

  const raised = {} as Record<Receiver, number>;
  for (const receiver of RECEIVERS) {
    const { integrationId, holderId } = setup[receiver];
    const [incident] = await waitFor(
      `${receiver}: an incident`,
      () => incidentsOf(integrationId),
      (rows) => rows.length > 0,
    );
    raised[receiver] = incident.id;
    const notified = await database.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(eq(notifications.pageId, incident.id));
    expect(notified, `${receiver}: one notification, to the holder`).toEqual([
      { userId: holderId },
    ]);
  }

  // Alertmanager sends each group again every second (repeat_interval): wait for two repeats.
  const keyIds = RECEIVERS.map((r) => setup[r].integrationId);
  // Per integration: how many deliveries its alerts have seen, and the latest of them.
  const readSeen = async () => {
    const rows = await database.db
      .select({
        integrationId: alerts.integrationId,
        seenCount: alerts.seenCount,
        lastSeenAt: alerts.lastSeenAt,
      })
      .from(alerts)
      .where(inArray(alerts.integrationId, keyIds));
    return keyIds.map((id) => {
      const own = rows.filter((r) => r.integrationId === id);
      return {
        id,
        rows: own.length,
        seen: own.reduce((n, r) => n + r.seenCount, 0),
        last: Math.max(...own.map((r) => r.lastSeenAt.getTime())),
      };
    });
  };
  const before = await readSeen();
  const after = await waitFor('two repeats of every group', readSeen, (now) =>
    now.every((n, i) => n.seen >= before[i].seen + 2),
  );
  for (const receiver of RECEIVERS) {
    const { integrationId } = setup[receiver];
    const incidents = await incidentsOf(integrationId);
    expect(incidents, `${receiver}: the repeats raised nothing new`).toHaveLength(1);
    expect(incidents[0].status, receiver).toBe('triggered');
    const notified = await database.db
      .select({ id: notifications.id })
      .from(notifications)
      .where(eq(notifications.pageId, raised[receiver]));
    expect(notified, `${receiver}: the repeats notified no one again`).toHaveLength(1);
    const i = keyIds.indexOf(integrationId);
    expect(after[i].rows, `${receiver}: the repeats recorded no new alert`).toBe(before[i].rows);
    expect(after[i].last, `${receiver}: last seen moved`).toBeGreaterThan(before[i].last);
  }

  // Ending the alerts (endsAt in the past) makes Alertmanager send the resolution.
  const ended = new Date(Date.now() - 1_000).toISOString();
  await am.postAlerts(RECEIVERS.flatMap((r) => [firing(r, 'db1', ended), firing(r, 'db2', ended)]));
  for (const receiver of RECEIVERS) {
    const { integrationId } = setup[receiver];
    const [incident] = await waitFor(
      `${receiver}: the incident resolved`,
      () => incidentsOf(integrationId),
      (rows) => rows.length === 1 && rows[0].status === 'resolved',
    );
    expect(incident.id).toBe(raised[receiver]);
    const keys = await database.db
      .select({ resolvedAt: alertKeys.resolvedAt })
      .from(alertKeys)
      .where(eq(alertKeys.integrationId, integrationId));
    expect(keys, `${receiver}: one alert key for the group`).toHaveLength(1);
    expect(keys[0].resolvedAt, `${receiver}: its key closed`).not.toBeNull();
  }
});
