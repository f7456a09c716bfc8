import { asc, eq } from 'drizzle-orm';
import type { OnCallTeamEntry, RotationAssignment } from '../../../shared/contracts/on-call-team';
import type { User } from '../../../shared/contracts/users';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { rotationMembers, rotations, users } from '../../db/schema';

/**
 * listOnCallTeam returns every user with their rotation assignments, sorted by name: two queries
 * whatever the number of users or rotations.
 */
export async function listOnCallTeam(db: Db, cipher: FieldCipher): Promise<OnCallTeamEntry[]> {
  const [userRows, memberships] = await Promise.all([
    db
      .select({
        id: users.id,
        nameEnc: users.nameEnc,
        emailEnc: users.emailEnc,
        notificationPreference: users.notificationPreference,
        timezone: users.timezone,
      })
      .from(users),
    db
      .select({
        userId: rotationMembers.userId,
        rotationId: rotations.id,
        rotationName: rotations.name,
        isSuspended: rotations.suspended,
      })
      .from(rotationMembers)
      .innerJoin(rotations, eq(rotations.id, rotationMembers.rotationId))
      .orderBy(asc(rotations.name), asc(rotations.id)),
  ]);
  const byUser = new Map<number, RotationAssignment[]>();
  for (const m of memberships) {
    const list = byUser.get(m.userId) ?? [];
    list.push({
      rotationId: m.rotationId,
      rotationName: m.rotationName,
      isSuspended: m.isSuspended,
    });
    byUser.set(m.userId, list);
  }
  return userRows
    .map((u) => {
      const assignments = byUser.get(u.id) ?? [];
      const active = assignments.filter((a) => !a.isSuspended).length;
      return {
        id: u.id,
        name: cipher.decrypt(u.nameEnc, { table: 'users', column: 'name', rowId: u.id }),
        email: cipher.decrypt(u.emailEnc, { table: 'users', column: 'email', rowId: u.id }),
        notificationPreference: u.notificationPreference as User['notificationPreference'],
        timezone: u.timezone,
        rotationCount: assignments.length,
        activeRotationCount: active,
        isInActiveRotation: active > 0,
        rotationAssignments: assignments,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}
