import type { ReorderMembersInput, Rotation } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { effectiveRoles } from '../../../shared/domain/roles';
import {
  canHoldBaton,
  isPermutation,
  ROTATION_MESSAGES,
  successorOf,
} from '../../../shared/domain/rotation';
import { isLayered, layeredHolderAt, withoutMember } from '../../../shared/domain/rotation-layers';
import { AppError, conflict, notFound } from '../../http/errors';
import { insertHandoff } from '../handoffs/handoff-repository';
import { deleteScheduleEntriesFrom } from '../schedules/schedule-repository';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { findUserRowById } from '../users/user-repository';
import {
  deleteMember,
  insertMember,
  setHolder,
  setMemberOrders,
  updateRotationRow,
} from './rotation-repository';
import {
  audit,
  getRotation,
  inLockedRotation,
  type Locked,
  personName,
  type RotationDeps,
  requireManaged,
  rolesOf,
  tellManagers,
} from './rotation-service';

/**
 * A rotation's membership: its order, and people added and removed, each in one transaction
 * under the rotation's lock, by the people who manage it (decision 233).
 */

/** reorderMembers applies a complete new order; anything but a permutation of the members is refused. */
export async function reorderMembers(
  deps: RotationDeps,
  actor: User,
  id: number,
  input: ReorderMembersInput,
): Promise<Rotation> {
  await inLockedRotation(deps, id, async (locked) => {
    requireManaged(locked, actor);
    const memberIds = locked.members.map((m) => m.member.id);
    if (!isPermutation(memberIds, input.members)) {
      const given = new Set(input.members.map((m) => m.id));
      const sameMembers =
        given.size === memberIds.length && memberIds.every((memberId) => given.has(memberId));
      throw sameMembers
        ? new AppError('BAD_REQUEST', ROTATION_MESSAGES.notPermutation)
        : conflict(ROTATION_MESSAGES.membersChanged);
    }
    await noteShiftChange(locked.tx, deps, id, locked.now);
    await setMemberOrders(locked.tx, id, input.members);
    const userIdOf = new Map(locked.members.map((m) => [m.member.id, m.member.userId]));
    const userIds = [...input.members]
      .sort((a, b) => a.order - b.order)
      .map((m) => userIdOf.get(m.id) as number);
    const changeId = await audit(locked, actor, 'rotation.members_reordered', { userIds });
    await tellManagers(
      deps,
      locked,
      actor,
      changeId,
      (people) => ({
        kind: 'members_reordered',
        order: userIds.map((userId) => personName(people, userId)),
      }),
      userIds,
    );
  });
  return getRotation(deps, id, actor);
}

/** addMember puts an eligible user (on-call or manager, not yet a member) last in the rotation. */
export async function addMember(
  deps: RotationDeps,
  actor: User,
  id: number,
  userId: number,
): Promise<Rotation> {
  await inLockedRotation(deps, id, async (locked) => {
    // Adding oneself is refused like the rest: a membership is what makes a manager manage it.
    requireManaged(locked, actor);
    const user = await findUserRowById(locked.tx, userId);
    if (!user) throw notFound('User not found');
    if (!canHoldBaton(effectiveRoles(user.roles, user.role))) {
      throw conflict('Only users with the on-call or manager role can be added to a rotation.');
    }
    if (locked.members.some((m) => m.member.userId === userId)) {
      throw conflict('That person is already a member of this rotation.');
    }
    await noteShiftChange(locked.tx, deps, id, locked.now);
    const member = await insertMember(locked.tx, id, userId);
    const changeId = await audit(locked, actor, 'rotation.member_added', {
      userId,
      order: member.order,
    });
    await tellManagers(
      deps,
      locked,
      actor,
      changeId,
      (people) => ({ kind: 'member_added', memberName: personName(people, userId) }),
      [userId],
    );
  });
  return getRotation(deps, id, actor);
}

/**
 * layeredHolderWithout returns who a layered rotation's layers name at `now` once `userId` has
 * left: its baton goes where the clock says (decision 247), not to the next member in order.
 */
function layeredHolderWithout(
  row: Locked['row'],
  members: Locked['members'],
  userId: number,
  now: Date,
): number | null {
  const eligible = new Set(
    members
      .filter((m) => m.member.userId !== userId && canHoldBaton(rolesOf(m)))
      .map((m) => m.member.userId),
  );
  return layeredHolderAt(row, eligible, now);
}

/**
 * removeMember takes a user out of the rotation and renumbers the rest without gaps. Removing
 * the holder of an active rotation passes the baton to the next member who can hold it (a
 * handoff of kind member_removed); a suspended rotation, or one with nobody eligible, is left
 * with no holder (recorded the same way). The user's current and upcoming schedule entries in
 * the rotation go too (decision 021).
 */
export async function removeMember(
  deps: RotationDeps,
  actor: User,
  id: number,
  userId: number,
): Promise<Rotation> {
  await inLockedRotation(deps, id, async (locked) => {
    requireManaged(locked, actor);
    const { tx, row, members, now } = locked;
    if (!members.some((m) => m.member.userId === userId)) {
      throw notFound('That person is not a member of this rotation.');
    }
    await noteShiftChange(tx, deps, id, now);
    const wasHolder = row.holderUserId === userId;
    let newHolderUserId: number | null = null;
    if (wasHolder) {
      newHolderUserId = row.suspended
        ? null
        : isLayered(row)
          ? layeredHolderWithout(row, members, userId, now)
          : successorOf(
              members.map((m) => ({
                userId: m.member.userId,
                order: m.member.order,
                roles: rolesOf(m),
              })),
              userId,
            );
      // Move the baton before the membership goes, so the holder foreign key never dangles.
      await setHolder(tx, id, newHolderUserId, now);
      await insertHandoff(tx, {
        rotationId: id,
        fromUserId: userId,
        toUserId: newHolderUserId,
        kind: 'member_removed',
        occurredAt: now,
      });
    }
    await deleteMember(tx, id, userId);
    if (row.layers) {
      await updateRotationRow(tx, id, { layers: withoutMember(row.layers, userId) }, now);
    }
    const removedScheduleEntries = await deleteScheduleEntriesFrom(tx, row, userId, now);
    const changeId = await audit(locked, actor, 'rotation.member_removed', {
      userId,
      wasHolder,
      newHolderUserId,
      removedScheduleEntries,
    });
    await tellManagers(
      deps,
      locked,
      actor,
      changeId,
      (people) => ({
        kind: 'member_removed',
        memberName: personName(people, userId),
        wasHolder,
        newHolderName: newHolderUserId === null ? null : personName(people, newHolderUserId),
      }),
      [userId, newHolderUserId],
    );
  });
  return getRotation(deps, id, actor);
}
