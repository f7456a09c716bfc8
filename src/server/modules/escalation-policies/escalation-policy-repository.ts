import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { EscalationPolicyValue } from '../../../shared/contracts/escalation-policies';
import { defaultEscalationPolicy } from '../../../shared/domain/escalation';
import type { Db, Tx } from '../../db/client';
import { escalationPolicies } from '../../db/schema';
import { recordAuditEvent } from '../audit/audit-events';

export type EscalationPolicyRow = typeof escalationPolicies.$inferSelect;

/** The value a row holds, as the shared contract reads it. */
export function policyValueOf(row: EscalationPolicyRow): EscalationPolicyValue {
  return { name: row.name, repeat: row.repeat, steps: row.steps };
}

/** insertPolicyRow stores a policy as it parsed. */
export async function insertPolicyRow(
  tx: Tx,
  policy: EscalationPolicyValue,
  createdById: number | null,
  at: Date,
): Promise<EscalationPolicyRow> {
  const [row] = await tx
    .insert(escalationPolicies)
    .values({ ...policy, createdById, createdAt: at, updatedAt: at })
    .returning();
  return row;
}

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
): Promise<EscalationPolicyRow | undefined> {
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
): Promise<EscalationPolicyRow | undefined> {
  const [row] = await tx
    .select()
    .from(escalationPolicies)
    .where(eq(escalationPolicies.id, id))
    .for(strength);
  return row;
}

/** listPolicyRows reads every policy, or those with the given ids, by name. */
export async function listPolicyRows(
  db: Db | Tx,
  ids?: readonly number[],
): Promise<EscalationPolicyRow[]> {
  if (ids && ids.length === 0) return [];
  return db
    .select()
    .from(escalationPolicies)
    .where(ids ? inArray(escalationPolicies.id, [...ids]) : undefined)
    .orderBy(asc(sql`lower(${escalationPolicies.name})`), asc(escalationPolicies.id));
}

/** updatePolicyRow replaces a policy's value and stamps updated_at. */
export async function updatePolicyRow(
  tx: Tx,
  id: number,
  policy: EscalationPolicyValue,
  at: Date,
): Promise<EscalationPolicyRow> {
  const [row] = await tx
    .update(escalationPolicies)
    .set({ ...policy, updatedAt: at })
    .where(eq(escalationPolicies.id, id))
    .returning();
  return row;
}

/** deletePolicyRow deletes a policy (the database refuses one a rotation still names). */
export async function deletePolicyRow(tx: Tx, id: number): Promise<void> {
  await tx.delete(escalationPolicies).where(eq(escalationPolicies.id, id));
}

/** insertPolicyAuditEvent records a change to a policy in the audit trail. */
export async function insertPolicyAuditEvent(
  tx: Tx,
  event: {
    actorUserId: number;
    action: 'escalation_policy.created' | 'escalation_policy.updated' | 'escalation_policy.deleted';
    policyId: number;
    details: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await recordAuditEvent(tx, {
    ...event,
    targetType: 'escalation_policy',
    targetId: event.policyId,
  });
}
