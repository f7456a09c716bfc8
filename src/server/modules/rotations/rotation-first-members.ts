import { effectiveRoles } from '../../../shared/domain/roles';
import { canHoldBaton } from '../../../shared/domain/rotation';
import type { Tx } from '../../db/client';
import { AppError } from '../../http/errors';
import { insertLatestHandoff } from '../handoffs/handoff-repository';
import { type AnnounceDeps, announce } from '../notifications/announce';
import { nameOf, toldAs } from '../notifications/person-events';
import { findUserRows, findUsers } from '../users/user-repository';
import { insertMembersInOrder, type RotationRow, setHolder } from './rotation-repository';

/**
 * A rotation made with its members (decision 255): who they may be, and the first on call, who
 * holds the baton from the moment the rotation exists.
 */

/**
 * requireBatonHolders refuses anyone named who is not a user who may hold the baton (on-call or
 * manager): 400 naming the field that named them (`memberIds.2`, `layers.0.memberIds`), the
 * message starting with `who` ("A layer names"). Nothing is written before it.
 */
export async function requireBatonHolders(
  tx: Tx,
  named: readonly { id: number; field: string }[],
  who: string,
): Promise<void> {
  if (named.length === 0) return;
  const users = new Map(
    (await findUserRows(tx, [...new Set(named.map((n) => n.id))])).map((u) => [u.id, u]),
  );
  for (const { id, field } of named) {
    const user = users.get(id);
    const message = !user
      ? `${who} someone who is not a Baton user`
      : canHoldBaton(effectiveRoles(user.roles, user.role))
        ? null
        : `${who} someone who cannot hold the baton: only on-call members and managers hold on-call`;
    if (message) throw new AppError('VALIDATION_FAILED', message, { [field]: message });
  }
}

/**
 * startMembers makes a new fixed rotation's members, in order, and gives the baton to the first
 * on call: a `start` handoff from no one, which they acknowledge as any handoff they did not make
 * themselves (unless they made the rotation), and a message telling them, as a reassignment does.
 */
export async function startMembers(
  tx: Tx,
  deps: AnnounceDeps,
  row: RotationRow,
  memberIds: readonly number[],
  firstOnCallId: number | null,
  actorId: number,
  now: Date,
): Promise<void> {
  await insertMembersInOrder(tx, row.id, memberIds);
  if (firstOnCallId === null || row.suspended) return;
  await setHolder(tx, row.id, firstOnCallId, now);
  const handoff = await insertLatestHandoff(tx, {
    rotationId: row.id,
    fromUserId: null,
    toUserId: firstOnCallId,
    kind: 'start',
    occurredAt: now,
    acknowledgedAt: firstOnCallId === actorId ? now : null,
  });
  if (firstOnCallId === actorId) return;
  const people = await findUsers(tx, deps.cipher, [actorId, firstOnCallId]);
  await announce(tx, deps, now, {
    type: 'baton.reassigned',
    key: `handoff:${handoff.id}`,
    at: now,
    handoffId: handoff.id,
    told: toldAs('to', [people.get(firstOnCallId)]),
    rotation: { id: row.id, name: row.name },
    actorName: nameOf(people, actorId) ?? 'A manager',
    previousName: null,
    nextName: nameOf(people, firstOnCallId),
    notes: null,
  });
}
