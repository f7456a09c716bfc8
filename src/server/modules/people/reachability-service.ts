import type { Reachability } from '../../../shared/contracts/reachability';
import type { User } from '../../../shared/contracts/users';
import { managesRotation } from '../../../shared/domain/permissions-rotation';
import { reachOf, type SetUpMethods } from '../../../shared/domain/reachability';
import { hasRole } from '../../../shared/domain/roles';
import type { AppDeps } from '../../core/deps';
import { users } from '../../db/schema';
import { readyMethods } from '../notifications/channels';
import { countPushDevices } from '../push/push-subscription-repository';
import { listRotationFactsOf } from '../rotations/rotation-repository';
import { findUserRows, rulesOf, toUser } from '../users/user-repository';

/**
 * listReachability answers how each person `viewer` looks after can be reached (decision 254):
 * administrators everyone, managers the people of the rotations they manage and themselves,
 * anyone else themselves; by name.
 */
export async function listReachability(
  deps: Pick<AppDeps, 'database' | 'cipher' | 'config'>,
  viewer: User,
  notSetUp: SetUpMethods,
): Promise<Reachability> {
  const db = deps.database.db;
  let ids: number[] | null = [viewer.id];
  if (hasRole(viewer.roles, 'admin')) ids = null;
  else if (hasRole(viewer.roles, 'manager')) {
    const managed = (await listRotationFactsOf(db)).filter((r) => managesRotation(viewer, r));
    ids = [...new Set([viewer.id, ...managed.flatMap((r) => r.memberUserIds)])];
  }
  const rows = ids === null ? await db.select().from(users) : await findUserRows(db, ids);
  const devices = await countPushDevices(
    db,
    rows.map((row) => row.id),
  );
  const ready = readyMethods(deps.config);
  const people = rows
    .map((row) => {
      const user = toUser(row, deps.cipher);
      const reach = reachOf(
        {
          phone: user.phone,
          notificationPreference: user.notificationPreference,
          notificationRules: rulesOf(row),
        },
        notSetUp,
        { ...ready, pushDevices: devices.get(row.id) ?? 0 },
      );
      return { id: user.id, name: user.name, ...reach };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  return { people };
}
