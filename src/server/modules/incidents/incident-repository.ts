import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { IncidentStatus, Severity } from '../../../shared/contracts/incidents';
import type { Db, Tx } from '../../db/client';
import {
  auditEvents,
  escalationPolicies,
  notifications,
  pages,
  rotationMembers,
  rotations,
} from '../../db/schema';

/**
 * The rows of incidents (a page is an incident): what the engine and the actions read and write
 * (decision 204), and the list, timeline events and notifications the reads take, each in one
 * query for any number of incidents (decision 205).
 */

export type IncidentRow = typeof pages.$inferSelect;
export type IncidentEventRow = typeof auditEvents.$inferSelect;

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

const withRotation = (row: {
  page: IncidentRow;
  rotation: IncidentRotation | null;
}): LockedIncident => ({
  page: row.page,
  rotation: row.rotation?.id == null ? null : row.rotation,
});

/** lockIncidentRow reads an incident with its rotation and locks the incident row (FOR UPDATE). */
export async function lockIncidentRow(tx: Tx, id: number): Promise<LockedIncident | undefined> {
  const [row] = await tx
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .leftJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(eq(pages.id, id))
    .for('update', { of: pages });
  return row ? withRotation(row) : undefined;
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
  return row ? withRotation(row) : undefined;
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
  | 'page.backup_notified'
  /** an alert event that changed an open incident: a new event on its key, or one folded in */
  | 'incident.alert';

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

// ---------------------------------------------------------------------------------------------
// Reading

/** The list's filters, but the status and the cursor. */
export interface IncidentFilters {
  /** only incidents that notified this user */
  notifiedUserId?: number;
  open?: boolean;
  severity?: Severity;
  rotationId?: number;
}

/** The stored statuses an incident status covers ('triggered' includes 'escalated'). */
export const STORED_STATUSES: Record<IncidentStatus, string[]> = {
  triggered: ['triggered', 'escalated'],
  acknowledged: ['acknowledged'],
  resolved: ['resolved'],
};

function filterClauses(filters: IncidentFilters): (SQL | undefined)[] {
  return [
    filters.notifiedUserId === undefined
      ? undefined
      : sql`${filters.notifiedUserId}::int = any(${pages.notifiedIds})`,
    filters.open ? inArray(pages.status, ['triggered', 'escalated', 'acknowledged']) : undefined,
    filters.severity === undefined ? undefined : eq(pages.severity, filters.severity),
    filters.rotationId === undefined ? undefined : eq(pages.rotationId, filters.rotationId),
  ];
}

const statusClause = (status: IncidentStatus | undefined) =>
  status === undefined ? undefined : inArray(pages.status, STORED_STATUSES[status]);

/**
 * Below the cursor in the list's order (created_at desc, id desc). A cursor whose incident is
 * gone (its rotation deleted) still pages on: the ids below it.
 */
function beforeClause(before: number | undefined): SQL | undefined {
  if (before === undefined) return undefined;
  return sql`(
    (${pages.createdAt}, ${pages.id}) < (select c.created_at, c.id from pages c where c.id = ${before})
    or (not exists (select 1 from pages c where c.id = ${before}) and ${pages.id} < ${before})
  )`;
}

const newestFirst = [desc(pages.createdAt), desc(pages.id)];

/** listIncidentRows returns a page of incidents, newest first, below the cursor (one query). */
export async function listIncidentRows(
  db: Db | Tx,
  filters: IncidentFilters & { status?: IncidentStatus },
  page: { limit: number; before?: number },
): Promise<LockedIncident[]> {
  const rows = await db
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .leftJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(and(...filterClauses(filters), statusClause(filters.status), beforeClause(page.before)))
    .orderBy(...newestFirst)
    .limit(page.limit);
  return rows.map(withRotation);
}

/** listIncidentRowsByIds returns the incidents with these ids, newest first (one query). */
export async function listIncidentRowsByIds(
  db: Db | Tx,
  ids: readonly number[],
): Promise<LockedIncident[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .leftJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(inArray(pages.id, [...ids]))
    .orderBy(...newestFirst);
  return rows.map(withRotation);
}

/** What a title search reads of every incident the other filters keep: enough to open the title. */
export interface IncidentTitleRow {
  id: number;
  createdAt: Date;
  status: string;
  titleEnc: string | null;
  messageEnc: string | null;
  legacyMessage: string | null;
}

/**
 * listIncidentTitles returns, newest first, the id, status and sealed title of every incident the
 * filters keep (status and cursor aside: the search counts by status and pages after reading).
 */
export async function listIncidentTitles(
  db: Db | Tx,
  filters: IncidentFilters,
): Promise<IncidentTitleRow[]> {
  return db
    .select({
      id: pages.id,
      createdAt: pages.createdAt,
      status: pages.status,
      titleEnc: pages.titleEnc,
      // the message only where it is the title: half the bytes to read for most incidents
      messageEnc: sql<
        string | null
      >`case when ${pages.titleEnc} is null then ${pages.messageEnc} end`,
      legacyMessage: sql<
        string | null
      >`case when ${pages.titleEnc} is null then ${pages.legacyMessage} end`,
    })
    .from(pages)
    .where(and(...filterClauses(filters)))
    .orderBy(...newestFirst);
}

/** countIncidentsByStatus counts the incidents the filters keep, by stored status (one query). */
export async function countIncidentsByStatus(
  db: Db | Tx,
  filters: IncidentFilters,
): Promise<{ status: string; n: number }[]> {
  return db
    .select({ status: pages.status, n: sql<number>`count(*)::int`.mapWith(Number) })
    .from(pages)
    .where(and(...filterClauses(filters)))
    .groupBy(pages.status);
}

// ---------------------------------------------------------------------------------------------
// What an incident's view reads besides its row

/** listIncidentEvents returns the timeline events of the incidents, oldest first (one query). */
export async function listIncidentEvents(
  db: Db | Tx,
  incidentIds: readonly number[],
  actions?: readonly string[],
): Promise<IncidentEventRow[]> {
  if (incidentIds.length === 0) return [];
  return db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.targetType, 'page'),
        inArray(
          auditEvents.targetId,
          incidentIds.map((id) => String(id)),
        ),
        actions ? inArray(auditEvents.action, [...actions]) : undefined,
      ),
    )
    .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
}

/** A notification about an incident, as its timeline shows it. */
export interface IncidentNotificationRow {
  id: number;
  pageId: number;
  userId: number | null;
  channel: string;
  status: string;
  attempts: number;
  lastError: string | null;
  providerResponse: string | null;
  createdAt: Date;
}

/** listIncidentNotifications returns the notifications about the incidents, in order (one query). */
export async function listIncidentNotifications(
  db: Db | Tx,
  incidentIds: readonly number[],
): Promise<IncidentNotificationRow[]> {
  if (incidentIds.length === 0) return [];
  return db
    .select({
      id: notifications.id,
      pageId: sql<number>`${notifications.pageId}`.mapWith(Number),
      userId: notifications.userId,
      channel: notifications.channel,
      status: notifications.status,
      attempts: notifications.attempts,
      lastError: notifications.lastError,
      providerResponse: notifications.providerResponse,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(inArray(notifications.pageId, [...incidentIds]))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));
}

/** listRotationMemberIds returns each rotation's member ids (one query): who manages it. */
export async function listRotationMemberIds(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<Map<number, number[]>> {
  const byRotation = new Map<number, number[]>();
  if (rotationIds.length === 0) return byRotation;
  const rows = await db
    .select({ rotationId: rotationMembers.rotationId, userId: rotationMembers.userId })
    .from(rotationMembers)
    .where(inArray(rotationMembers.rotationId, [...new Set(rotationIds)]))
    .orderBy(asc(rotationMembers.rotationId), asc(rotationMembers.order));
  for (const row of rows) {
    byRotation.set(row.rotationId, [...(byRotation.get(row.rotationId) ?? []), row.userId]);
  }
  return byRotation;
}
