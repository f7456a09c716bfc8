import { and, asc, eq, gt, inArray, lt, lte, sql } from 'drizzle-orm';
import { type Db, selectRows, type Tx } from '../../db/client';
import { scheduleEntries, users } from '../../db/schema';
import type { UserRow } from '../users/user-repository';

export type ScheduleEntryRow = typeof scheduleEntries.$inferSelect;

/** An entry with its user's stored row (decrypted by the caller). */
export interface EntryWithUser {
  entry: ScheduleEntryRow;
  user: UserRow;
}

/** listEntriesWithUsers returns a rotation's schedule entries with their users, earliest first. */
export async function listEntriesWithUsers(
  db: Db | Tx,
  rotationId: number,
): Promise<EntryWithUser[]> {
  return db
    .select({ entry: scheduleEntries, user: users })
    .from(scheduleEntries)
    .innerJoin(users, eq(users.id, scheduleEntries.userId))
    .where(eq(scheduleEntries.rotationId, rotationId))
    .orderBy(asc(scheduleEntries.startAt), asc(scheduleEntries.id));
}

/** findCurrentEntry returns the entry covering `now` (start ≤ now < end), or undefined. */
export async function findCurrentEntry(
  db: Db | Tx,
  rotationId: number,
  now: Date,
): Promise<EntryWithUser | undefined> {
  const [row] = await db
    .select({ entry: scheduleEntries, user: users })
    .from(scheduleEntries)
    .innerJoin(users, eq(users.id, scheduleEntries.userId))
    .where(
      and(
        eq(scheduleEntries.rotationId, rotationId),
        lte(scheduleEntries.startAt, now),
        gt(scheduleEntries.endAt, now),
      ),
    )
    .orderBy(asc(scheduleEntries.startAt), asc(scheduleEntries.id))
    .limit(1);
  return row;
}

/** listOverlappingEntries returns a rotation's entries sharing any instant with [start, end). */
export async function listOverlappingEntries(
  tx: Tx,
  rotationId: number,
  start: Date,
  end: Date,
): Promise<ScheduleEntryRow[]> {
  return tx
    .select()
    .from(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.rotationId, rotationId),
        lt(scheduleEntries.startAt, end),
        gt(scheduleEntries.endAt, start),
      ),
    );
}

/** insertScheduleEntry stores a schedule entry. */
export async function insertScheduleEntry(
  tx: Tx,
  values: typeof scheduleEntries.$inferInsert,
): Promise<ScheduleEntryRow> {
  const [row] = await tx.insert(scheduleEntries).values(values).returning();
  return row;
}

/** findEntryRow returns a schedule entry by id, or undefined. */
export async function findEntryRow(db: Db | Tx, id: number): Promise<ScheduleEntryRow | undefined> {
  const [row] = await db.select().from(scheduleEntries).where(eq(scheduleEntries.id, id)).limit(1);
  return row;
}

/** deleteEntryRow deletes a schedule entry of a rotation; returns whether one was deleted. */
export async function deleteEntryRow(tx: Tx, rotationId: number, id: number): Promise<boolean> {
  const deleted = await tx
    .delete(scheduleEntries)
    .where(and(eq(scheduleEntries.id, id), eq(scheduleEntries.rotationId, rotationId)))
    .returning({ id: scheduleEntries.id });
  return deleted.length > 0;
}

/**
 * nextTransitionAfter returns the first instant after `after` at which one of the rotation's
 * entries starts or ends, or null (one statement).
 */
export async function nextTransitionAfter(
  tx: Db | Tx,
  rotationId: number,
  after: Date,
): Promise<Date | null> {
  const [row] = await selectRows<{ next: Date | string | null }>(
    tx,
    sql`select least(
          (select min(start_at) from schedule_entries where rotation_id = ${rotationId} and start_at > ${after}),
          (select min(end_at) from schedule_entries where rotation_id = ${rotationId} and end_at > ${after})
        ) as next`,
  );
  return row?.next ? new Date(row.next) : null;
}

/** listNextScheduleEntries returns, per rotation, the first schedule entry starting after `now`. */
export async function listNextScheduleEntries(
  db: Db | Tx,
  rotationIds: number[],
  now: Date,
): Promise<{ entry: ScheduleEntryRow; user: UserRow }[]> {
  if (rotationIds.length === 0) return [];
  return db
    .selectDistinctOn([scheduleEntries.rotationId], { entry: scheduleEntries, user: users })
    .from(scheduleEntries)
    .innerJoin(users, eq(users.id, scheduleEntries.userId))
    .where(and(inArray(scheduleEntries.rotationId, rotationIds), gt(scheduleEntries.startAt, now)))
    .orderBy(
      asc(scheduleEntries.rotationId),
      asc(scheduleEntries.startAt),
      asc(scheduleEntries.id),
    );
}

/** countScheduleEntries counts a rotation's schedule entries. */
export async function countScheduleEntries(db: Db | Tx, rotationId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduleEntries)
    .where(eq(scheduleEntries.rotationId, rotationId));
  return Number(row?.n ?? 0);
}

/** deleteScheduleEntriesFrom removes a user's schedule entries in a rotation that end after `now`. */
export async function deleteScheduleEntriesFrom(
  tx: Tx,
  rotationId: number,
  userId: number,
  now: Date,
): Promise<number> {
  const deleted = await tx
    .delete(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.rotationId, rotationId),
        eq(scheduleEntries.userId, userId),
        gt(scheduleEntries.endAt, now),
      ),
    )
    .returning({ id: scheduleEntries.id });
  return deleted.length;
}

/**
 * listUpcomingEntries returns the schedule entries that have not ended by `now` (of one rotation,
 * or every one), earliest first: one statement.
 */
export async function listUpcomingEntries(
  db: Db | Tx,
  now: Date,
  rotationId?: number,
): Promise<ScheduleEntryRow[]> {
  return db
    .select()
    .from(scheduleEntries)
    .where(
      and(
        gt(scheduleEntries.endAt, now),
        rotationId === undefined ? undefined : eq(scheduleEntries.rotationId, rotationId),
      ),
    )
    .orderBy(asc(scheduleEntries.startAt), asc(scheduleEntries.id));
}
