import { and, asc, eq, gt } from 'drizzle-orm';
import {
  type PersonDetail,
  ROLE_UPDATE_MESSAGES,
  type UpdateUserValues,
  type User,
} from '../../../shared/contracts/users';
import { smsPhoneProblem } from '../../../shared/domain/notification-routing';
import { can } from '../../../shared/domain/permissions';
import { isAdmin, isRole, ROLES, type Role } from '../../../shared/domain/roles';
import type { Clock } from '../../core/clock';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { reachOfEntries } from '../../db/entry-occurrences';
import { rotationMembers, rotations, scheduleEntries } from '../../db/schema';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors';
import { recordAdminEvent } from '../audit/people-events';
import { listCoverageFor } from '../coverage/coverage-repository';
import { endTokenSyncs } from '../token-sync/token-sync-service';
import {
  deleteUserRow,
  findUserRowById,
  listRotationsOf,
  lockUserRow,
  setUserRoles,
  toUser,
  updateUserProfile,
} from '../users/user-repository';

export interface UserServiceDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
}

/**
 * readPerson answers the read-only person view (decision 187): name, email, phone, time zone,
 * their rotations and the coverage they give (accepted or running, not yet ended). Three
 * queries whatever the number of rotations or requests; 404 for an unknown or deleted person.
 */
export async function readPerson(deps: UserServiceDeps, id: number): Promise<PersonDetail> {
  const now = deps.clock.now();
  const [row, memberships, coverage] = await Promise.all([
    findUserRowById(deps.db, id),
    listRotationsOf(deps.db, id),
    listCoverageFor(deps.db, {
      coveringUserId: id,
      statuses: ['accepted', 'active'],
      endsAfter: now,
    }),
  ]);
  if (!row) throw notFound('User not found');
  const user = toUser(row, deps.cipher);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    phone: user.phone,
    timezone: user.timezone,
    rotations: memberships.map((m) => ({
      id: m.id,
      name: m.name,
      isSuspended: m.isSuspended,
      holdsBaton: m.holderUserId === id,
    })),
    covering: coverage
      .map(({ request, rotation, requester }) => ({
        id: request.id,
        rotation,
        requester: {
          id: requester.id,
          name: deps.cipher.decrypt(requester.nameEnc, {
            table: 'users',
            column: 'name',
            rowId: requester.id,
          }),
        },
        startTime: request.startAt.toISOString(),
        endTime: request.endAt.toISOString(),
        status: request.status as 'accepted' | 'active',
      }))
      .sort((a, b) => a.startTime.localeCompare(b.startTime) || a.id - b.id),
  };
}

/**
 * deleteUser deletes another user and ends their sessions (cascade). Refuses (409, naming the
 * rotations) while the user is a member of a rotation — which covers holding a baton — or has a
 * current or upcoming schedule entry, so no rotation loses its holder or a shift silently
 * (decision 014). Nobody deletes themselves.
 */
export async function deleteUser(deps: UserServiceDeps, actor: User, id: number): Promise<void> {
  if (id === actor.id) throw badRequest('You cannot delete your own account.');
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    // Locking the user row blocks a membership being added meanwhile (its foreign key check).
    const row = await lockUserRow(tx, id);
    if (!row) throw notFound('User not found');
    const [members, scheduled] = await Promise.all([
      tx
        .select({ name: rotations.name })
        .from(rotationMembers)
        .innerJoin(rotations, eq(rotations.id, rotationMembers.rotationId))
        .where(eq(rotationMembers.userId, id))
        .orderBy(asc(rotations.name)),
      tx
        .select({ name: rotations.name })
        .from(scheduleEntries)
        .innerJoin(rotations, eq(rotations.id, scheduleEntries.rotationId))
        .where(and(eq(scheduleEntries.userId, id), gt(reachOfEntries, now)))
        .orderBy(asc(rotations.name)),
    ]);
    const names = [...new Set([...members, ...scheduled].map((r) => r.name))];
    if (names.length > 0) {
      const user = toUser(row, deps.cipher);
      const which = names.length === 1 ? 'rotation' : 'rotations';
      throw conflict(
        `${user.name} is still in the ${which} ${names.join(', ')}. Remove them from the ${which} (passing on the baton if they hold it) before deleting the account.`,
      );
    }
    // Their sessions go with them: the companion service hears of each (decision 228).
    await endTokenSyncs(tx, deps.cipher, now, { userId: id });
    await deleteUserRow(tx, id);
    await recordAdminEvent(
      tx,
      {
        actorUserId: actor.id,
        action: 'user.deleted',
        targetType: 'user',
        targetId: id,
        details: { roles: row.roles },
        at: now,
      },
      { cipher: deps.cipher, targetName: toUser(row, deps.cipher).name },
    );
  });
}

/**
 * updateUserRoles replaces a user's roles, with the rules of specification section 5: at least
 * one role, only the four known roles, and an administrator keeps their own admin role. Nothing
 * else changes (sessions stay; the next request already sees the new roles).
 */
export async function updateUserRoles(
  deps: UserServiceDeps,
  actor: User,
  id: number,
  requested: string[],
): Promise<User> {
  if (requested.length === 0) throw badRequest(ROLE_UPDATE_MESSAGES.none);
  if (!requested.every(isRole)) throw badRequest(ROLE_UPDATE_MESSAGES.invalid);
  const roles: Role[] = ROLES.filter((r) => requested.includes(r));
  if (id === actor.id && isAdmin(actor.roles) && !isAdmin(roles)) {
    throw badRequest(ROLE_UPDATE_MESSAGES.ownAdmin);
  }
  return deps.db.transaction(async (tx) => {
    const row = await lockUserRow(tx, id);
    if (!row) throw notFound('User not found');
    const before = toUser(row, deps.cipher).roles;
    await setUserRoles(tx, id, roles);
    await recordAdminEvent(tx, {
      actorUserId: actor.id,
      action: 'user.roles_changed',
      targetType: 'user',
      targetId: id,
      details: { from: before, to: roles },
      at: deps.clock.now(),
    });
    const updated = await lockUserRow(tx, id);
    return toUser(updated!, deps.cipher);
  });
}

/**
 * updateProfile changes a user's name, phone, time zone or notification preference: one's own,
 * or anyone's for an administrator (403 otherwise, decided before anything is looked up).
 */
export async function updateProfile(
  deps: UserServiceDeps,
  actor: User,
  id: number,
  input: UpdateUserValues,
): Promise<User> {
  if (id !== actor.id && !can(actor.roles, 'profile.editAny')) {
    throw forbidden('You can only update your own profile.');
  }
  return deps.db.transaction(async (tx) => {
    const user = await updateUserProfile(tx, deps.cipher, id, {
      name: input.name,
      phone: input.phone,
      timezone: input.timezone,
      notificationPreference: input.notificationPreference,
    });
    if (!user) throw notFound('User not found');
    // With SMS chosen, the phone (given now or stored) must be E.164; the transaction rolls back.
    const problem = smsPhoneProblem(user.notificationPreference, user.phone);
    if (problem) throw new AppError('VALIDATION_FAILED', problem, { phone: problem });
    return user;
  });
}
