import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type {
  Integration,
  IntegrationList,
  IntegrationWithKey,
} from '../../../shared/contracts/integrations';
import type { User } from '../../../shared/contracts/users';
import type { OpenOptions } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { alerts, auditEvents, type IncidentPolicyCopy, integrations, pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { pageMessageCtx } from '../incidents/incident-text';
import { hashIntegrationKey } from './integration-keys';

/*
 * The integration suites' shared set-up: one app with the cast, integrations and incidents
 * emptied before each test, and the writers of rotations, integrations, incidents and alerts.
 * Each suite calls `setUpIntegrationSuite()` once; its hooks set the bindings below (an import
 * sees them as they are now), since the files of a worker share this module (decision 230).
 */

export const START = '2026-11-02T12:00:00Z';

export let t: TestApp;

export const people = {} as Record<
  'manager' | 'otherManager' | 'olivia' | 'noah' | 'iris' | 'admin' | 'outsider',
  User
>;

/** setUpIntegrationSuite registers the suite's hooks: the app, telling `onQuery` each query. */
export function setUpIntegrationSuite(onQuery?: OpenOptions['onQuery']) {
  beforeAll(async () => {
    t = await createTestApp({
      env: { PUBLIC_URL: 'https://baton.example.com', INBOUND_SMTP_PORT: '2525' },
      db: { onQuery },
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
}

export const suffix = () => Math.random().toString(36).slice(2, 7);

/** A rotation Morgan created, Olivia its holder and Noah its other member. */
export async function rotation(name = `Platform ${suffix()}`) {
  return insertRotation(t.database.db, {
    name,
    memberIds: [people.olivia.id, people.noah.id],
    holderId: people.olivia.id,
    createdById: people.manager.id,
    now: t.clock.now(),
  });
}

export async function create(
  user: User,
  body: Record<string, unknown>,
): Promise<IntegrationWithKey> {
  const res = await t.call(user, 'POST', '/api/integrations', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as IntegrationWithKey;
}

export async function list(user: User, query = ''): Promise<Integration[]> {
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
export async function insertIncident(
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
export async function insertAlert(
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

export async function auditOf(integrationId: number) {
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
