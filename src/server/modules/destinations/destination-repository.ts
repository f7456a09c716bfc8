import { and, desc, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DestinationKind } from '../../../shared/contracts/destinations';
import type { Db, Tx } from '../../db/client';
import {
  destinations,
  escalationPolicies,
  integrations,
  notifications,
  rotations,
} from '../../db/schema';
import { recordAuditEvent } from '../audit/audit-events';

/** Destinations' queries (decision 221): each list in one statement, whatever its length. */

export type DestinationRow = typeof destinations.$inferSelect;

/** A destination with what it belongs to: the names shown and the facts that decide who may. */
export interface DestinationWithTarget {
  destination: DestinationRow;
  /** the rotation it belongs to, or its integration's rotation */
  rotation: { id: number; name: string; createdById: number | null } | null;
  /** the policy it belongs to, or its integration's policy */
  policy: { id: number; name: string; createdById: number | null } | null;
  integration: { id: number; name: string } | null;
}

const integrationRotation = alias(rotations, 'integration_rotation');
const integrationPolicy = alias(escalationPolicies, 'integration_policy');

function selectWithTarget(db: Db | Tx) {
  return db
    .select({
      destination: destinations,
      rotationId: sql<number | null>`coalesce(${rotations.id}, ${integrationRotation.id})`,
      rotationName: sql<string | null>`coalesce(${rotations.name}, ${integrationRotation.name})`,
      rotationCreatedById: sql<
        number | null
      >`coalesce(${rotations.createdById}, ${integrationRotation.createdById})`,
      policyId: sql<number | null>`coalesce(${escalationPolicies.id}, ${integrationPolicy.id})`,
      policyName: sql<
        string | null
      >`coalesce(${escalationPolicies.name}, ${integrationPolicy.name})`,
      policyCreatedById: sql<
        number | null
      >`coalesce(${escalationPolicies.createdById}, ${integrationPolicy.createdById})`,
      integrationId: integrations.id,
      integrationName: integrations.name,
    })
    .from(destinations)
    .leftJoin(rotations, eq(rotations.id, destinations.rotationId))
    .leftJoin(escalationPolicies, eq(escalationPolicies.id, destinations.escalationPolicyId))
    .leftJoin(integrations, eq(integrations.id, destinations.integrationId))
    .leftJoin(integrationRotation, eq(integrationRotation.id, integrations.rotationId))
    .leftJoin(integrationPolicy, eq(integrationPolicy.id, integrations.escalationPolicyId));
}

type Selected = Awaited<ReturnType<ReturnType<typeof selectWithTarget>['where']>>[number];

function toWithTarget(row: Selected): DestinationWithTarget {
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return {
    destination: row.destination,
    rotation:
      row.rotationId === null
        ? null
        : {
            id: Number(row.rotationId),
            name: row.rotationName ?? '',
            createdById: num(row.rotationCreatedById),
          },
    policy:
      row.policyId === null
        ? null
        : {
            id: Number(row.policyId),
            name: row.policyName ?? '',
            createdById: num(row.policyCreatedById),
          },
    integration:
      row.integrationId === null
        ? null
        : { id: row.integrationId, name: row.integrationName ?? '' },
  };
}

export interface DestinationFilter {
  rotationId?: number;
  escalationPolicyId?: number;
  integrationId?: number;
  kind?: DestinationKind;
}

/** listDestinationRows reads the destinations matching the filter, oldest first: one statement. */
export async function listDestinationRows(
  db: Db | Tx,
  filter: DestinationFilter,
): Promise<DestinationWithTarget[]> {
  const rows = await selectWithTarget(db)
    .where(
      and(
        filter.rotationId === undefined
          ? undefined
          : eq(destinations.rotationId, filter.rotationId),
        filter.escalationPolicyId === undefined
          ? undefined
          : eq(destinations.escalationPolicyId, filter.escalationPolicyId),
        filter.integrationId === undefined
          ? undefined
          : eq(destinations.integrationId, filter.integrationId),
        filter.kind === undefined ? undefined : eq(destinations.kind, filter.kind),
      ),
    )
    .orderBy(destinations.id);
  return rows.map(toWithTarget);
}

/** findDestinationRow reads one destination with what it belongs to. */
export async function findDestinationRow(
  db: Db | Tx,
  id: number,
): Promise<DestinationWithTarget | undefined> {
  const [row] = await selectWithTarget(db).where(eq(destinations.id, id));
  return row ? toWithTarget(row) : undefined;
}

/** lockDestinationRow locks a destination's row for a change (FOR UPDATE). */
export async function lockDestinationRow(tx: Tx, id: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: destinations.id })
    .from(destinations)
    .where(eq(destinations.id, id))
    .for('update');
  return row !== undefined;
}

/** lockTargetIntegration reads an integration a destination is made for, locked FOR SHARE. */
export async function lockTargetIntegration(
  tx: Tx,
  id: number,
): Promise<
  { id: number; rotationId: number | null; escalationPolicyId: number | null } | undefined
> {
  const [row] = await tx
    .select({
      id: integrations.id,
      rotationId: integrations.rotationId,
      escalationPolicyId: integrations.escalationPolicyId,
    })
    .from(integrations)
    .where(eq(integrations.id, id))
    .for('share');
  return row;
}

export async function insertDestinationRow(
  tx: Tx,
  values: typeof destinations.$inferInsert,
): Promise<DestinationRow> {
  const [row] = await tx.insert(destinations).values(values).returning();
  return row;
}

export async function updateDestinationRow(
  tx: Tx,
  id: number,
  values: Partial<typeof destinations.$inferInsert>,
): Promise<void> {
  await tx.update(destinations).set(values).where(eq(destinations.id, id));
}

export async function deleteDestinationRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(destinations).where(eq(destinations.id, id));
}

/** listDeliveryRows reads a destination's messages, newest first: one statement. */
export async function listDeliveryRows(db: Db | Tx, destinationId: number, limit: number) {
  return db
    .select({
      id: notifications.id,
      kind: notifications.kind,
      status: notifications.status,
      attempts: notifications.attempts,
      createdAt: notifications.createdAt,
      sentAt: notifications.sentAt,
      nextAttemptAt: notifications.nextAttemptAt,
      lastError: notifications.lastError,
      providerResponse: notifications.providerResponse,
    })
    .from(notifications)
    .where(eq(notifications.destinationId, destinationId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

/**
 * listSubscribedDestinations reads the destinations of the rotation, the policies and the
 * integration that post `event`: one statement.
 */
export async function listSubscribedDestinations(
  db: Db | Tx,
  where: {
    rotationId?: number | null;
    policyIds?: readonly number[];
    integrationId?: number | null;
    destinationId?: number;
  },
  event: string,
): Promise<DestinationRow[]> {
  const targets: SQL[] = [];
  if (where.rotationId) targets.push(eq(destinations.rotationId, where.rotationId));
  if (where.policyIds && where.policyIds.length > 0) {
    targets.push(inArray(destinations.escalationPolicyId, [...where.policyIds]));
  }
  if (where.integrationId) targets.push(eq(destinations.integrationId, where.integrationId));
  if (targets.length === 0) return [];
  return db
    .select()
    .from(destinations)
    .where(
      and(
        or(...targets),
        sql`${destinations.events} ? ${event}`,
        where.destinationId === undefined ? undefined : eq(destinations.id, where.destinationId),
      ),
    )
    .orderBy(destinations.id);
}

/** listDigestDestinations reads every destination that posts the daily digest. */
export async function listDigestDestinations(db: Db | Tx): Promise<DestinationRow[]> {
  return db
    .select()
    .from(destinations)
    .where(and(sql`${destinations.events} ? 'digest'`, isNotNull(destinations.digestTime)))
    .orderBy(destinations.id);
}

/**
 * digestRotationIds answers, for each destination given, the rotations its digest is about: a
 * rotation's own; a policy's, every rotation following it; an integration's, its rotation or the
 * rotations following its policy. Two statements whatever the number of destinations.
 */
export async function digestRotationIds(
  db: Db | Tx,
  rows: readonly Pick<
    DestinationRow,
    'id' | 'rotationId' | 'escalationPolicyId' | 'integrationId'
  >[],
): Promise<Map<number, number[]>> {
  const integrationIds = rows.flatMap((d) => (d.integrationId ? [d.integrationId] : []));
  const owners =
    integrationIds.length === 0
      ? []
      : await db
          .select({
            id: integrations.id,
            rotationId: integrations.rotationId,
            escalationPolicyId: integrations.escalationPolicyId,
          })
          .from(integrations)
          .where(inArray(integrations.id, integrationIds));
  const integrationOf = new Map(owners.map((o) => [o.id, o]));
  const policyOf = (d: (typeof rows)[number]) =>
    d.escalationPolicyId ??
    (d.integrationId ? (integrationOf.get(d.integrationId)?.escalationPolicyId ?? null) : null);
  const policyIds = [...new Set(rows.flatMap((d) => policyOf(d) ?? []))];
  const following =
    policyIds.length === 0
      ? []
      : await db
          .select({ id: rotations.id, policyId: rotations.escalationPolicyId })
          .from(rotations)
          .where(inArray(rotations.escalationPolicyId, policyIds))
          .orderBy(rotations.name, rotations.id);
  const answer = new Map<number, number[]>();
  for (const d of rows) {
    const own =
      d.rotationId ?? (d.integrationId ? integrationOf.get(d.integrationId)?.rotationId : null);
    const policyId = policyOf(d);
    answer.set(
      d.id,
      own ? [own] : following.filter((r) => r.policyId === policyId).map((r) => r.id),
    );
  }
  return answer;
}

export type DestinationAuditAction =
  | 'destination.created'
  | 'destination.updated'
  | 'destination.deleted';

export async function insertDestinationAuditEvent(
  tx: Tx,
  event: {
    actorUserId: number;
    action: DestinationAuditAction;
    destinationId: number;
    details: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await recordAuditEvent(tx, {
    ...event,
    targetType: 'destination',
    targetId: event.destinationId,
  });
}
