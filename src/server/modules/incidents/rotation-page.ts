import type { PageInputSchema } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { canPageRotation } from '../../../shared/domain/permissions-rotation';
import { pageRefusal, ROTATION_MESSAGES } from '../../../shared/domain/rotation';
import { AppError, forbidden } from '../../http/errors';
import {
  inLockedRotation,
  type RotationDeps,
  refusalError,
  stateOf,
} from '../rotations/rotation-service';
import { personReader } from '../users/person-reader';
import { findUsers } from '../users/user-repository';
import { defaultSeverity, raiseIncident } from './incident-engine';

// Paging a rotation from its page: an incident on the rotation's policy (decision 204).

type PageInput = ReturnType<typeof PageInputSchema.parse>;

/**
 * pageRotation raises an incident on the rotation's policy and names who it went to: the holder,
 * or, when nobody holds the baton, whoever the policy's next step reached (its first step, the
 * rotation, reaches nobody and is skipped, as for an integration's alert: decision 263). When no
 * step reaches anyone the page is refused and nothing is written. Incident managers and admins
 * page any rotation, managers only the ones they manage; the paging module sends it.
 */
export async function pageRotation(
  deps: RotationDeps,
  actor: User,
  id: number,
  input: PageInput,
): Promise<{ sentTo: { name: string } }> {
  return inLockedRotation(deps, id, async (locked) => {
    const { row, members, tx } = locked;
    const managed = {
      createdById: row.createdById,
      memberUserIds: members.map((m) => m.member.userId),
    };
    if (!canPageRotation(actor, managed)) {
      throw forbidden('Managers can page only the rotations they manage.');
    }
    const refusal = pageRefusal(stateOf(row, members));
    if (refusal && refusal.code !== 'NO_ONE_ON_CALL') throw refusalError(refusal);
    // The holder is a member (a database constraint): their row was read under the lock.
    const holder = members.find((m) => m.user.id === row.holderUserId)?.user;
    // A page is an incident on the rotation's policy (decision 204): its first step notifies.
    const incident = await raiseIncident(tx, deps, {
      rotation: row,
      raisedBy: actor,
      source: 'user',
      message: input.message,
      severity: defaultSeverity(input.urgency),
      urgency: input.urgency,
      now: locked.now,
    });
    if (holder) return { sentTo: { name: personReader(deps.cipher, [actor])(holder).name } };
    // Thrown inside the transaction: the incident and its exhaustion notices are not written.
    const reached = incident.targetUserId;
    if (reached === null) throw new AppError('NO_ONE_ON_CALL', ROTATION_MESSAGES.noOneOnCall);
    const person = (await findUsers(tx, deps.cipher, [reached])).get(reached);
    return { sentTo: { name: person?.name ?? '' } };
  });
}
