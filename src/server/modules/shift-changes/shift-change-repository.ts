import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { type Db, selectRows, type Tx } from '../../db/client';
import {
  rotations,
  type StoredShift,
  type StoredShiftChange,
  shiftBaselines,
  shiftNotices,
} from '../../db/schema';

/** The shift-change module's queries: its baselines and its notices (decision 219). */

export type BaselineRow = typeof shiftBaselines.$inferSelect;

/**
 * lockBaseline returns the rotation's waiting baseline, locked for this transaction (waiting for
 * an engine that is telling it: the change then starts a new one), or undefined.
 */
export async function lockBaseline(tx: Tx, rotationId: number): Promise<BaselineRow | undefined> {
  const [row] = await tx
    .select()
    .from(shiftBaselines)
    .where(eq(shiftBaselines.rotationId, rotationId))
    .for('update');
  return row;
}

/**
 * keepBaseline stores a rotation's baseline unless another transaction stored one first; either
 * way the rotation's baseline row is locked for this transaction when it returns.
 */
export async function keepBaseline(
  tx: Tx,
  row: { rotationId: number; takenAt: Date; dueAt: Date; shifts: StoredShift[] },
): Promise<void> {
  await tx
    .insert(shiftBaselines)
    .values(row)
    // The first baseline stays: the update changes nothing but takes the row's lock.
    .onConflictDoUpdate({
      target: shiftBaselines.rotationId,
      set: { rotationId: sql`${shiftBaselines.rotationId}` },
    });
}

/** moveBaselineDue sets when a waiting baseline is told (a later change moves it; decision 262). */
export async function moveBaselineDue(tx: Tx, id: number, dueAt: Date): Promise<void> {
  await tx.update(shiftBaselines).set({ dueAt }).where(eq(shiftBaselines.id, id));
}

/** listDueBaselines returns the rotations whose baseline is due at `now`, the oldest first. */
export async function listDueBaselines(db: Db, now: Date): Promise<number[]> {
  const rows = await selectRows<{ rotationId: number }>(
    db,
    sql`select rotation_id as "rotationId" from shift_baselines
         where due_at <= ${now} order by due_at, id`,
  );
  return rows.map((r) => r.rotationId);
}

/**
 * claimDueBaseline locks the rotation, then its due baseline, for this transaction (the order
 * every change point takes them in), or answers undefined when there is none or another
 * transaction holds either (`skip locked`). A rotation another engine or a change is working on
 * is told at a later tick, never waited for: the notices refer to the rotation, and their key
 * check would wait for its lock (for as long as a paused instance keeps it).
 */
export async function claimDueBaseline(
  tx: Tx,
  rotationId: number,
  now: Date,
): Promise<(BaselineRow & { rotationName: string }) | undefined> {
  const [rotation] = await tx
    .select({ name: rotations.name })
    .from(rotations)
    .where(eq(rotations.id, rotationId))
    .for('update', { skipLocked: true });
  if (!rotation) return undefined;
  const [row] = await tx
    .select()
    .from(shiftBaselines)
    .where(and(eq(shiftBaselines.rotationId, rotationId), sql`${shiftBaselines.dueAt} <= ${now}`))
    .for('update', { skipLocked: true });
  return row ? { ...row, rotationName: rotation.name } : undefined;
}

/** deleteBaseline removes a told baseline. */
export async function deleteBaseline(tx: Tx, id: number): Promise<void> {
  await tx.delete(shiftBaselines).where(eq(shiftBaselines.id, id));
}

/** insertShiftNotices records people's notices; one per person and event key. */
export async function insertShiftNotices(
  tx: Tx,
  rows: {
    userId: number;
    rotationId: number;
    eventKey: string;
    changes: StoredShiftChange[];
    createdAt: Date;
  }[],
): Promise<void> {
  if (rows.length === 0) return;
  await tx
    .insert(shiftNotices)
    .values(rows)
    .onConflictDoNothing({ target: [shiftNotices.userId, shiftNotices.eventKey] });
}

/**
 * takeOpenNotices removes the open (not dismissed) notices of these people in the rotation and
 * returns them, oldest first: a new notice replaces them (decision 262).
 */
export async function takeOpenNotices(tx: Tx, rotationId: number, userIds: readonly number[]) {
  if (userIds.length === 0) return [];
  const rows = await tx
    .delete(shiftNotices)
    .where(
      and(
        eq(shiftNotices.rotationId, rotationId),
        inArray(shiftNotices.userId, [...userIds]),
        isNull(shiftNotices.dismissedAt),
      ),
    )
    .returning({
      userId: shiftNotices.userId,
      changes: shiftNotices.changes,
      createdAt: shiftNotices.createdAt,
      id: shiftNotices.id,
    });
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
}

/** How many notices a person's list shows at most. */
const NOTICES_LISTED = 20;

/** listOpenNotices returns a person's notices not dismissed, newest first, with the rotation's name. */
export async function listOpenNotices(db: Db, userId: number) {
  return db
    .select({
      id: shiftNotices.id,
      rotationId: shiftNotices.rotationId,
      rotationName: rotations.name,
      changes: shiftNotices.changes,
      createdAt: shiftNotices.createdAt,
    })
    .from(shiftNotices)
    .innerJoin(rotations, eq(rotations.id, shiftNotices.rotationId))
    .where(and(eq(shiftNotices.userId, userId), isNull(shiftNotices.dismissedAt)))
    .orderBy(desc(shiftNotices.createdAt), desc(shiftNotices.id))
    .limit(NOTICES_LISTED);
}

/**
 * dismissNotice marks one of the person's notices dismissed (again: no change), with any older
 * one of theirs about the same rotation still open (from before notices replaced each other,
 * decision 262: the list showed it folded into this one); answers whether the person has such a
 * notice.
 */
export async function dismissNotice(
  tx: Tx,
  userId: number,
  id: number,
  now: Date,
): Promise<boolean> {
  const [notice] = await tx
    .select({ rotationId: shiftNotices.rotationId })
    .from(shiftNotices)
    .where(and(eq(shiftNotices.id, id), eq(shiftNotices.userId, userId)));
  if (!notice) return false;
  await tx
    .update(shiftNotices)
    .set({ dismissedAt: sql`coalesce(${shiftNotices.dismissedAt}, ${now})` })
    .where(
      and(
        eq(shiftNotices.userId, userId),
        or(
          eq(shiftNotices.id, id),
          and(
            eq(shiftNotices.rotationId, notice.rotationId),
            isNull(shiftNotices.dismissedAt),
            lte(shiftNotices.id, id),
          ),
        ),
      ),
    );
  return true;
}
