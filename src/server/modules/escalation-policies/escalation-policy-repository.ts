import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { EscalationPolicyValue } from '../../../shared/contracts/escalation-policies';
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
