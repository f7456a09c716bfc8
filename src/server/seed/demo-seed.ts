import { AlertmanagerWebhookSchema } from '../../shared/contracts/alerts';
import { normalizeAlertGroup } from '../../shared/domain/alerts/alertmanager';
import type { Role } from '../../shared/domain/roles';
import type { Clock } from '../core/clock';
import type { FieldCipher } from '../crypto/field-crypto';
import type { Db, Tx } from '../db/client';
import { receiveAlerts } from '../modules/alerts/alert-intake';
import { markAcknowledged } from '../modules/incidents/incident-actions';
import { raiseIncident } from '../modules/incidents/incident-engine';
import { normalizeOptionsOf } from '../modules/integrations/integration-keys';
import { insertUsers } from '../modules/users/user-repository';
import { insertHandoffs, insertIntegration, insertRotation } from './factories';

const DAY = 86_400_000;

export interface DemoAccount {
  name: string;
  email: string;
  roles: Role[];
}

/** demoAccounts lists the demo team: one user of each role and a few more on-call engineers. */
export function demoAccounts(
  domain: string,
): (DemoAccount & { phone?: string; timezone: string })[] {
  const at = (local: string) => `${local}@${domain}`;
  return [
    {
      name: 'Avery Admin',
      email: at('avery.admin'),
      roles: ['admin'],
      timezone: 'America/New_York',
    },
    {
      name: 'Morgan Manager',
      email: at('morgan.manager'),
      roles: ['manager'],
      timezone: 'Europe/London',
    },
    {
      name: 'Iris Incident',
      email: at('iris.incident'),
      roles: ['incident_manager'],
      timezone: 'UTC',
    },
    {
      name: 'Olivia Ortiz',
      email: at('olivia.ortiz'),
      roles: ['on-call'],
      phone: '+15550100001',
      timezone: 'America/Chicago',
    },
    {
      name: 'Noah Nakamura',
      email: at('noah.nakamura'),
      roles: ['on-call'],
      phone: '+15550100002',
      timezone: 'Asia/Tokyo',
    },
    {
      name: 'Priya Patel',
      email: at('priya.patel'),
      roles: ['on-call', 'manager'],
      timezone: 'Europe/London',
    },
    {
      name: 'Sam Sullivan',
      email: at('sam.sullivan'),
      roles: ['on-call'],
      timezone: 'Australia/Sydney',
    },
  ];
}

/**
 * seedDemoData fills an empty database with a living demo team: a user of each role, a weekly and
 * a daily fixed rotation with holders, a suspended one, and some handoff history. One transaction.
 */
export async function seedDemoData(deps: SeedDeps) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const accounts = demoAccounts(deps.domain);
    const users = await insertUsers(tx, deps.cipher, accounts);
    const rotations = await seedRotations(tx, users, now);
    await seedHandoffs(tx, users, rotations, now);
    await seedIncidents(tx, deps, users, rotations.database, now);
    await seedAlert(tx, deps, users, rotations.database, now);
    const { platform, database, payments } = rotations;
    return { users, rotations: [platform, database, payments] };
  });
}

interface SeedDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  domain: string;
}
type DemoUsers = Awaited<ReturnType<typeof insertUsers>>;
type DemoRotation = Awaited<ReturnType<typeof insertRotation>>;
interface DemoRotations {
  platform: DemoRotation;
  database: DemoRotation;
  payments: DemoRotation;
}

/** seedRotations: Platform Primary (weekly), Database On-Call (daily) and Legacy Payments (suspended). */
async function seedRotations(tx: Tx, users: DemoUsers, now: Date): Promise<DemoRotations> {
  const [admin, manager, , olivia, noah, priya, sam] = users;
  const platform = await insertRotation(tx, {
    name: 'Platform Primary',
    description: 'Front line for the public API, web tier and queues.',
    cadence: 'weekly',
    timeZone: 'America/New_York',
    handoffTime: '09:00',
    handoffWeekday: 1,
    memberIds: [olivia.id, noah.id, priya.id, manager.id],
    holderId: olivia.id,
    holderSince: new Date(now.getTime() - 2 * DAY),
    createdById: manager.id,
    now,
  });
  const database = await insertRotation(tx, {
    name: 'Database On-Call',
    description: null,
    cadence: 'daily',
    timeZone: 'UTC',
    handoffTime: '08:00',
    memberIds: [noah.id, sam.id, priya.id],
    holderId: sam.id,
    holderSince: new Date(now.getTime() - 5 * 3_600_000),
    createdById: admin.id,
    now,
  });
  const payments = await insertRotation(tx, {
    name: 'Legacy Payments',
    description: 'Paused while the payments service moves to the new platform.',
    cadence: 'weekly',
    timeZone: 'Europe/London',
    memberIds: [priya.id, olivia.id],
    suspended: true,
    createdById: admin.id,
    now,
  });
  return { platform, database, payments };
}

/** seedHandoffs: a few weeks of handoff history, each kind and outcome once or more. */
async function seedHandoffs(
  tx: Tx,
  users: DemoUsers,
  { platform, database, payments }: DemoRotations,
  now: Date,
) {
  const [, , , olivia, noah, priya, sam] = users;
  await insertHandoffs(tx, [
    {
      rotationId: platform.id,
      fromUserId: priya.id,
      toUserId: noah.id,
      kind: 'pass',
      status: 'acknowledged',
      occurredAt: new Date(now.getTime() - 16 * DAY),
      notes: 'Queue lag alarms are noisy after the deploy; tuned thresholds, watch for a day.',
    },
    {
      rotationId: platform.id,
      fromUserId: noah.id,
      toUserId: olivia.id,
      kind: 'pass',
      status: 'success',
      occurredAt: new Date(now.getTime() - 9 * DAY),
    },
    {
      rotationId: payments.id,
      fromUserId: olivia.id,
      toUserId: priya.id,
      kind: 'pass',
      status: 'missed',
      occurredAt: new Date(now.getTime() - 8 * DAY),
    },
    {
      rotationId: platform.id,
      fromUserId: olivia.id,
      toUserId: noah.id,
      kind: 'auto',
      status: 'escalated',
      occurredAt: new Date(now.getTime() - 7 * DAY),
    },
    {
      rotationId: platform.id,
      fromUserId: noah.id,
      toUserId: olivia.id,
      kind: 'reassign',
      status: 'success',
      occurredAt: new Date(now.getTime() - 2 * DAY),
      notes: 'Noah is out sick; Olivia takes the rest of the week.',
    },
    {
      rotationId: database.id,
      fromUserId: noah.id,
      toUserId: priya.id,
      kind: 'pass',
      status: 'acknowledged',
      occurredAt: new Date(now.getTime() - 2 * DAY - 5 * 3_600_000),
    },
    {
      rotationId: database.id,
      fromUserId: priya.id,
      toUserId: noah.id,
      kind: 'pass',
      status: 'acknowledged',
      occurredAt: new Date(now.getTime() - DAY - 5 * 3_600_000),
      notes: 'Replica 3 restarted overnight; no action needed.',
    },
    {
      rotationId: database.id,
      fromUserId: noah.id,
      toUserId: sam.id,
      kind: 'pass',
      status: 'success',
      occurredAt: new Date(now.getTime() - 5 * 3_600_000),
    },
  ]);
}

async function seedIncidents(
  tx: Tx,
  deps: SeedDeps,
  users: DemoUsers,
  database: DemoRotation,
  now: Date,
) {
  const [admin, manager, , , , , sam] = users;
  // Two incidents so the incident screens have something to show (decision 204), raised the
  // way people raise them on Database On-Call: one acknowledged, one still climbing its default
  // policy (its reminder is due: the engine's next tick takes it). Not on Platform Primary, whose
  // paging the end-to-end tests read.
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  const replication = await raiseIncident(tx, deps, {
    rotation: { ...database, escalationPolicyId: database.escalationPolicyId as number },
    raisedBy: manager,
    source: 'user',
    title: 'Replication lag on the primary above 30 seconds',
    message: 'Replication lag on the primary above 30 seconds',
    severity: 'P3',
    urgency: 'low',
    impact: 'Reports read stale data; writes are unaffected.',
    now: ago(50),
  });
  await markAcknowledged(
    tx,
    deps,
    {
      page: replication,
      rotation: { ...database, createdById: database.createdById, suspended: false },
    },
    { byUserId: sam.id, via: 'app', now: ago(44) },
  );
  await raiseIncident(tx, deps, {
    rotation: { ...database, escalationPolicyId: database.escalationPolicyId as number },
    raisedBy: admin,
    source: 'user',
    title: 'Checkout API returns 502 for 5% of requests',
    message: 'Checkout API returns 502 for 5% of requests',
    severity: 'P1',
    urgency: 'high',
    description: 'Errors started after the 14:00 deploy of the web tier.',
    impact: 'About one checkout in twenty fails.',
    troubleshootingSteps:
      'Check the load balancer health checks; roll back the deploy if they fail.',
    now: ago(16),
  });
}

async function seedAlert(
  tx: Tx,
  deps: SeedDeps,
  users: DemoUsers,
  database: DemoRotation,
  now: Date,
) {
  const [admin] = users;
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000);
  // An integration on Database On-Call and one Alertmanager message through it (issue 17), so
  // the integration and alert screens have something to show: it raised a third incident, low
  // urgency (a warning is P3), which emails Sam. Its key is shown to nobody: regenerate it.
  const { integration } = await insertIntegration(tx, deps.cipher, {
    name: 'Prometheus (demo)',
    rotationId: database.id,
    source: 'alertmanager',
    createdById: admin.id,
    now: ago(24 * 60),
  });
  const firedAt = ago(8);
  const message = AlertmanagerWebhookSchema.parse({
    receiver: 'baton',
    status: 'firing',
    alerts: [
      {
        status: 'firing',
        labels: { alertname: 'DiskAlmostFull', instance: 'db-2:9100', severity: 'warning' },
        annotations: {
          summary: 'Disk 85% full on db-2',
          description: '/var/lib/postgresql has 15% left; at this rate it fills in two days.',
        },
        startsAt: firedAt.toISOString(),
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: 'http://prometheus.example.com:9090/graph?g0.expr=disk_used_ratio',
        fingerprint: '5c1d0e4b9a7f3e21',
      },
    ],
    groupLabels: { alertname: 'DiskAlmostFull' },
    commonLabels: { alertname: 'DiskAlmostFull', instance: 'db-2:9100', severity: 'warning' },
    commonAnnotations: { summary: 'Disk 85% full on db-2' },
    externalURL: 'http://alertmanager.example.com:9093',
    version: '4',
    groupKey: '{}:{alertname="DiskAlmostFull"}',
    truncatedAlerts: 0,
  });
  // The seed's transaction stands in for the database: the intake's own is a savepoint in it.
  await receiveAlerts(
    {
      database: { db: tx },
      cipher: deps.cipher,
      clock: { now: () => firedAt },
    },
    integration,
    {
      format: 'alertmanager',
      events: normalizeAlertGroup(message, 'group', normalizeOptionsOf(integration)),
      payload: JSON.stringify(message),
    },
  );
}
