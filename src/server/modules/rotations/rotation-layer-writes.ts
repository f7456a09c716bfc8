import type { RotationLayer } from '../../../shared/contracts/rotations';
import type { Tx } from '../../db/client';
import { listMembersWithUsers } from '../members/member-reads';
import type { AnnounceDeps } from '../notifications/announce';
import { followWindows } from '../schedules/schedule-task';
import { requireBatonHolders } from './rotation-first-members';
import { insertMember, type RotationRow } from './rotation-repository';

/**
 * Writing a rotation's layers (decision 247): who they may name, and what new layers start: their
 * people as members, and the baton with whoever they name now.
 */

export const LAYERED_SHIFT_MESSAGE =
  'This rotation runs on layers: change the shift length and handoff time in its layers';

/**
 * requireLayerMembers refuses layers naming anyone who is not a user who may hold the baton: 400
 * naming the layer's memberIds (decision 247). Nothing is written before it.
 */
export async function requireLayerMembers(tx: Tx, layers: readonly RotationLayer[]): Promise<void> {
  await requireBatonHolders(
    tx,
    layers.flatMap((layer, i) =>
      layer.memberIds.map((id) => ({ id, field: `layers.${i}.memberIds` })),
    ),
    'A layer names',
  );
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
