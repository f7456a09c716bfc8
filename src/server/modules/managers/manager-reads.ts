import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { escalationPolicies, rotationMembers, rotations, users } from '../../db/schema';

/**
 * What the rules on who manages a rotation, a policy, an integration or a destination read
 * (decisions 210, 221, 233): a rotation's members (with their roles), the rotations following a
 * policy, and the rotation or policy a thing is made for. Below every module that announces, so
 * notifications and destinations read them without reaching the event sites (decision 242).
 */

const byName = [asc(sql`lower(${rotations.name})`), asc(rotations.id)];

/** A rotation member with the stored roles of their user. */
export interface MemberRoles {
  rotationId: number;
  userId: number;
  order: number;
  roles: string[];
  role: string;
}

/** listMemberRoles returns the members of the rotations with their users' roles, in order. */
export async function listMemberRoles(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<MemberRoles[]> {
  if (rotationIds.length === 0) return [];
  return db
    .select({
      rotationId: rotationMembers.rotationId,
      userId: rotationMembers.userId,
      order: rotationMembers.order,
      roles: users.roles,
      role: users.role,
    })
    .from(rotationMembers)
    .innerJoin(users, eq(users.id, rotationMembers.userId))
    .where(inArray(rotationMembers.rotationId, [...new Set(rotationIds)]))
    .orderBy(asc(rotationMembers.rotationId), asc(rotationMembers.order));
}

/** listRotationMemberIds returns each rotation's member ids, in order: who manages it. */
export async function listRotationMemberIds(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<Map<number, number[]>> {
  const byRotation = new Map<number, number[]>();
  if (rotationIds.length === 0) return byRotation;
  const rows = await db
    .select({ rotationId: rotationMembers.rotationId, userId: rotationMembers.userId })
    .from(rotationMembers)
    .where(inArray(rotationMembers.rotationId, [...new Set(rotationIds)]))
    .orderBy(asc(rotationMembers.rotationId), asc(rotationMembers.order));
  for (const { rotationId, userId } of rows) {
    byRotation.set(rotationId, [...(byRotation.get(rotationId) ?? []), userId]);
  }
  return byRotation;
}

/** A rotation that follows an escalation policy, with what decides who manages it. */
export interface PolicyUser {
  id: number;
  name: string;
  escalationPolicyId: number;
  createdById: number | null;
  memberUserIds: number[];
}

/**
 * listRotationsUsingPolicies returns the rotations that follow any of the policies (every one
 * with no ids), by name, each with its members' user ids: two statements.
 */
export async function listRotationsUsingPolicies(
  db: Db | Tx,
  policyIds?: readonly number[],
): Promise<PolicyUser[]> {
  if (policyIds && policyIds.length === 0) return [];
  const rows = await db
    .select({
      id: rotations.id,
      name: rotations.name,
      escalationPolicyId: rotations.escalationPolicyId,
      createdById: rotations.createdById,
    })
    .from(rotations)
    .where(policyIds ? inArray(rotations.escalationPolicyId, [...policyIds]) : undefined)
    .orderBy(...byName);
  if (rows.length === 0) return [];
  const members = await db
    .select({ rotationId: rotationMembers.rotationId, userId: rotationMembers.userId })
    .from(rotationMembers)
    .where(
      inArray(
        rotationMembers.rotationId,
        rows.map((r) => r.id),
      ),
    );
  return rows.map((r) => ({
    ...r,
    memberUserIds: members.filter((m) => m.rotationId === r.id).map((m) => m.userId),
  }));
}

/**
 * lockTargetRotation reads a rotation an integration is made for, locked FOR SHARE: a deletion of
 * the rotation waits for the new integration, then takes it along (cascade).
 */
export async function lockTargetRotation(
  tx: Tx,
  id: number,
): Promise<{ id: number; name: string; createdById: number | null } | undefined> {
  const [row] = await tx
    .select({ id: rotations.id, name: rotations.name, createdById: rotations.createdById })
    .from(rotations)
    .where(eq(rotations.id, id))
    .for('share');
  return row;
}

/** lockTargetPolicy reads an escalation policy an integration is made for, locked FOR SHARE. */
export async function lockTargetPolicy(
  tx: Tx,
  id: number,
): Promise<{ id: number; name: string; createdById: number | null } | undefined> {
  const [row] = await tx
    .select({
      id: escalationPolicies.id,
      name: escalationPolicies.name,
      createdById: escalationPolicies.createdById,
    })
    .from(escalationPolicies)
    .where(eq(escalationPolicies.id, id))
    .for('share');
  return row;
}
