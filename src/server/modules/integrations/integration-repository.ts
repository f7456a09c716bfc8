import { and, count, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { alerts, escalationPolicies, integrations, pages, rotations } from '../../db/schema';
import { recordAuditEvent } from '../audit/audit-events';
import type { IntegrationRow } from './integration-keys';

/**
 * The rows of integrations and of the alerts they received (issue 17, decision 210): queries
 * only, each list in one statement whatever its length.
 */

/** An integration with the names and creators of what its incidents follow. */
export interface IntegrationWithTarget {
  integration: IntegrationRow;
  /** its rotation (null: it follows a policy alone) */
  rotation: { id: number; name: string; createdById: number | null } | null;
  /** its escalation policy (null: it follows a rotation) */
  policy: { id: number; name: string; createdById: number | null } | null;
}

const targetColumns = {
  integration: integrations,
  rotationId: rotations.id,
  rotationName: rotations.name,
  rotationCreatedById: rotations.createdById,
  policyId: escalationPolicies.id,
  policyName: escalationPolicies.name,
  policyCreatedById: escalationPolicies.createdById,
};

type TargetRow = {
  integration: IntegrationRow;
  rotationId: number | null;
  rotationName: string | null;
  rotationCreatedById: number | null;
  policyId: number | null;
  policyName: string | null;
  policyCreatedById: number | null;
};

function withTarget(row: TargetRow): IntegrationWithTarget {
  return {
    integration: row.integration,
    rotation:
      row.rotationId === null
        ? null
        : {
            id: row.rotationId,
            name: row.rotationName ?? '',
            createdById: row.rotationCreatedById,
          },
    policy:
      row.policyId === null
        ? null
        : { id: row.policyId, name: row.policyName ?? '', createdById: row.policyCreatedById },
  };
}

function selectWithTarget(db: Db | Tx) {
  return db
    .select(targetColumns)
    .from(integrations)
    .leftJoin(rotations, eq(rotations.id, integrations.rotationId))
    .leftJoin(escalationPolicies, eq(escalationPolicies.id, integrations.escalationPolicyId));
}

/** The list's filters: one rotation's integrations, or one policy's. */
export interface IntegrationFilters {
  rotationId?: number;
  escalationPolicyId?: number;
}

/** listIntegrationRows reads the integrations the filters keep, by name, with their targets. */
export async function listIntegrationRows(
  db: Db | Tx,
  filters: IntegrationFilters = {},
): Promise<IntegrationWithTarget[]> {
  const rows = await selectWithTarget(db)
    .where(
      and(
        filters.rotationId === undefined
          ? undefined
          : eq(integrations.rotationId, filters.rotationId),
        filters.escalationPolicyId === undefined
          ? undefined
          : eq(integrations.escalationPolicyId, filters.escalationPolicyId),
      ),
    )
    .orderBy(sql`lower(${integrations.name})`, integrations.id);
  return rows.map(withTarget);
}

/** findIntegrationRow reads one integration with its target, or undefined. */
export async function findIntegrationRow(
  db: Db | Tx,
  id: number,
): Promise<IntegrationWithTarget | undefined> {
  const [row] = await selectWithTarget(db).where(eq(integrations.id, id));
  return row ? withTarget(row) : undefined;
}

/**
 * listIntegrationRowsOfIncident reads, with their targets, the integrations whose alerts an
 * incident took in (one statement; in practice the one that raised it).
 */
export async function listIntegrationRowsOfIncident(
  db: Db | Tx,
  incidentId: number,
): Promise<IntegrationWithTarget[]> {
  const rows = await selectWithTarget(db).where(
    inArray(
      integrations.id,
      db
        .selectDistinct({ id: alerts.integrationId })
        .from(alerts)
        .where(eq(alerts.pageId, incidentId)),
    ),
  );
  return rows.map(withTarget);
}

/** lockIntegrationRow reads an integration with its target and locks the integration's row. */
export async function lockIntegrationRow(
  tx: Tx,
  id: number,
): Promise<IntegrationWithTarget | undefined> {
  const [row] = await selectWithTarget(tx)
    .where(eq(integrations.id, id))
    .for('update', { of: integrations });
  return row ? withTarget(row) : undefined;
}

export type NewIntegrationRow = typeof integrations.$inferInsert & { id: number };

/** insertIntegrationRow stores an integration whose id was taken from its sequence first. */
export async function insertIntegrationRow(
  tx: Tx,
  values: NewIntegrationRow,
): Promise<IntegrationRow> {
  const [row] = await tx.insert(integrations).values(values).returning();
  return row;
}

/** updateIntegrationRow changes columns of an integration. */
export async function updateIntegrationRow(
  tx: Tx,
  id: number,
  values: Partial<typeof integrations.$inferInsert>,
): Promise<IntegrationRow> {
  const [row] = await tx
    .update(integrations)
    .set(values)
    .where(eq(integrations.id, id))
    .returning();
  return row;
}

/**
 * deleteIntegrationRow deletes an integration: its alerts and dedup keys go with it (cascade), its
 * incidents stay, no longer naming it (set null).
 */
export async function deleteIntegrationRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(integrations).where(eq(integrations.id, id));
}

/** What the list shows of an integration's use. */
export interface IntegrationCounts {
  alerts: number;
  incidents: number;
  openIncidents: number;
}

const OPEN_STATUSES = ['triggered', 'escalated', 'acknowledged'];

/**
 * countIntegrationUse counts, for each integration, its alerts and the incidents it raised (and
 * of those the open ones): two grouped statements whatever their number.
 */
export async function countIntegrationUse(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, IntegrationCounts>> {
  const counts = new Map<number, IntegrationCounts>(
    ids.map((id) => [id, { alerts: 0, incidents: 0, openIncidents: 0 }]),
  );
  if (ids.length === 0) return counts;
  const alertRows = await db
    .select({
      id: alerts.integrationId,
      n: sql<number>`count(*)::int`.mapWith(Number),
    })
    .from(alerts)
    .where(inArray(alerts.integrationId, [...ids]))
    .groupBy(alerts.integrationId);
  const incidentRows = await db
    .select({
      id: sql<number>`${pages.integrationId}`.mapWith(Number),
      n: sql<number>`count(*)::int`.mapWith(Number),
      open: sql<number>`(count(*) filter (where ${inArray(pages.status, OPEN_STATUSES)}))::int`.mapWith(
        Number,
      ),
    })
    .from(pages)
    .where(inArray(pages.integrationId, [...ids]))
    .groupBy(pages.integrationId);
  for (const row of alertRows) {
    const found = counts.get(row.id);
    if (found) found.alerts = row.n;
  }
  for (const row of incidentRows) {
    const found = counts.get(row.id);
    if (found) {
      found.incidents = row.n;
      found.openIncidents = row.open;
    }
  }
  return counts;
}

/** findIntegrationNames answers the names of the integrations with these ids (one statement). */
export async function findIntegrationNames(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: integrations.id, name: integrations.name })
    .from(integrations)
    .where(inArray(integrations.id, wanted));
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** The outcomes that count as an incident's distinct alerts: those that raised, folded or changed it. */
export const COUNTED_OUTCOMES = ['raised', 'folded', 'updated'] as const;

/** An incident's distinct alerts: how many, and when the latest arrived. */
export interface IncidentAlertCount {
  alertCount: number;
  lastAlertAt: Date | null;
}

/**
 * countIncidentAlerts answers, in one statement, each incident's count of distinct alerts and the
 * time of its latest (decision 216): counted from the alerts, not kept on the incident, so a
 * storm's many folds never queue on its row.
 */
export async function countIncidentAlerts(
  db: Db | Tx,
  pageIds: readonly number[],
): Promise<Map<number, IncidentAlertCount>> {
  const wanted = [...new Set(pageIds)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({
      pageId: alerts.pageId,
      n: count(),
      last: sql<string | Date | null>`max(${alerts.receivedAt})`,
    })
    .from(alerts)
    .where(and(inArray(alerts.pageId, wanted), inArray(alerts.outcome, [...COUNTED_OUTCOMES])))
    .groupBy(alerts.pageId);
  return new Map(
    rows.map((r) => [
      Number(r.pageId),
      { alertCount: Number(r.n), lastAlertAt: r.last === null ? null : new Date(r.last) },
    ]),
  );
}

export type AlertRow = typeof alerts.$inferSelect;

/** An alert row with the name of its integration. */
export interface AlertWithIntegration {
  alert: AlertRow;
  integrationName: string;
}

/**
 * listAlertRows reads a page of alerts, newest first (by id), below the cursor: an integration's
 * or an incident's, each with its integration's name, in one statement.
 */
export async function listAlertRows(
  db: Db | Tx,
  of: { integrationId: number } | { incidentId: number },
  page: { limit: number; before?: number },
): Promise<AlertWithIntegration[]> {
  const whose: SQL =
    'integrationId' in of
      ? eq(alerts.integrationId, of.integrationId)
      : eq(alerts.pageId, of.incidentId);
  return db
    .select({ alert: alerts, integrationName: integrations.name })
    .from(alerts)
    .innerJoin(integrations, eq(integrations.id, alerts.integrationId))
    .where(and(whose, page.before === undefined ? undefined : lt(alerts.id, page.before)))
    .orderBy(desc(alerts.id))
    .limit(page.limit);
}

export type IntegrationAuditAction =
  | 'integration.created'
  | 'integration.updated'
  | 'integration.key_regenerated'
  | 'integration.deleted';

/**
 * insertIntegrationAuditEvent records a change to an integration in the administrative trail
 * (never its key or its signing secret: the details hold names and which fields changed).
 */
export async function insertIntegrationAuditEvent(
  tx: Tx,
  event: {
    actorUserId: number;
    action: IntegrationAuditAction;
    integrationId: number;
    details: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await recordAuditEvent(tx, {
    ...event,
    targetType: 'integration',
    targetId: event.integrationId,
  });
}
