import { and, desc, eq, gt, inArray, lt, ne, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Db, selectRows, type Tx } from '../../db/client';
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
  /** who arranged it, when someone did (decision 218) */
  arrangedBy: UserRow | null;
}

const requesters = alias(users, 'requester');
const coverers = alias(users, 'covering_user');
const arrangers = alias(users, 'arranged_by');

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
      arrangedBy: arrangers,
    })
    .from(coverageRequests)
    .innerJoin(rotations, eq(rotations.id, coverageRequests.rotationId))
    .innerJoin(requesters, eq(requesters.id, coverageRequests.requesterId))
    .innerJoin(coverers, eq(coverers.id, coverageRequests.coveringUserId))
    .leftJoin(arrangers, eq(arrangers.id, coverageRequests.arrangedById))
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
  /** an arranged cover (decision 218): who arranged it; it is stored accepted, answered at once */
  arrangedById?: number | null;
}

/** insertCoverageRequest stores a coverage request: pending, or accepted when someone arranged it. */
export async function insertCoverageRequest(tx: Tx, request: NewCoverageRequest) {
  const arranged = request.arrangedById != null;
  const [row] = await tx
    .insert(coverageRequests)
    .values({
      ...request,
      status: arranged ? 'accepted' : 'pending',
      respondedAt: arranged ? request.createdAt : null,
    })
    .returning();
  return row;
}

/**
 * listOverlappingCover returns a rotation's accepted and running coverage windows overlapping
 * [start, end) (touching ends do not), earliest first, leaving out `exceptId`.
 */
export async function listOverlappingCover(
  db: Db | Tx,
  rotationId: number,
  start: Date,
  end: Date,
  exceptId?: number,
): Promise<CoverageRow[]> {
  const conditions = [
    eq(coverageRequests.rotationId, rotationId),
    inArray(coverageRequests.status, ['accepted', 'active']),
    lt(coverageRequests.startAt, end),
    gt(coverageRequests.endAt, start),
  ];
  if (exceptId !== undefined) conditions.push(ne(coverageRequests.id, exceptId));
  return db
    .select()
    .from(coverageRequests)
    .where(and(...conditions))
    .orderBy(coverageRequests.startAt, coverageRequests.id);
}

/**
 * onCallHoursOf returns each of `userIds`' hours holding a baton, in any rotation, in
 * [since, now), from the handoff history (one statement): each handoff's receiver holds from it
 * until the rotation's next handoff (or now); the holder at `since` counts from `since`.
 */
export async function onCallHoursOf(
  db: Db | Tx,
  userIds: readonly number[],
  since: Date,
  now: Date,
): Promise<Map<number, number>> {
  if (userIds.length === 0) return new Map();
  const ids = sql.join(
    userIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const rows = await selectRows<{ userId: number; seconds: number | string | null }>(
    db,
    sql`with h as (
          (select distinct on (rotation_id) rotation_id, to_user_id, occurred_at, id
             from handoffs where occurred_at < ${since}
            order by rotation_id, occurred_at desc, id desc)
          union all
          (select rotation_id, to_user_id, occurred_at, id
             from handoffs where occurred_at >= ${since} and occurred_at < ${now})
        ), spans as (
          select to_user_id,
                 greatest(occurred_at, ${since}::timestamptz) as s,
                 coalesce(lead(occurred_at) over (partition by rotation_id order by occurred_at, id),
                          ${now}::timestamptz) as e
            from h
        )
        select to_user_id as "userId", sum(extract(epoch from (e - s))) as seconds
          from spans where to_user_id in (${ids}) and e > s
         group by to_user_id`,
  );
  return new Map(rows.map((r) => [Number(r.userId), Number(r.seconds ?? 0) / 3600]));
}
