import type { Handoff } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { awaitsAcknowledgement } from '../../../shared/domain/handoff-flow';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database } from '../../db/client';
import { AppError, forbidden, notFound } from '../../http/errors';
import { announce } from '../notifications/announce';
import { toldAs } from '../notifications/person-events';
import { lockRotationRow } from '../rotations/rotation-repository';
import { type PersonReader, personReader } from '../users/person-reader';
import { findUsers } from '../users/user-repository';
import {
  findHandoffWithPeople,
  type HandoffWithPeople,
  latestHandoffId,
  listRecentHandoffs,
  markAcknowledged,
} from './handoff-repository';

const HANDOFF_MESSAGES = {
  notFound: 'Handoff not found',
  notReceiver: 'Only the person who received the baton can acknowledge this handoff.',
  superseded: 'This handoff is no longer current: the baton has moved on since.',
} as const;

/** toHandoff maps a stored handoff to the API shape; notes are omitted when empty. */
function toHandoff(row: HandoffWithPeople, readPerson: PersonReader): Handoff {
  const { handoff } = row;
  return {
    id: handoff.id,
    status: handoff.status,
    kind: handoff.kind,
    fromUser: row.fromUser ? readPerson(row.fromUser) : null,
    toUser: row.toUser ? readPerson(row.toUser) : null,
    rotation: row.rotation,
    timestamp: handoff.occurredAt.toISOString(),
    ...(handoff.notes ? { notes: handoff.notes } : {}),
    urgent: handoff.urgent,
    acknowledgedAt: handoff.acknowledgedAt ? handoff.acknowledgedAt.toISOString() : null,
  };
}

/** recentHandoffs returns the latest `limit` handoffs across rotations, each user decrypted once. */
export async function recentHandoffs(
  deps: { database: Database; cipher: FieldCipher },
  viewer: User,
  limit: number,
): Promise<Handoff[]> {
  const rows = await listRecentHandoffs(deps.database.db, limit);
  const readPerson = personReader(deps.cipher, [viewer]);
  return rows.map((row) => toHandoff(row, readPerson));
}

/**
 * acknowledgeHandoff records that the receiver of the rotation's latest handoff, who still holds
 * the baton, acknowledges their new on-call duty ('B acknowledged new on-call duty'). Doing it
 * again changes nothing. After an emergency handoff the previous holder is told they are released.
 */
export async function acknowledgeHandoff(
  deps: {
    database: Database;
    cipher: FieldCipher;
    clock: Clock;
    config: Pick<Config, 'publicUrl' | 'port'>;
  },
  actor: User,
  id: number,
): Promise<Handoff> {
  const found = await findHandoffWithPeople(deps.database.db, id);
  if (!found) throw notFound(HANDOFF_MESSAGES.notFound);
  if (found.handoff.toUserId !== actor.id) throw forbidden(HANDOFF_MESSAGES.notReceiver);
  await deps.database.db.transaction(async (tx) => {
    const rotation = await lockRotationRow(tx, found.handoff.rotationId);
    if (!rotation) throw notFound(HANDOFF_MESSAGES.notFound);
    const current = await findHandoffWithPeople(tx, id);
    if (!current) throw notFound(HANDOFF_MESSAGES.notFound);
    const { handoff } = current;
    if (handoff.acknowledgedAt !== null || !awaitsAcknowledgement(handoff.kind)) return;
    if (rotation.holderUserId !== actor.id || (await latestHandoffId(tx, rotation.id)) !== id) {
      throw new AppError('CONFLICT', HANDOFF_MESSAGES.superseded);
    }
    const now = deps.clock.now();
    await markAcknowledged(tx, id, now);
    if (handoff.urgent && handoff.fromUserId !== null) {
      const people = await findUsers(tx, deps.cipher, [handoff.fromUserId]);
      await announce(tx, deps, now, {
        type: 'handoff.acknowledged',
        key: `handoff:${id}:acknowledged`,
        at: now,
        told: toldAs('to', [people.get(handoff.fromUserId)]),
        rotation: { id: current.rotation.id, name: current.rotation.name },
        toName: actor.name,
      });
    }
  });
  const updated = await findHandoffWithPeople(deps.database.db, id);
  if (!updated) throw notFound(HANDOFF_MESSAGES.notFound);
  return toHandoff(updated, personReader(deps.cipher, [actor]));
}
