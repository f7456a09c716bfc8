import { and, asc, desc, eq, exists, inArray, max, type SQL, sql } from 'drizzle-orm';
import { defaultEscalationPolicy } from '../../../shared/domain/escalation';
import { KINDS_HANDLING_A_BOUNDARY } from '../../../shared/domain/handoff-flow';
import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import { TIME_OFF_LOOKBACK_MS } from '../../../shared/domain/time-off';
import { type Db, selectRows, type Tx } from '../../db/client';
import { escalationPolicies, handoffs, rotationMembers, rotations } from '../../db/schema';
import { recordAuditEvent } from '../audit/audit-events';
import type { MemberRow } from '../members/member-reads';

export type RotationRow = typeof rotations.$inferSelect;
export type NewRotationRow = typeof rotations.$inferInsert;
const byName = [asc(sql`lower(${rotations.name})`), asc(rotations.id)];

/** The latest handoff of a rotation, as the rotation answer reads it (acknowledgement, backup). */
export interface LatestHandoffRow {
  id: number;
  fromUserId: number | null;
  toUserId: number | null;
  kind: string;
  status: string;
  urgent: boolean;
  notes: string | null;
  occurredAt: Date;
  acknowledgedAt: Date | null;
}

/** A rotation row with its latest handoff (null when it has none). */
export interface RotationWithLatest {
  row: RotationRow;
  latest: LatestHandoffRow | null;
  /** its latest handoff that handles a boundary (the time-off rule, decision 217) */
  boundary: { fromUserId: number | null; toUserId: number | null; occurredAt: Date } | null;
  /** its members' time off from the shift before its pending boundary on (decision 217) */
  away: { userId: number; start: Date; end: Date }[];
}

const boundaryKindList = sql.join(
  KINDS_HANDLING_A_BOUNDARY.map((k) => sql`${k}`),
  sql`, `,
);

type RawJson<T> = T | string | null;
const fromJson = <T>(value: RawJson<T>): T | null =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

type RawBoundary = RawJson<{
  fromUserId: number | null;
  toUserId: number | null;
  occurredAt: string;
}>;
type RawAway = RawJson<{ userId: number; start: string; end: string }[]>;

/** latestBoundaryJson: the rotation's latest boundary-handling handoff as JSON (a subquery). */
const latestBoundaryJson = (rotationId: SQL | number) =>
  sql<RawBoundary>`(select json_build_object('fromUserId', h.from_user_id, 'toUserId', h.to_user_id,
                                  'occurredAt', h.occurred_at)
           from handoffs h
          where h.rotation_id = ${rotationId} and h.kind in (${boundaryKindList})
          order by h.occurred_at desc, h.id desc limit 1)`;

/** turnFactsOfJson reads the boundary and time off the statements above answer as JSON. */
function turnFactsOfJson(boundary: RawBoundary, away: RawAway): TurnFactsRead {
  const latest = fromJson(boundary);
  return {
    boundary: latest ? { ...latest, occurredAt: new Date(latest.occurredAt) } : null,
    away: (fromJson(away) ?? []).map((w) => ({
      userId: w.userId,
      start: new Date(w.start),
      end: new Date(w.end),
    })),
  };
}

/** A rotation's turn facts as a change of holder reads them under the lock (decision 290). */
export interface TurnFactsRead {
  /** its latest handoff that handles a boundary */
  boundary: RotationWithLatest['boundary'];
  /** the members' time off that ends after `since`, by start */
  away: RotationWithLatest['away'];
}

/**
 * readTurnFacts reads, in one statement, what the turn rule and the answer of a change of holder
 * need: the rotation's latest boundary-handling handoff and `memberIds`' time off ending after
 * `since` (none when `since` is null). Run after the rotation's lock is taken, so it sees every
 * change committed before.
 */
export async function readTurnFacts(
  tx: Tx,
  rotationId: number,
  memberIds: readonly number[],
  since: Date | null,
): Promise<TurnFactsRead> {
  const [r] = await selectRows<{ boundary: RawBoundary; away: RawAway }>(
    tx,
    sql`select ${latestBoundaryJson(rotationId)} as boundary,
      (select json_agg(json_build_object('userId', t.user_id, 'start', t.start_at, 'end', t.end_at)
                       order by t.start_at, t.id)
         from time_off t
        where t.user_id = any(${sql.param([...memberIds])}::int[])
          and t.end_at > ${since}::timestamptz) as away`,
  );
  return turnFactsOfJson(r?.boundary ?? null, r?.away ?? null);
}

/**
 * listRotationsWithLatest returns rotations by name (every one, those `memberUserId` belongs to,
 * the one with `id` or those with `ids`), each with its latest handoff: one statement (a lateral join).
 */
export async function listRotationsWithLatest(
  db: Db | Tx,
  filter: { memberUserId?: number; id?: number; ids?: readonly number[] } = {},
): Promise<RotationWithLatest[]> {
  const latest = db
    .select({
      id: handoffs.id,
      fromUserId: handoffs.fromUserId,
      toUserId: handoffs.toUserId,
      kind: handoffs.kind,
      status: handoffs.status,
      urgent: handoffs.urgent,
      notes: handoffs.notes,
      occurredAt: handoffs.occurredAt,
      acknowledgedAt: handoffs.acknowledgedAt,
    })
    .from(handoffs)
    .where(eq(handoffs.rotationId, rotations.id))
    .orderBy(desc(handoffs.occurredAt), desc(handoffs.id))
    .limit(1)
    .as('latest_handoff');
  const conditions: SQL[] = [];
  if (filter.id !== undefined) conditions.push(eq(rotations.id, filter.id));
  if (filter.ids !== undefined) {
    if (filter.ids.length === 0) return [];
    conditions.push(inArray(rotations.id, [...filter.ids]));
  }
  if (filter.memberUserId !== undefined) {
    conditions.push(
      exists(
        db
          .select({ one: sql`1` })
          .from(rotationMembers)
          .where(
            and(
              eq(rotationMembers.rotationId, rotations.id),
              eq(rotationMembers.userId, filter.memberUserId),
            ),
          ),
      ),
    );
  }
  const rows = await db
    .select({
      row: rotations,
      latest: {
        id: latest.id,
        fromUserId: latest.fromUserId,
        toUserId: latest.toUserId,
        kind: latest.kind,
        status: latest.status,
        urgent: latest.urgent,
        notes: latest.notes,
        occurredAt: latest.occurredAt,
        acknowledgedAt: latest.acknowledgedAt,
      },
      boundary: latestBoundaryJson(sql`${rotations.id}`),
      away: sql<RawAway>`(
        select json_agg(json_build_object('userId', t.user_id, 'start', t.start_at, 'end', t.end_at))
          from time_off t
         where t.user_id in (select m.user_id from rotation_members m
                              where m.rotation_id = ${rotations.id})
           and t.end_at > ${rotations.nextHandoffAt}
                          - ${TIME_OFF_LOOKBACK_MS / 1000}::int * interval '1 second')`,
    })
    .from(rotations)
    .leftJoinLateral(latest, sql`true`)
    .where(conditions.length > 0 ? and(...conditions) : undefined)
    .orderBy(...byName);
  return rows.map((r) => ({
    row: r.row,
    latest: r.latest?.id ? (r.latest as LatestHandoffRow) : null,
    ...turnFactsOfJson(r.boundary, r.away),
  }));
}

/** findRotationRow returns a rotation row without locking it, or undefined. */
export async function findRotationRow(db: Db | Tx, id: number): Promise<RotationRow | undefined> {
  const [row] = await db.select().from(rotations).where(eq(rotations.id, id)).limit(1);
  return row;
}

/** lockRotationRow reads a rotation row and locks it (`for update`) until the transaction ends. */
export async function lockRotationRow(tx: Tx, id: number): Promise<RotationRow | undefined> {
  const [row] = await tx.select().from(rotations).where(eq(rotations.id, id)).for('update');
  return row;
}

/** insertRotationRow creates a rotation. */
export async function insertRotationRow(tx: Tx, values: NewRotationRow): Promise<RotationRow> {
  const [row] = await tx.insert(rotations).values(values).returning();
  return row;
}

/** updateRotationRow changes columns of a rotation and stamps updated_at. */
export async function updateRotationRow(
  tx: Tx,
  id: number,
  values: Partial<NewRotationRow>,
  now: Date,
): Promise<void> {
  await tx
    .update(rotations)
    .set({ ...values, updatedAt: now })
    .where(eq(rotations.id, id));
}

/** deleteRotationRow deletes a rotation (members, schedule, handoffs, coverage and pages cascade). */
export async function deleteRotationRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(rotations).where(eq(rotations.id, id));
}

/** insertMember adds a user to a rotation at the highest order plus one (or 0), computed in SQL. */
export async function insertMember(tx: Tx, rotationId: number, userId: number): Promise<MemberRow> {
  const [{ next }] = await tx
    .select({ next: sql<number>`coalesce(${max(rotationMembers.order)} + 1, 0)::int` })
    .from(rotationMembers)
    .where(eq(rotationMembers.rotationId, rotationId));
  const [row] = await tx
    .insert(rotationMembers)
    .values({ rotationId, userId, order: Number(next) })
    .returning();
  return row;
}

/** insertMembersInOrder makes a new rotation's members, in one statement, in the order given. */
export async function insertMembersInOrder(
  tx: Tx,
  rotationId: number,
  userIds: readonly number[],
): Promise<void> {
  if (userIds.length === 0) return;
  await tx
    .insert(rotationMembers)
    .values(userIds.map((userId, order) => ({ rotationId, userId, order })));
}

/** deleteMember removes a user from a rotation and renumbers the rest 0…N-1 without gaps. */
export async function deleteMember(tx: Tx, rotationId: number, userId: number): Promise<void> {
  await tx
    .delete(rotationMembers)
    .where(and(eq(rotationMembers.rotationId, rotationId), eq(rotationMembers.userId, userId)));
  // The (rotation, order) constraint is deferred, so shifting positions in one statement is safe.
  await tx.execute(sql`
    update rotation_members m
       set "order" = r.position
      from (select id, (row_number() over (order by "order", id) - 1)::int as position
              from rotation_members where rotation_id = ${rotationId}) r
     where m.id = r.id and m."order" <> r.position`);
}

/** setMemberOrders writes new positions for members of one rotation in a single statement. */
export async function setMemberOrders(
  tx: Tx,
  rotationId: number,
  orders: { id: number; order: number }[],
): Promise<void> {
  if (orders.length === 0) return;
  const values = sql.join(
    orders.map((o) => sql`(${o.id}::int, ${o.order}::int)`),
    sql`, `,
  );
  await tx.execute(sql`
    update rotation_members m
       set "order" = v.position
      from (values ${values}) as v(id, position)
     where m.id = v.id and m.rotation_id = ${rotationId}`);
}

/**
 * setHolder gives the baton to a user (or nobody) from `since`; answers the rotation row after.
 * The turn owner (decision 256) becomes `turnUserId` when given, else the new holder: the order
 * goes on from them.
 */
export async function setHolder(
  tx: Tx,
  rotationId: number,
  userId: number | null,
  since: Date,
  options: { turnUserId?: number | null } = {},
): Promise<RotationRow> {
  const turnUserId = options.turnUserId === undefined ? userId : options.turnUserId;
  const [row] = await tx
    .update(rotations)
    .set({
      holderUserId: userId,
      holderSince: userId === null ? null : since,
      turnUserId,
      updatedAt: since,
    })
    .where(eq(rotations.id, rotationId))
    .returning();
  return row;
}

/** insertAuditEvent records an administrative action on a rotation and returns its id. */
export async function insertAuditEvent(
  tx: Tx,
  event: {
    /** null: the system (the engine) */
    actorUserId: number | null;
    action: string;
    rotationId: number;
    details: Record<string, unknown>;
    at: Date;
  },
): Promise<number> {
  return recordAuditEvent(tx, { ...event, targetType: 'rotation', targetId: event.rotationId });
}

/** findRotationNames returns the id and name of those of the rotations that exist. */
export async function findRotationNames(
  db: Db | Tx,
  ids: readonly number[],
): Promise<{ id: number; name: string }[]> {
  if (ids.length === 0) return [];
  return db
    .select({ id: rotations.id, name: rotations.name })
    .from(rotations)
    .where(inArray(rotations.id, [...ids]));
}

/** A rotation as the rules on who manages it read it (permissions-rotation.ts), with its name and type. */
export interface RotationFacts {
  id: number;
  name: string;
  type: string;
  suspended: boolean;
  createdById: number | null;
  memberUserIds: number[];
}

/**
 * listRotationFactsOf returns the rotations `userId` is a member of (every rotation with no
 * user), by name, each with its creator and its members' ids: one statement.
 */
export async function listRotationFactsOf(db: Db | Tx, userId?: number): Promise<RotationFacts[]> {
  const only: SQL =
    userId === undefined
      ? sql``
      : sql`where exists (select 1 from rotation_members x
                           where x.rotation_id = r.id and x.user_id = ${userId})`;
  const rows = await selectRows<RotationFacts & { memberUserIds: number[] | null }>(
    db,
    sql`select r.id, r.name, r.type, r.suspended, r.created_by_id as "createdById",
               (select array_agg(m.user_id order by m."order") from rotation_members m
                 where m.rotation_id = r.id) as "memberUserIds"
          from rotations r ${only}
         order by lower(r.name), r.id`,
  );
  return rows.map((r) => ({ ...r, memberUserIds: (r.memberUserIds ?? []).map(Number) }));
}

/**
 * listRotationManagers returns, per rotation, the people who manage it: its creator and its
 * members, those of them holding the manager role (administrators count): one statement.
 */
export async function listRotationManagers(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<Map<number, number[]>> {
  const managers = new Map<number, number[]>();
  if (rotationIds.length === 0) return managers;
  const rows = await selectRows<{
    rotationId: number;
    userId: number;
    roles: string[];
    role: string;
  }>(
    db,
    sql`select p.rotation_id as "rotationId", u.id as "userId", u.roles, u.role
          from (select m.rotation_id, m.user_id from rotation_members m
                 where m.rotation_id = any(${sql.param([...rotationIds])}::int[])
                union
                select r.id, r.created_by_id from rotations r
                 where r.id = any(${sql.param([...rotationIds])}::int[]) and r.created_by_id is not null) p
          join users u on u.id = p.user_id
         order by p.rotation_id, u.id`,
  );
  for (const row of rows) {
    if (!hasRole(effectiveRoles(row.roles, row.role), 'manager')) continue;
    const list = managers.get(row.rotationId) ?? [];
    list.push(Number(row.userId));
    managers.set(row.rotationId, list);
  }
  return managers;
}

// A rotation's escalation policy: the default one made with it, and the one it points at. Here,
// not in escalation-policies/, because a policy's screen reads rotations (decision 242).

/**
 * insertDefaultPolicies stores each rotation's default policy (defaultEscalationPolicy, the
 * documented paging flow) in one statement and answers rotation id → policy id. The rotations'
 * ids come first (from their sequence): the policy's targets name them.
 */
export async function insertDefaultPolicies(
  tx: Db | Tx,
  rotations: readonly { id: number; name: string }[],
  createdById: number | null,
  at: Date,
): Promise<Map<number, number>> {
  if (rotations.length === 0) return new Map();
  const rows = await tx
    .insert(escalationPolicies)
    .values(
      rotations.map((r) => ({
        ...defaultEscalationPolicy(r),
        createdById,
        createdAt: at,
        updatedAt: at,
      })),
    )
    .returning({ id: escalationPolicies.id, steps: escalationPolicies.steps });
  // A default policy's first target is its rotation's holder.
  return new Map(rows.map((row) => [row.steps[0].targets[0].id, row.id]));
}

/** findPolicyRow reads one policy, or undefined. */
export async function findPolicyRow(
  db: Db | Tx,
  id: number,
): Promise<typeof escalationPolicies.$inferSelect | undefined> {
  const [row] = await db.select().from(escalationPolicies).where(eq(escalationPolicies.id, id));
  return row;
}

/**
 * lockPolicyRow reads a policy and locks it until the transaction ends: `update` to change or
 * delete it, `share` to point a rotation at it (a deletion waits, then sees the rotation).
 */
export async function lockPolicyRow(
  tx: Tx,
  id: number,
  strength: 'update' | 'share',
): Promise<typeof escalationPolicies.$inferSelect | undefined> {
  const [row] = await tx
    .select()
    .from(escalationPolicies)
    .where(eq(escalationPolicies.id, id))
    .for(strength);
  return row;
}
