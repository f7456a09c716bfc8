import { and, desc, eq, gt, inArray, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { coverageRequests, rotations, users } from '../../db/schema';
import type { UserRow } from '../users/user-repository';

export type CoverageRow = typeof coverageRequests.$inferSelect;

/** findCoverageRow returns a coverage request by id, or undefined. */
export async function findCoverageRow(db: Db | Tx, id: number): Promise<CoverageRow | undefined> {
  const [row] = await db
    .select()
    .from(coverageRequests)
    .where(eq(coverageRequests.id, id))
    .limit(1);
  return row;
}

/** setCoverageStatus changes a request's status (and when it was answered, for accept and decline). */
export async function setCoverageStatus(
  tx: Tx,
  id: number,
  status: CoverageRow['status'],
  respondedAt?: Date,
): Promise<void> {
  await tx
    .update(coverageRequests)
    .set(respondedAt ? { status, respondedAt } : { status })
    .where(eq(coverageRequests.id, id));
}

/** A coverage request with its rotation's name and both people's stored rows. */
export interface CoverageWithPeople {
  request: CoverageRow;
  rotation: { id: number; name: string };
  requester: UserRow;
  coveringUser: UserRow;
}

const requesters = alias(users, 'requester');
const coverers = alias(users, 'covering_user');

/**
 * listCoverageFor returns the requests a user made or was asked to cover (or, with
 * `coveringUserId`, only those they were asked to cover) whose window ends after `endsAfter`,
 * in one of `statuses` when given, newest first (one query), or the one with `id`.
 */
export async function listCoverageFor(
  db: Db | Tx,
  filter: {
    userId?: number;
    coveringUserId?: number;
    statuses?: CoverageRow['status'][];
    endsAfter?: Date;
    id?: number;
  },
): Promise<CoverageWithPeople[]> {
  const conditions = [];
  if (filter.userId !== undefined) {
    conditions.push(
      or(
        eq(coverageRequests.requesterId, filter.userId),
        eq(coverageRequests.coveringUserId, filter.userId),
      ),
    );
  }
  if (filter.coveringUserId !== undefined) {
    conditions.push(eq(coverageRequests.coveringUserId, filter.coveringUserId));
  }
  if (filter.statuses) conditions.push(inArray(coverageRequests.status, filter.statuses));
  if (filter.endsAfter) conditions.push(gt(coverageRequests.endAt, filter.endsAfter));
  if (filter.id !== undefined) conditions.push(eq(coverageRequests.id, filter.id));
  return db
    .select({
      request: coverageRequests,
      rotation: { id: rotations.id, name: rotations.name },
      requester: requesters,
      coveringUser: coverers,
    })
    .from(coverageRequests)
    .innerJoin(rotations, eq(rotations.id, coverageRequests.rotationId))
    .innerJoin(requesters, eq(requesters.id, coverageRequests.requesterId))
    .innerJoin(coverers, eq(coverers.id, coverageRequests.coveringUserId))
    .where(and(...conditions))
    .orderBy(desc(coverageRequests.startAt), desc(coverageRequests.id))
    .limit(200);
}

export interface NewCoverageRequest {
  rotationId: number;
  requesterId: number;
  coveringUserId: number;
  startAt: Date;
  endAt: Date;
  notes: string | null;
  createdAt: Date;
}

/** insertCoverageRequest stores a coverage request as pending. */
export async function insertCoverageRequest(tx: Tx, request: NewCoverageRequest) {
  const [row] = await tx
    .insert(coverageRequests)
    .values({ ...request, status: 'pending' })
    .returning();
  return row;
}
