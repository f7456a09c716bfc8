import { desc, eq, getTableColumns, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { KINDS_HANDLING_A_BOUNDARY } from '../../../shared/domain/handoff-flow';
import { type Db, selectRows, type Tx } from '../../db/client';
import { handoffs, rotations, users } from '../../db/schema';
import type { UserRow } from '../users/user-repository';

type HandoffRow = typeof handoffs.$inferSelect;

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

type HandoffKind =
  | 'take'
  | 'start'
  | 'pass'
  | 'reassign'
  | 'member_removed'
  | 'auto'
  | 'schedule'
  | 'coverage'
  | 'coverage_end';

export interface NewHandoff {
  rotationId: number;
  fromUserId: number | null;
  toUserId: number | null;
  kind: HandoffKind;
  notes?: string | null;
  urgent?: boolean;
  occurredAt: Date;
  /** default success; an automatic transfer is recorded escalated */
  status?: 'success' | 'escalated';
  /** set when the receiver needs no acknowledgement (they took the baton themselves) */
  acknowledgedAt?: Date | null;
}

function handoffValues(handoff: NewHandoff) {
  return {
    rotationId: handoff.rotationId,
    fromUserId: handoff.fromUserId,
    toUserId: handoff.toUserId,
    kind: handoff.kind,
    status: handoff.status ?? 'success',
    notes: handoff.notes || null,
    urgent: handoff.urgent ?? false,
    occurredAt: handoff.occurredAt,
    acknowledgedAt: handoff.acknowledgedAt ?? null,
  };
}

/** insertHandoff records one change of holder (status success unless given). */
export async function insertHandoff(tx: Tx, handoff: NewHandoff) {
  const [row] = await tx.insert(handoffs).values(handoffValues(handoff)).returning();
  return row;
}

/**
 * insertLatestHandoff records one change of holder, as insertHandoff does, and tells in the same
 * statement whether it is now the rotation's latest handoff (by time, then id): true unless a
 * handoff recorded at a later time exists (a clock set back, or instances whose clocks differ).
 */
export async function insertLatestHandoff(tx: Tx, handoff: NewHandoff) {
  const [row] = await tx
    .insert(handoffs)
    .values(handoffValues(handoff))
    .returning({
      ...getTableColumns(handoffs),
      // Written out: Drizzle leaves column names unqualified inside RETURNING.
      isLatest: sql<boolean>`not exists (
        select 1 from handoffs later
         where later.rotation_id = handoffs.rotation_id
           and (later.occurred_at, later.id) > (handoffs.occurred_at, handoffs.id))`,
    });
  return row;
}

/**
 * insertKeyedHandoff records a change of holder the engine makes, under its effect key: the
 * database refuses the same key twice, so it answers undefined when the change was already made.
 */
export async function insertKeyedHandoff(tx: Tx, handoff: NewHandoff & { effectKey: string }) {
  const [row] = await tx
    .insert(handoffs)
    .values({ ...handoffValues(handoff), effectKey: handoff.effectKey })
    .onConflictDoNothing({ target: handoffs.effectKey })
    .returning();
  return row;
}

/**
 * insertKeyedHandoffs records several keyed handoffs in one statement; answers the id of each
 * one recorded, by effect key (a key recorded before is left out).
 */
export async function insertKeyedHandoffs(
  tx: Tx,
  list: (NewHandoff & { effectKey: string })[],
): Promise<Map<string, number>> {
  if (list.length === 0) return new Map();
  const rows = await tx
    .insert(handoffs)
    .values(list.map((h) => ({ ...handoffValues(h), effectKey: h.effectKey })))
    .onConflictDoNothing({ target: handoffs.effectKey })
    .returning({ id: handoffs.id, effectKey: handoffs.effectKey });
  return new Map(rows.map((r) => [r.effectKey as string, r.id]));
}

/** The latest handoff of a rotation that handles a shift boundary (KINDS_HANDLING_A_BOUNDARY). */
export interface BoundaryHandoff {
  fromUserId: number | null;
  toUserId: number | null;
  occurredAt: Date;
}

/**
 * listLatestBoundaryHandoffs returns, per rotation, its latest handoff of a kind that handles a
 * boundary: when the holder last changed so (isBoundaryHandedOff), who gave them the baton and
 * who received it. One statement.
 */
export async function listLatestBoundaryHandoffs(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<Map<number, BoundaryHandoff>> {
  if (rotationIds.length === 0) return new Map();
  const kinds = sql.join(
    KINDS_HANDLING_A_BOUNDARY.map((k) => sql`${k}`),
    sql`, `,
  );
  const rows = await selectRows<{
    rotationId: number;
    fromUserId: number | null;
    toUserId: number | null;
    occurredAt: Date | string;
  }>(
    db,
    sql`select distinct on (rotation_id) rotation_id as "rotationId", from_user_id as "fromUserId",
               to_user_id as "toUserId", occurred_at as "occurredAt"
          from handoffs
         where rotation_id = any(${sql.param([...rotationIds])}::int[]) and kind in (${kinds})
         order by rotation_id, occurred_at desc, id desc`,
  );
  return new Map(
    rows.map((r) => [
      Number(r.rotationId),
      {
        fromUserId: r.fromUserId,
        toUserId: r.toUserId,
        occurredAt: r.occurredAt instanceof Date ? r.occurredAt : new Date(r.occurredAt),
      },
    ]),
  );
}
