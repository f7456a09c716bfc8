import { desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client';
import { handoffs, rotations, users } from '../../db/schema';
import type { UserRow } from '../users/user-repository';

export type HandoffRow = typeof handoffs.$inferSelect;

/** A handoff with its rotation's name and both users' stored rows (null when deleted). */
export interface HandoffWithPeople {
  handoff: HandoffRow;
  rotation: { id: number; name: string };
  fromUser: UserRow | null;
  toUser: UserRow | null;
}

const fromUsers = alias(users, 'from_user');
const toUsers = alias(users, 'to_user');

/** listRecentHandoffs returns the latest handoffs of every rotation, newest first, in one query. */
export async function listRecentHandoffs(db: Db | Tx, limit: number): Promise<HandoffWithPeople[]> {
  return db
    .select({
      handoff: handoffs,
      rotation: { id: rotations.id, name: rotations.name },
      fromUser: fromUsers,
      toUser: toUsers,
    })
    .from(handoffs)
    .innerJoin(rotations, eq(rotations.id, handoffs.rotationId))
    .leftJoin(fromUsers, eq(fromUsers.id, handoffs.fromUserId))
    .leftJoin(toUsers, eq(toUsers.id, handoffs.toUserId))
    .orderBy(desc(handoffs.occurredAt), desc(handoffs.id))
    .limit(limit);
}

/** findHandoffWithPeople returns one handoff with its rotation and users, or undefined. */
export async function findHandoffWithPeople(
  db: Db | Tx,
  id: number,
): Promise<HandoffWithPeople | undefined> {
  const [row] = await db
    .select({
      handoff: handoffs,
      rotation: { id: rotations.id, name: rotations.name },
      fromUser: fromUsers,
      toUser: toUsers,
    })
    .from(handoffs)
    .innerJoin(rotations, eq(rotations.id, handoffs.rotationId))
    .leftJoin(fromUsers, eq(fromUsers.id, handoffs.fromUserId))
    .leftJoin(toUsers, eq(toUsers.id, handoffs.toUserId))
    .where(eq(handoffs.id, id))
    .limit(1);
  return row;
}

/** latestHandoffId returns the id of a rotation's latest handoff, or undefined. */
export async function latestHandoffId(tx: Tx, rotationId: number): Promise<number | undefined> {
  const [row] = await tx
    .select({ id: handoffs.id })
    .from(handoffs)
    .where(eq(handoffs.rotationId, rotationId))
    .orderBy(desc(handoffs.occurredAt), desc(handoffs.id))
    .limit(1);
  return row?.id;
}

/**
 * markAcknowledged records the receiver's acknowledgement: a handoff still at success becomes
 * acknowledged; a missed or escalated one keeps its status and gains the time (decision 052).
 */
export async function markAcknowledged(tx: Tx, id: number, at: Date): Promise<boolean> {
  const [row] = await tx
    .select({ status: handoffs.status })
    .from(handoffs)
    .where(eq(handoffs.id, id));
  if (!row) return false;
  const updated = await tx
    .update(handoffs)
    .set({ acknowledgedAt: at, ...(row.status === 'success' ? { status: 'acknowledged' } : {}) })
    .where(eq(handoffs.id, id))
    .returning({ id: handoffs.id });
  return updated.length > 0;
}
