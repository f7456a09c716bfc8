import type {
  CoverageRequest,
  PassBatonInputSchema,
  ReassignInputSchema,
  Rotation,
} from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import {
  coverageRefusal,
  passBatonRefusal,
  reassignRefusal,
  takeOnCallRefusal,
} from '../../../shared/domain/rotation';
import { notFound } from '../../http/errors';
import { insertCoverageRequest } from '../coverage/coverage-repository';
import { insertLatestHandoff } from '../handoffs/handoff-repository';
import {
  notifyBatonPassed,
  notifyCoverageRequested,
  notifyOnCallTaken,
  notifyReassigned,
} from '../notifications/notify';
import { findUserRows } from '../users/user-repository';
import { type MemberWithRoles, setHolder } from './rotation-repository';
import {
  actorOf,
  getRotation,
  inBatonChange,
  inLockedRotation,
  type RotationDeps,
  refusalError,
  requireManaged,
  rolesOf,
  rotationAfterChange,
  stateOf,
} from './rotation-service';
import { personReader } from './rotation-view';

/**
 * The baton between members: taken when no one holds it, passed by its holder, reassigned by a
 * manager, and a window of it covered by another member on request; one transaction each, under
 * the rotation's lock, refused with BATON_HOLDER_CHANGED when the holder changed meanwhile.
 */

type PassInput = ReturnType<typeof PassBatonInputSchema.parse>;
type ReassignInput = ReturnType<typeof ReassignInputSchema.parse>;

/** takeOnCall gives the baton to the caller: a member, when no one holds it. */
export async function takeOnCall(deps: RotationDeps, actor: User, id: number): Promise<Rotation> {
  const answer = await inBatonChange(deps, id, async (locked) => {
    const refusal = takeOnCallRefusal(stateOf(locked.row, locked.members), actorOf(actor));
    if (refusal) throw refusalError(refusal);
    const row = await setHolder(locked.tx, id, actor.id, locked.now);
    const handoff = await insertLatestHandoff(locked.tx, {
      rotationId: id,
      fromUserId: null,
      toUserId: actor.id,
      kind: 'take',
      occurredAt: locked.now,
      // Taking the baton is its own acknowledgement.
      acknowledgedAt: locked.now,
    });
    await notifyOnCallTaken(locked.tx, deps, {
      handoffId: handoff.id,
      rotation: { ...locked.row, members: locked.members },
      takerId: actor.id,
      now: locked.now,
      known: locked.members.map((m) => m.user),
    });
    return rotationAfterChange(deps, locked, row, handoff, actor);
  });
  return answer ?? getRotation(deps, id, actor);
}

function receiverOf(members: MemberWithRoles[], userId: number) {
  const member = members.find((m) => m.member.userId === userId);
  return { id: userId, roles: member ? rolesOf(member) : undefined };
}

/** passBaton hands the baton from the caller (the holder) to another member, with notes. */
export async function passBaton(
  deps: RotationDeps,
  actor: User,
  id: number,
  input: PassInput,
): Promise<Rotation> {
  const answer = await inBatonChange(deps, id, async (locked) => {
    const refusal = passBatonRefusal(
      stateOf(locked.row, locked.members),
      actorOf(actor),
      receiverOf(locked.members, input.toUserId),
    );
    if (refusal) throw refusalError(refusal);
    const row = await setHolder(locked.tx, id, input.toUserId, locked.now);
    const handoff = await insertLatestHandoff(locked.tx, {
      rotationId: id,
      fromUserId: actor.id,
      toUserId: input.toUserId,
      kind: 'pass',
      notes: input.notes,
      urgent: input.urgent,
      occurredAt: locked.now,
    });
    await notifyBatonPassed(locked.tx, deps, {
      handoffId: handoff.id,
      rotation: locked.row,
      fromUserId: actor.id,
      toUserId: input.toUserId,
      notes: input.notes,
      urgent: input.urgent,
      now: locked.now,
      known: locked.members.map((m) => m.user),
    });
    return rotationAfterChange(deps, locked, row, handoff, actor);
  });
  return answer ?? getRotation(deps, id, actor);
}

/** reassign moves the baton (a manager or admin) to a member other than the holder. */
export async function reassign(
  deps: RotationDeps,
  actor: User,
  id: number,
  input: ReassignInput,
): Promise<Rotation> {
  const answer = await inBatonChange(deps, id, async (locked) => {
    requireManaged(locked, actor);
    const refusal = reassignRefusal(
      stateOf(locked.row, locked.members),
      actorOf(actor),
      receiverOf(locked.members, input.toUserId),
    );
    if (refusal) throw refusalError(refusal);
    const row = await setHolder(locked.tx, id, input.toUserId, locked.now);
    const handoff = await insertLatestHandoff(locked.tx, {
      rotationId: id,
      fromUserId: locked.row.holderUserId,
      toUserId: input.toUserId,
      kind: 'reassign',
      notes: input.notes,
      occurredAt: locked.now,
    });
    await notifyReassigned(locked.tx, deps, {
      handoffId: handoff.id,
      rotation: locked.row,
      actorId: actor.id,
      fromUserId: locked.row.holderUserId,
      toUserId: input.toUserId,
      notes: input.notes,
      now: locked.now,
      known: locked.members.map((m) => m.user),
    });
    return rotationAfterChange(deps, locked, row, handoff, actor);
  });
  return answer ?? getRotation(deps, id, actor);
}

/** requestCoverage stores the holder's request for another member to cover a window (pending). */
export async function requestCoverage(
  deps: RotationDeps,
  actor: User,
  id: number,
  input: {
    coveringUserId: number;
    startTime: string;
    endTime: string;
    notes?: string | null;
  },
): Promise<CoverageRequest> {
  const row = await inLockedRotation(deps, id, async (locked) => {
    const refusal = coverageRefusal(
      stateOf(locked.row, locked.members),
      actorOf(actor),
      {
        coveringUser: receiverOf(locked.members, input.coveringUserId),
        startTime: input.startTime,
        endTime: input.endTime,
      },
      locked.now,
    );
    if (refusal) throw refusalError(refusal);
    const request = await insertCoverageRequest(locked.tx, {
      rotationId: id,
      requesterId: actor.id,
      coveringUserId: input.coveringUserId,
      startAt: new Date(input.startTime),
      endAt: new Date(input.endTime),
      notes: input.notes?.trim() ? input.notes.trim() : null,
      createdAt: locked.now,
    });
    await notifyCoverageRequested(locked.tx, deps, {
      requestId: request.id,
      rotation: locked.row,
      requesterId: actor.id,
      coveringUserId: request.coveringUserId,
      startAt: request.startAt,
      endAt: request.endAt,
      notes: request.notes,
      now: locked.now,
    });
    return request;
  });
  const readPerson = personReader(deps.cipher, [actor]);
  const people = new Map(
    (await findUserRows(deps.database.db, [row.requesterId, row.coveringUserId])).map((u) => [
      u.id,
      readPerson(u),
    ]),
  );
  const requester = people.get(row.requesterId);
  const coveringUser = people.get(row.coveringUserId);
  if (!requester || !coveringUser) throw notFound('User not found');
  return {
    id: row.id,
    rotationId: row.rotationId,
    requester,
    coveringUser,
    startTime: row.startAt.toISOString(),
    endTime: row.endAt.toISOString(),
    notes: row.notes,
    status: row.status,
  };
}
