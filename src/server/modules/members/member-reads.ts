import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { escalationPolicies, rotationMembers, rotations, users } from '../../db/schema';
import type { UserRow } from '../users/user-repository';

/**
 * A rotation's members as every module reads them (decision 243: by rotation and in order, one
 * query each), and what the rules on who manages a rotation, a policy, an integration or a
 * destination read (decisions 210, 221, 233): the rotations following a policy, and the rotation
 * or policy a thing is made for. Below every module that announces, so notifications,
 * destinations and the calendar read them without reaching the event sites (decision 242).
 */

export type MemberRow = typeof rotationMembers.$inferSelect;

/** A member with their stored user row (decrypted by the caller, once per user). */
export interface MemberWithUser {
  member: MemberRow;
  user: UserRow;
}

/**
 * A member's user as the rotation lists and the calendar read them (decision 294): the person
 * (encrypted) and the roles, not the whole row: the rules, working hours, sign-in ids and hashes
 * that no list shows cost a list of 200 members half its time to read on PGlite.
 */
const memberPersonColumns = {
  id: users.id,
  nameEnc: users.nameEnc,
  emailEnc: users.emailEnc,
  phoneEnc: users.phoneEnc,
  role: users.role,
  roles: users.roles,
};

/** the columns of a user that `listMembersWithPeople` reads */
export type MemberPersonRow = Pick<UserRow, keyof typeof memberPersonColumns>;

/** A member with their user's person and roles (decrypted by the caller, once per user). */
export interface MemberWithPerson {
  member: MemberRow;
  user: MemberPersonRow;
}

/** A member with the user's stored roles, for rules that need no personal data. */
export interface MemberWithRoles {
  member: MemberRow;
  roles: string[];
  role: string;
}

/**
 * The reads of rotation members (decision 243), all here, by rotation and in order, one query
 * each: `listMembersWithUsers` with the users' whole rows (for messages and the rules that read
 * them); `listMembersWithPeople` with their persons and roles (for the lists and the calendar);
 * `listMemberRoleRows` with only what decides who may hold and who manages (roles,
 * the handoff reminder), which the engine and the permission checks read without decrypting
 * anyone; `listRotationMemberIds` with the ids alone. The other modules shape these rows.
 */
export async function listMembersWithUsers(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<MemberWithUser[]> {
  if (rotationIds.length === 0) return [];
  return db
    .select({ member: rotationMembers, user: users })
    .from(rotationMembers)
    .innerJoin(users, eq(users.id, rotationMembers.userId))
    .where(inArray(rotationMembers.rotationId, [...new Set(rotationIds)]))
    .orderBy(asc(rotationMembers.rotationId), asc(rotationMembers.order));
}

/** listMembersWithPeople is listMembersWithUsers with only the users' persons and roles. */
export async function listMembersWithPeople(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<MemberWithPerson[]> {
  if (rotationIds.length === 0) return [];
  return db
    .select({ member: rotationMembers, user: memberPersonColumns })
    .from(rotationMembers)
    .innerJoin(users, eq(users.id, rotationMembers.userId))
    .where(inArray(rotationMembers.rotationId, [...new Set(rotationIds)]))
    .orderBy(asc(rotationMembers.rotationId), asc(rotationMembers.order));
}

/** A rotation member with its user's roles and handoff reminder: no personal field. */
export interface MemberRoleRow extends MemberWithRoles {
  handoffReminderMinutes: number;
}

/** listMemberRoleRows returns the members of the rotations with their users' roles, in order. */
export async function listMemberRoleRows(
  db: Db | Tx,
  rotationIds: readonly number[],
): Promise<MemberRoleRow[]> {
  if (rotationIds.length === 0) return [];
  return db
    .select({
      member: rotationMembers,
      roles: users.roles,
      role: users.role,
      handoffReminderMinutes: users.handoffReminderMinutes,
    })
    .from(rotationMembers)
    .innerJoin(users, eq(users.id, rotationMembers.userId))
    .where(inArray(rotationMembers.rotationId, [...new Set(rotationIds)]))
    .orderBy(asc(rotationMembers.rotationId), asc(rotationMembers.order));
}

/** A member as `memberRoleRowsOfRotation` gives it: a MemberRoleRow's fields, as JSON. */
export interface MemberRoleJson {
  userId: number;
  roles: string[];
  role: string;
  reminderMinutes: number;
}

/**
 * memberRoleRowsOfRotation is listMemberRoleRows as a select-list item over a rotation aliased
 * `r`: its members in order, as a JSON array of MemberRoleJson. The engine reads each due
 * rotation's members with the rest of its row in one statement, under the rotations' locks.
 */
export const memberRoleRowsOfRotation = sql`coalesce((select json_agg(json_build_object(
      'userId', m.user_id, 'roles', u.roles, 'role', u.role,
      'reminderMinutes', u.handoff_reminder_minutes) order by m."order")
    from rotation_members m join users u on u.id = m.user_id
   where m.rotation_id = r.id), '[]'::json)`;

/** listMembersWithRoles returns one rotation's members with their users' roles, in order. */
export async function listMembersWithRoles(
  db: Db | Tx,
  rotationId: number,
): Promise<MemberWithRoles[]> {
  return (await listMemberRoleRows(db, [rotationId])).map(({ member, roles, role }) => ({
    member,
    roles,
    role,
  }));
}

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
  return (await listMemberRoleRows(db, rotationIds)).map(({ member, roles, role }) => ({
    rotationId: member.rotationId,
    userId: member.userId,
    order: member.order,
    roles,
    role,
  }));
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
