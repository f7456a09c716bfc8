import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { IncidentStatus, Severity } from '../../../shared/contracts/incidents';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { auditEvents, notifications, pages, rotationMembers, rotations } from '../../db/schema';
import { sealReason } from '../paging/page-message';

/**
 * Reading incidents (issue 16, decision 205): the rows of `pages` (a page is an incident), their
 * rotation, their timeline events and notifications, each in one query for any number of
 * incidents. The write side (raising, steps, actions) is the engine's.
 */

export type IncidentRow = typeof pages.$inferSelect;
export type IncidentEventRow = typeof auditEvents.$inferSelect;

/** An incident with its rotation (null: raised on an escalation policy alone). */
export interface IncidentWithRotation {
  page: IncidentRow;
  rotation: { id: number; name: string; createdById: number | null; suspended: boolean } | null;
}

// ---------------------------------------------------------------------------------------------
// Sealed fields

/**
 * The incident's sealed columns and the field name bound into each envelope's associated data:
 * (pages, <field>, incident id), as pageMessageCtx binds the message. keys:rotate re-seals them
 * (src/server/crypto/key-rotation.ts).
 */
export const INCIDENT_SEALED_FIELDS = {
  title: { column: 'title_enc', field: 'title' },
  description: { column: 'description_enc', field: 'description' },
  impact: { column: 'impact_enc', field: 'impact' },
  troubleshooting: { column: 'troubleshooting_enc', field: 'troubleshooting' },
} as const;
export type IncidentSealedField = keyof typeof INCIDENT_SEALED_FIELDS;

/** incidentFieldCtx binds a sealed incident field to its row. */
export const incidentFieldCtx = (field: IncidentSealedField, incidentId: number) => ({
  table: 'pages',
  column: INCIDENT_SEALED_FIELDS[field].field,
  rowId: incidentId,
});

/**
 * A note's text is sealed as an escalation reason is (decision 205): an envelope under
 * `details.reasonEnc` of its 'incident.note' event, bound to (audit_events, reason, event id).
 * The audit trail's hash leaves exactly that key out (migration 0006), which is what lets
 * keys:rotate re-seal it; a key of its own (`noteEnc`) would need a migration first.
 */
export const sealNote = (cipher: FieldCipher, eventId: number, text: string) =>
  sealReason(cipher, eventId, text);

// ---------------------------------------------------------------------------------------------
// Incident rows

const rotationColumns = {
  id: rotations.id,
  name: rotations.name,
  createdById: rotations.createdById,
  suspended: rotations.suspended,
};

const withRotation = (row: {
  page: IncidentRow;
  rotation: IncidentWithRotation['rotation'];
}): IncidentWithRotation => ({ page: row.page, rotation: row.rotation?.id ? row.rotation : null });

/** findIncidentRow reads one incident with its rotation, without locking. */
export async function findIncidentRow(
  db: Db | Tx,
  id: number,
): Promise<IncidentWithRotation | undefined> {
  const [row] = await db
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .leftJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(eq(pages.id, id))
    .limit(1);
  return row ? withRotation(row) : undefined;
}

/** lockIncidentRow reads an incident and locks its row until the transaction ends. */
export async function lockIncidentRow(
  tx: Tx,
  id: number,
): Promise<IncidentWithRotation | undefined> {
  const [row] = await tx
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .leftJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(eq(pages.id, id))
    .for('update', { of: pages });
  return row ? withRotation(row) : undefined;
}

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
): Promise<IncidentWithRotation[]> {
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
): Promise<IncidentWithRotation[]> {
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
