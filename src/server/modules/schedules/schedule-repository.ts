import { and, asc, eq, gt, inArray, isNotNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import {
  firstOccurrenceAfter,
  generatedBefore,
  nextEntryChangeAfter,
  seriesEndOf,
} from '../../../shared/domain/occurrences';
import { readRecurrenceRule, recurrenceRule } from '../../../shared/domain/recurrence';
import type { Db, Tx } from '../../db/client';
import { occurrenceRows, reachOfEntries, seriesOf } from '../../db/entry-occurrences';
import { rotations, scheduleEntries, users } from '../../db/schema';
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

/**
 * findCurrentEntry returns the entry whose occurrence covers `now` (start ≤ now < end), its
 * startAt and endAt the occurrence's, or undefined.
 */
export async function findCurrentEntry(
  db: Db | Tx,
  rotationId: number,
  timeZone: string,
  now: Date,
): Promise<EntryWithUser | undefined> {
  const rows = await db
    .select({ entry: scheduleEntries, user: users })
    .from(scheduleEntries)
    .innerJoin(users, eq(users.id, scheduleEntries.userId))
    .where(
      and(
        eq(scheduleEntries.rotationId, rotationId),
        lte(scheduleEntries.startAt, now),
        gt(reachOfEntries, now),
      ),
    );
  return occurrencesWithUsers(rows, timeZone, now, new Date(now.getTime() + 1))[0];
}

/** occurrencesWithUsers expands entries with their users over [from, to), earliest first. */
function occurrencesWithUsers(
  rows: readonly EntryWithUser[],
  timeZone: string,
  from: Date,
  to: Date,
): EntryWithUser[] {
  const users = new Map(rows.map((r) => [r.entry.id, r.user]));
  return occurrenceRows(
    rows.map((r) => r.entry),
    () => timeZone,
    from,
    to,
  ).map((entry) => ({ entry, user: users.get(entry.id) as UserRow }));
}

/**
 * listOccurrencesOverlapping returns the occurrences of a rotation's entries (but `exceptId`)
 * sharing an instant with [start, end), each as its entry's row with the occurrence's times.
 */
export async function listOccurrencesOverlapping(
  tx: Tx,
  rotation: { id: number; timeZone: string },
  start: Date,
  end: Date,
  exceptId?: number,
): Promise<ScheduleEntryRow[]> {
  const rows = await tx
    .select()
    .from(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.rotationId, rotation.id),
        lt(scheduleEntries.startAt, end),
        gt(reachOfEntries, start),
        exceptId === undefined ? undefined : ne(scheduleEntries.id, exceptId),
      ),
    );
  return occurrenceRows(rows, () => rotation.timeZone, start, end);
}

/** updateEntryRow changes a schedule entry; answers the row as stored. */
export async function updateEntryRow(
  tx: Tx,
  id: number,
  values: Partial<typeof scheduleEntries.$inferInsert>,
): Promise<ScheduleEntryRow> {
  const [row] = await tx
    .update(scheduleEntries)
    .set(values)
    .where(eq(scheduleEntries.id, id))
    .returning();
  return row;
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
 * entries' occurrences starts or ends, or null.
 */
export async function nextTransitionAfter(
  tx: Db | Tx,
  rotation: { id: number; timeZone: string },
  after: Date,
): Promise<Date | null> {
  const rows = await tx
    .select()
    .from(scheduleEntries)
    .where(and(eq(scheduleEntries.rotationId, rotation.id), gt(reachOfEntries, after)));
  return nextEntryChangeAfter(rows.map(seriesOf), rotation.timeZone, after);
}

/**
 * listNextScheduleEntries returns, per rotation, the first occurrence of its entries starting
 * after `now`, as its entry's row with the occurrence's times.
 */
export async function listNextScheduleEntries(
  db: Db | Tx,
  rotationIds: number[],
  now: Date,
): Promise<{ entry: ScheduleEntryRow; user: UserRow }[]> {
  if (rotationIds.length === 0) return [];
  const rows = await db
    .select({ entry: scheduleEntries, user: users, timeZone: rotations.timeZone })
    .from(scheduleEntries)
    .innerJoin(users, eq(users.id, scheduleEntries.userId))
    .innerJoin(rotations, eq(rotations.id, scheduleEntries.rotationId))
    .where(
      and(
        inArray(scheduleEntries.rotationId, rotationIds),
        gt(reachOfEntries, now),
        or(isNotNull(scheduleEntries.recurrence), gt(scheduleEntries.startAt, now)),
      ),
    )
    .orderBy(asc(scheduleEntries.rotationId), asc(scheduleEntries.id));
  const first = new Map<number, { entry: ScheduleEntryRow; user: UserRow }>();
  for (const { entry, user, timeZone } of rows) {
    const o = firstOccurrenceAfter(seriesOf(entry), timeZone, now, 'start');
    if (!o) continue;
    const known = first.get(entry.rotationId);
    if (known && known.entry.startAt.getTime() <= o.start.getTime()) continue;
    first.set(entry.rotationId, { entry: { ...entry, startAt: o.start, endAt: o.end }, user });
  }
  return [...first.values()].sort((a, b) => a.entry.rotationId - b.entry.rotationId);
}

/** countScheduleEntries counts a rotation's schedule entries. */
export async function countScheduleEntries(db: Db | Tx, rotationId: number): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduleEntries)
    .where(eq(scheduleEntries.rotationId, rotationId));
  return Number(row?.n ?? 0);
}

/**
 * deleteScheduleEntriesFrom takes a user's occurrences in a rotation that end after `now` out of
 * the schedule: single entries and series not yet begun are deleted, a series begun is cut to
 * the occurrences that ended by `now` (decision 250). Answers how many entries it changed.
 */
export async function deleteScheduleEntriesFrom(
  tx: Tx,
  rotation: { id: number; timeZone: string },
  userId: number,
  now: Date,
): Promise<number> {
  const rows = await tx
    .select()
    .from(scheduleEntries)
    .where(
      and(
        eq(scheduleEntries.rotationId, rotation.id),
        eq(scheduleEntries.userId, userId),
        gt(reachOfEntries, now),
      ),
    );
  for (const row of rows) {
    const kept = row.recurrence ? generatedBefore(seriesOf(row), rotation.timeZone, now, 'end') : 0;
    if (kept === 0) await tx.delete(scheduleEntries).where(eq(scheduleEntries.id, row.id));
    else await updateEntryRow(tx, row.id, seriesCutTo(row, rotation.timeZone, kept));
  }
  return rows.length;
}

/** seriesCutTo returns the stored values that keep a series' first `count` occurrences only. */
export function seriesCutTo(
  row: ScheduleEntryRow,
  timeZone: string,
  count: number,
): Pick<ScheduleEntryRow, 'recurrence' | 'seriesEndAt'> {
  const { until: _until, ...rule } = readRecurrenceRule(row.recurrence ?? '');
  const recurrence = { ...rule, count };
  const seriesEndAt = seriesEndOf({ ...seriesOf(row), recurrence }, timeZone);
  return { recurrence: recurrenceRule(recurrence), seriesEndAt };
}

/**
 * listUpcomingEntries returns the occurrences in [now, to) of the schedule entries (of one
 * rotation, or every one), each as its entry's row with the occurrence's times, earliest first.
 */
export async function listUpcomingEntries(
  db: Db | Tx,
  now: Date,
  to: Date,
  rotationId?: number,
): Promise<ScheduleEntryRow[]> {
  const rows = await db
    .select({ entry: scheduleEntries, timeZone: rotations.timeZone })
    .from(scheduleEntries)
    .innerJoin(rotations, eq(rotations.id, scheduleEntries.rotationId))
    .where(
      and(
        gt(reachOfEntries, now),
        lt(scheduleEntries.startAt, to),
        rotationId === undefined ? undefined : eq(scheduleEntries.rotationId, rotationId),
      ),
    );
  const zones = new Map(rows.map((r) => [r.entry.id, r.timeZone]));
  return occurrenceRows(
    rows.map((r) => r.entry),
    (e) => zones.get(e.id) ?? 'UTC',
    now,
    to,
  );
}
