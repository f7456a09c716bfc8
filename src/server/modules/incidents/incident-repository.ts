import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { auditEvents, escalationPolicies, pages, rotations } from '../../db/schema';

/** The rows the incident engine and actions read and write (decision 204). */

export type IncidentRow = typeof pages.$inferSelect;

/** The facts of an incident's rotation the engine and the actions need, when it has one. */
export interface IncidentRotation {
  id: number;
  name: string;
  createdById: number | null;
  suspended: boolean;
}

/** An incident row, with its rotation (null: raised on a policy alone). */
export interface LockedIncident {
  page: IncidentRow;
  rotation: IncidentRotation | null;
}

const rotationColumns = {
  id: rotations.id,
  name: rotations.name,
  createdById: rotations.createdById,
  suspended: rotations.suspended,
};

/** lockIncidentRow reads an incident with its rotation and locks the incident row (FOR UPDATE). */
export async function lockIncidentRow(tx: Tx, id: number): Promise<LockedIncident | undefined> {
  const [row] = await tx
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .leftJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(eq(pages.id, id))
    .for('update', { of: pages });
  if (!row) return undefined;
  return { page: row.page, rotation: row.rotation?.id == null ? null : row.rotation };
}

/** findIncidentRow reads an incident with its rotation, without locking. */
export async function findIncidentRow(
  db: Db | Tx,
  id: number,
): Promise<LockedIncident | undefined> {
  const [row] = await db
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .leftJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(eq(pages.id, id));
  if (!row) return undefined;
  return { page: row.page, rotation: row.rotation?.id == null ? null : row.rotation };
}

/** updateIncidentRow changes columns of an incident. */
export async function updateIncidentRow(
  tx: Tx,
  id: number,
  values: Partial<typeof pages.$inferInsert>,
): Promise<IncidentRow> {
  const [row] = await tx.update(pages).set(values).where(eq(pages.id, id)).returning();
  return row;
}

export type IncidentAction =
  | 'incident.raised'
  | 'incident.step_reached'
  | 'incident.step_skipped'
  | 'incident.escalated'
  | 'incident.reassigned'
  | 'incident.exhausted'
  | 'page.acknowledged'
  | 'page.resolved'
  | 'page.backup_notified';

/** insertIncidentEvent records a timeline event (audit_events, target type 'page'). */
export async function insertIncidentEvent(
  tx: Tx,
  event: {
    actorUserId: number | null;
    action: IncidentAction;
    incidentId: number;
    details: Record<string, unknown>;
    at: Date;
    /** the id, when taken from the sequence first (details sealed with it) */
    id?: number;
  },
): Promise<void> {
  await tx.insert(auditEvents).values({
    ...(event.id === undefined ? {} : { id: event.id }),
    actorUserId: event.actorUserId,
    action: event.action,
    targetType: 'page',
    targetId: String(event.incidentId),
    details: event.details,
    createdAt: event.at,
  });
}

/**
 * listDueIncidentIds returns, in one query (index pages_open_idx), the open incidents whose
 * policy has run out of nothing and whose current step's delay has passed at `now` (or whose step
 * was skipped): the engine's candidates. Each is decided again under its lock.
 */
export async function listDueIncidentIds(db: Db | Tx, now: Date): Promise<number[]> {
  const rows = await db
    .select({ id: pages.id })
    .from(pages)
    .where(
      and(
        inArray(pages.status, ['triggered', 'escalated']),
        isNull(pages.exhaustedAt),
        sql`${pages.stepStartedAt} <= ${now}`,
        sql`(${pages.stepSkipped} or ${pages.stepStartedAt} + make_interval(mins => coalesce((${pages.policy} -> 'steps' -> ${pages.stepIndex}::int ->> 'delayMinutes')::int, 0)) <= ${now})`,
      ),
    )
    .orderBy(pages.id);
  return rows.map((r) => r.id);
}

/**
 * lockTurns reads a policy's round-robin counters (per step index: how many turns the step gave)
 * under the policy row's lock; a deleted policy (null) has none and counts from 0 every time.
 */
export async function lockTurns(tx: Tx, policyId: number | null): Promise<number[]> {
  if (policyId === null) return [];
  const [row] = await tx
    .select({ turns: escalationPolicies.turns })
    .from(escalationPolicies)
    .where(eq(escalationPolicies.id, policyId))
    .for('update');
  return row?.turns ?? [];
}

/** storeTurn writes a round-robin step's counter once the step gave a turn. */
export async function storeTurn(
  tx: Tx,
  policyId: number | null,
  turns: readonly number[],
  stepIndex: number,
  turn: number,
): Promise<void> {
  if (policyId === null) return;
  const next = Array.from({ length: Math.max(turns.length, stepIndex + 1) }, (_, i) =>
    i === stepIndex ? turn : (turns[i] ?? 0),
  );
  await tx
    .update(escalationPolicies)
    .set({ turns: next })
    .where(eq(escalationPolicies.id, policyId));
}
