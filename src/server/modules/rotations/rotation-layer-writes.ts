import type { RotationLayer } from '../../../shared/contracts/rotations';
import { effectiveRoles } from '../../../shared/domain/roles';
import { canHoldBaton } from '../../../shared/domain/rotation';
import type { Tx } from '../../db/client';
import { AppError } from '../../http/errors';
import { listMembersWithUsers } from '../members/member-reads';
import type { AnnounceDeps } from '../notifications/announce';
import { followWindows } from '../schedules/schedule-task';
import { findUserRows } from '../users/user-repository';
import { insertMember, type RotationRow } from './rotation-repository';

/**
 * Writing a rotation's layers (decision 247): who they may name, and what new layers start: their
 * people as members, and the baton with whoever they name now.
 */

export const LAYERED_SHIFT_MESSAGE =
  'This rotation runs on layers: change the shift length and handoff time in its layers';
const LAYER_MEMBER_MISSING = 'A layer names someone who is not a Baton user';
const LAYER_MEMBER_CANNOT_HOLD =
  'A layer names someone who cannot hold the baton: only on-call members and managers hold on-call';

/**
 * requireLayerMembers refuses layers naming anyone who is not a user who may hold the baton: 400
 * naming the layer's memberIds (decision 247). Nothing is written before it.
 */
export async function requireLayerMembers(tx: Tx, layers: readonly RotationLayer[]): Promise<void> {
  const ids = [...new Set(layers.flatMap((l) => l.memberIds))];
  const users = new Map((await findUserRows(tx, ids)).map((u) => [u.id, u]));
  for (const [i, layer] of layers.entries()) {
    for (const memberId of layer.memberIds) {
      const user = users.get(memberId);
      const message = !user
        ? LAYER_MEMBER_MISSING
        : canHoldBaton(effectiveRoles(user.roles, user.role))
          ? null
          : LAYER_MEMBER_CANNOT_HOLD;
      if (message) {
        throw new AppError('VALIDATION_FAILED', message, {
          [`layers.${i}.memberIds`]: message,
        });
      }
    }
  }
}

/**
 * startLayers makes everyone the layers name a member of the rotation (last, in the order they
 * first appear) and, unless it is suspended, gives the baton to whoever the layers name now.
 */
export async function startLayers(
  tx: Tx,
  deps: AnnounceDeps,
  row: RotationRow,
  layers: readonly RotationLayer[],
  now: Date,
): Promise<void> {
  const members = new Set((await listMembersWithUsers(tx, [row.id])).map((m) => m.member.userId));
  for (const userId of new Set(layers.flatMap((l) => l.memberIds))) {
    if (!members.has(userId)) await insertMember(tx, row.id, userId);
  }
  if (!row.suspended) {
    await followWindows(tx, deps, row, now);
  }
}
