import { and, asc, eq, gt, inArray, lt, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { timeOff } from '../../db/schema';

/** Time off's queries (issue 18): the `time_off` table only. */

export type TimeOffRow = typeof timeOff.$inferSelect;

/** The field cipher's binding of a time off's note: (time_off, note, id). */
export const timeOffNoteCtx = (id: number) => ({ table: 'time_off', column: 'note', rowId: id });

/** listTimeOffOf returns a person's time off that ends after `endsAfter`, earliest first. */
export async function listTimeOffOf(
  db: Db | Tx,
  userId: number,
  endsAfter: Date,
): Promise<TimeOffRow[]> {
  return db
    .select()
    .from(timeOff)
    .where(and(eq(timeOff.userId, userId), gt(timeOff.endAt, endsAfter)))
    .orderBy(asc(timeOff.startAt), asc(timeOff.id));
}

/**
 * listTimeOffOfPeople returns the time off of `userIds` (everyone's when undefined) ending after
 * `endsAfter`, earliest first: one statement.
 */
export async function listTimeOffOfPeople(
  db: Db | Tx,
  userIds: readonly number[] | undefined,
  endsAfter: Date,
): Promise<TimeOffRow[]> {
  if (userIds !== undefined && userIds.length === 0) return [];
  return db
    .select()
    .from(timeOff)
    .where(
      and(
        userIds === undefined ? undefined : inArray(timeOff.userId, [...userIds]),
        gt(timeOff.endAt, endsAfter),
      ),
    )
    .orderBy(asc(timeOff.startAt), asc(timeOff.id));
}

/** findTimeOffRow returns one entry of a person's time off, or undefined. */
export async function findTimeOffRow(
  db: Db | Tx,
  userId: number,
  id: number,
): Promise<TimeOffRow | undefined> {
  const [row] = await db
    .select()
    .from(timeOff)
    .where(and(eq(timeOff.id, id), eq(timeOff.userId, userId)))
    .limit(1);
  return row;
}

/** listOverlappingTimeOff returns a person's entries that overlap [start, end), but `exceptId`. */
export async function listOverlappingTimeOff(
  db: Db | Tx,
  userId: number,
  start: Date,
  end: Date,
  exceptId?: number,
): Promise<TimeOffRow[]> {
  return db
    .select()
    .from(timeOff)
    .where(
      and(
        eq(timeOff.userId, userId),
        lt(timeOff.startAt, end),
        gt(timeOff.endAt, start),
        exceptId === undefined ? undefined : ne(timeOff.id, exceptId),
      ),
    )
    .orderBy(asc(timeOff.startAt), asc(timeOff.id));
}

/**
 * insertTimeOffRow records an entry. Its id comes from the sequence first: the sealed note is
 * bound to it (`seal` gets the id and returns the envelope, or null for no note).
 */
export async function insertTimeOffRow(
  tx: Tx,
  values: { userId: number; startAt: Date; endAt: Date; createdById: number; createdAt: Date },
  seal: (id: number) => string | null,
): Promise<TimeOffRow> {
  const [id] = await allocateIds(tx, 'time_off');
  const [row] = await tx
    .insert(timeOff)
    .values({ id, ...values, noteEnc: seal(id) })
    .returning();
  return row;
}

/** deleteTimeOffRow deletes an entry; false when there was none. */
export async function deleteTimeOffRow(tx: Tx, id: number): Promise<boolean> {
  const rows = await tx.delete(timeOff).where(eq(timeOff.id, id)).returning({ id: timeOff.id });
  return rows.length > 0;
}

/** endTimeOffAt ends an entry under way at `at`. */
export async function endTimeOffAt(tx: Tx, id: number, at: Date): Promise<void> {
  await tx.update(timeOff).set({ endAt: at }).where(eq(timeOff.id, id));
}
