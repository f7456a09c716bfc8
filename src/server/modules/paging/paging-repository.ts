import { and, asc, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import {
  auditEvents,
  notifications,
  pages,
  rotationMembers,
  rotations,
  users,
} from '../../db/schema';

export type PageRow = typeof pages.$inferSelect;

/** A page row with its rotation's name and the facts that decide who manages the rotation. */
export interface PageWithRotation {
  page: PageRow;
  rotation: { id: number; name: string; createdById: number | null; suspended: boolean };
}

const rotationColumns = {
  id: rotations.id,
  name: rotations.name,
  createdById: rotations.createdById,
  suspended: rotations.suspended,
};

/** findPageRow reads a page with its rotation, without locking. */
export async function findPageRow(db: Db | Tx, id: number): Promise<PageWithRotation | undefined> {
  const [row] = await db
    .select({ page: pages, rotation: rotationColumns })
    .from(pages)
    .innerJoin(rotations, eq(rotations.id, pages.rotationId))
    .where(eq(pages.id, id))
    .limit(1);
  return row;
}

/** findRotationFacts returns a rotation's id, name, creator and suspension, or undefined. */
export async function findRotationFacts(db: Db | Tx, id: number) {
  const [row] = await db.select(rotationColumns).from(rotations).where(eq(rotations.id, id));
  return row;
}

/** listRotationPageRows returns a rotation's pages, newest first, below an id cursor. */
export async function listRotationPageRows(
  db: Db | Tx,
  rotation: PageWithRotation['rotation'],
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

/** A rotation member with the stored roles of their user. */
export interface MemberRoles {
  rotationId: number;
  userId: number;
  order: number;
  roles: string[];
  role: string;
}

/** listMemberRoles returns the members of the rotations with their users' roles, in order. */
export async function listMemberRoles(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<MemberRoles[]> {
  if (rotationIds.length === 0) return [];
  return db
    .select({
      rotationId: rotationMembers.rotationId,
      userId: rotationMembers.userId,
      order: rotationMembers.order,
      roles: users.roles,
      role: users.role,
    })
    .from(rotationMembers)
    .innerJoin(users, eq(users.id, rotationMembers.userId))
    .where(inArray(rotationMembers.rotationId, [...new Set(rotationIds)]))
    .orderBy(asc(rotationMembers.rotationId), asc(rotationMembers.order));
}

export type PageEventRow = typeof auditEvents.$inferSelect;

/** listPageEvents returns the history of the pages, oldest first (one query). */
export async function listPageEvents(
  db: Db | Tx,
  pageIds: readonly number[],
): Promise<PageEventRow[]> {
  if (pageIds.length === 0) return [];
  return db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.targetType, 'page'),
        inArray(
          auditEvents.targetId,
          pageIds.map((id) => String(id)),
        ),
      ),
    )
    .orderBy(asc(auditEvents.createdAt), asc(auditEvents.id));
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
