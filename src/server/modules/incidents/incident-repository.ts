import {
  and,
  asc,
  desc,
  eq,
  gt,
  inArray,
  isNull,
  lt,
  lte,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { IncidentStatus, Severity } from '../../../shared/contracts/incidents';
import type { Db, Tx } from '../../db/client';
import { auditEvents, escalationPolicies, notifications, pages, rotations } from '../../db/schema';
import { recordAuditEvent } from '../audit/audit-events';

/**
 * The rows of incidents (a page is an incident): what the engine and the actions read and write
 * (decision 204), the list, timeline events and notifications the reads take, each in one query
 * for any number of incidents (decision 205), and the Page API's reads. Every query on the `pages`
 * table is here (decision 239).
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

/** An incident raised on a rotation, as the Page API and the acknowledgement link see it. */
export interface PageWithRotation {
  page: IncidentRow;
  rotation: IncidentRotation;
}

/** findPageRow reads an incident raised on a rotation (a page) with its rotation, without locking. */
export async function findPageRow(db: Db | Tx, id: number): Promise<PageWithRotation | undefined> {
  const found = await findIncidentRow(db, id);
  return found?.rotation ? { page: found.page, rotation: found.rotation } : undefined;
}

/** insertIncidentRow writes a new incident row and returns it. */
export async function insertIncidentRow(
  tx: Tx,
  values: typeof pages.$inferInsert,
): Promise<IncidentRow> {
  const [row] = await tx.insert(pages).values(values).returning();
  return row;
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
  /** a paged person's notification rules that could not reach them, and why (decision 251) */
  | 'incident.rules_skipped'
  /** what a phone call to a paged person came to, and the key they pressed (decision 252) */
  | 'incident.call'
  /** a responder's note, its text sealed in the details with the event's id */
  | 'incident.note'
  /** an alert event that changed an open incident: a new event on its key, or one folded in */
  | 'incident.alert'
  /** a resolved incident taken back to triggered, with an optional sealed reason (decision 261) */
  | 'incident.reopened';

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
  await recordAuditEvent(tx, { ...event, targetType: 'page', targetId: event.incidentId });
}

/**
 * listDueIncidentIds returns, in one query (index pages_open_idx), the open incidents whose
 * policy has run out of nothing and whose current step's delay has passed at `now` (or whose step
 * was skipped): the engine's candidates. Each is decided again under its lock.
 */
/** when an incident's current step is due: its start plus the step's delay (the copied policy's) */
const stepDueAt = sql`(${pages.stepStartedAt} + make_interval(mins => coalesce((${pages.policy} -> 'steps' -> ${pages.stepIndex}::int ->> 'delayMinutes')::int, 0)))`;

/**
 * nextIncidentDueAt answers when the earliest open incident's next step falls due after `now`
 * (null: none is waiting), by the same reckoning as listDueIncidentIds: the engine wakes then
 * (decision 275).
 */
export async function nextIncidentDueAt(db: Db | Tx, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ ms: sql<number | null>`(extract(epoch from min(${stepDueAt})) * 1000)::float8` })
    .from(pages)
    .where(
      and(
        inArray(pages.status, ['triggered', 'escalated']),
        isNull(pages.exhaustedAt),
        sql`not ${pages.stepSkipped}`,
        sql`${stepDueAt} > ${now}`,
      ),
    );
  return row?.ms == null ? null : new Date(Number(row.ms));
}

export async function listDueIncidentIds(db: Db | Tx, now: Date): Promise<number[]> {
  const rows = await db
    .select({ id: pages.id })
    .from(pages)
    .where(
      and(
        inArray(pages.status, ['triggered', 'escalated']),
        isNull(pages.exhaustedAt),
        sql`${pages.stepStartedAt} <= ${now}`,
        sql`(${pages.stepSkipped} or ${stepDueAt} <= ${now})`,
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
  /** when it is due (a rule's delayed message, decision 251), or its next attempt */
  nextAttemptAt: Date;
  /** why it waited: 'working-hours' or 'limit' (decision 254) */
  held: string | null;
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
      nextAttemptAt: notifications.nextAttemptAt,
      held: notifications.held,
    })
    .from(notifications)
    .where(inArray(notifications.pageId, [...incidentIds]))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));
}

// ---------------------------------------------------------------------------------------------
// The Page API's reads, the people and the members

/** findRotationFacts returns a rotation's id, name, creator and suspension, or undefined. */
export async function findRotationFacts(db: Db | Tx, id: number) {
  const [row] = await db.select(rotationColumns).from(rotations).where(eq(rotations.id, id));
  return row;
}

/** listRotationPageRows returns a rotation's pages, newest first, below an id cursor. */
export async function listRotationPageRows(
  db: Db | Tx,
  rotation: IncidentRotation,
  page: { limit: number; before?: number },
): Promise<PageWithRotation[]> {
  const rows = await db
    .select()
    .from(pages)
    .where(
      and(eq(pages.rotationId, rotation.id), page.before ? lt(pages.id, page.before) : undefined),
    )
    .orderBy(desc(pages.createdAt), desc(pages.id))
    .limit(page.limit);
  return rows.map((row) => ({ page: row, rotation }));
}

/** listTargetPageRows returns the unresolved pages with a user as their current recipient. */
export async function listTargetPageRows(
  db: Db | Tx,
  userId: number,
  limit: number,
): Promise<PageWithRotation[]> {
  return db
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .innerJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(and(eq(pages.targetUserId, userId), ne(pages.status, 'resolved')))
    .orderBy(desc(pages.createdAt), desc(pages.id))
    .limit(limit);
}

/** existingDedupeKeys returns which of the notification dedupe keys already exist (one query). */
export async function existingDedupeKeys(
  db: Db | Tx,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: notifications.dedupeKey })
    .from(notifications)
    .where(inArray(notifications.dedupeKey, [...keys]));
  return new Set(rows.map((r) => r.key));
}

/** A notification about a page that failed for good (decision 163). */
export interface DeliveryFailureRow {
  id: number;
  pageId: number;
  userId: number | null;
  channel: string;
  lastError: string | null;
  providerResponse: string | null;
  /** when it failed; rows failed before migration 0007 have only their creation time */
  at: Date;
}

const failureColumns = {
  id: notifications.id,
  pageId: sql<number>`${notifications.pageId}`,
  userId: notifications.userId,
  channel: notifications.channel,
  lastError: notifications.lastError,
  providerResponse: notifications.providerResponse,
  at: sql<Date>`coalesce(${notifications.failedAt}, ${notifications.createdAt})`.mapWith(
    notifications.createdAt,
  ),
};

/** listDeliveryFailures returns the notifications about the pages that failed for good (one query). */
export async function listDeliveryFailures(
  db: Db | Tx,
  pageIds: readonly number[],
): Promise<DeliveryFailureRow[]> {
  if (pageIds.length === 0) return [];
  return db
    .select(failureColumns)
    .from(notifications)
    .where(and(inArray(notifications.pageId, [...pageIds]), eq(notifications.status, 'failed')))
    .orderBy(asc(notifications.id));
}

/**
 * listPagerDeliveryFailures returns, newest first, the notifications that failed for good since
 * `since` about the open pages the user sent, to anyone but the user (one query).
 */
export async function listPagerDeliveryFailures(
  db: Db | Tx,
  pagerId: number,
  since: Date,
  limit: number,
): Promise<(DeliveryFailureRow & { rotation: { id: number; name: string } })[]> {
  return db
    .select({ ...failureColumns, rotation: { id: rotations.id, name: rotations.name } })
    .from(notifications)
    .innerJoin(pages, eq(pages.id, notifications.pageId))
    .innerJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(
      and(
        eq(pages.pagedById, pagerId),
        inArray(pages.status, ['triggered', 'escalated']),
        eq(notifications.status, 'failed'),
        gt(notifications.failedAt, since),
        or(isNull(notifications.userId), ne(notifications.userId, pagerId)),
      ),
    )
    .orderBy(desc(notifications.failedAt), desc(notifications.id))
    .limit(limit);
}

/**
 * listPagedRecently returns which of the people had a notification of one of `kinds` since
 * `since` (and not after `now`) about another still unacknowledged incident of the integration
 * (one query): the follow-up lookup of decision 213.
 */
export async function listPagedRecently(
  tx: Tx,
  query: {
    integrationId: number;
    exceptIncidentId: number;
    userIds: readonly number[];
    kinds: readonly string[];
    since: Date;
    now: Date;
  },
): Promise<Set<number>> {
  if (query.userIds.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ userId: notifications.userId })
    .from(notifications)
    .innerJoin(pages, eq(pages.id, notifications.pageId))
    .where(
      and(
        eq(pages.integrationId, query.integrationId),
        ne(pages.id, query.exceptIncidentId),
        inArray(pages.status, ['triggered', 'escalated']),
        // Implied (a step's notifications are as old as its start, and steps only move on), and
        // it keeps the scan to the integration's recent steps, not all its incidents ever.
        gt(pages.stepStartedAt, query.since),
        inArray(notifications.userId, [...query.userIds]),
        inArray(notifications.kind, [...query.kinds]),
        gt(notifications.createdAt, query.since),
        lte(notifications.createdAt, query.now),
      ),
    );
  return new Set(rows.flatMap((r) => (r.userId === null ? [] : [r.userId])));
}
