import type {
  PassBatonInputSchema,
  ReassignInputSchema,
  Rotation,
} from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import {
  isBoundaryHandedOff,
  KINDS_HANDLING_A_BOUNDARY,
} from '../../../shared/domain/handoff-flow';
import {
  canHoldBaton,
  passBatonRefusal,
  reassignRefusal,
  takeOnCallRefusal,
  turnAfterHandChange,
} from '../../../shared/domain/rotation';
import { followsWindows } from '../../../shared/domain/rotation-layers';
import { turnSpansAt } from '../../../shared/domain/shifts';
import { TIME_OFF_LOOKBACK_MS } from '../../../shared/domain/time-off';
import { insertLatestHandoff } from '../handoffs/handoff-repository';
import type { MemberWithRoles } from '../members/member-reads';
import { announce } from '../notifications/announce';
import { managerIdsOf } from '../notifications/notify';
import { nameOf, toldAs } from '../notifications/person-events';
import { listNextScheduleEntries } from '../schedules/schedule-repository';
import { personReader } from '../users/person-reader';
import { findUsers } from '../users/user-repository';
import {
  type RotationRow,
  readTurnFacts,
  setHolder,
  type TurnFactsRead,
} from './rotation-repository';
import {
  getRotation,
  inBatonChange,
  type Locked,
  patternOf,
  type RotationDeps,
  refusalError,
  requireManaged,
  rolesOf,
  stateOf,
  timingsOf,
} from './rotation-service';
import { type TurnFacts, toRotations } from './rotation-view';

/**
 * The baton between members: taken when no one holds it, passed by its holder, reassigned by a
 * manager, and a window of it covered by another member on request; one transaction each, under
 * the rotation's lock, refused with BATON_HOLDER_CHANGED when the holder changed meanwhile.
 */

type PassInput = ReturnType<typeof PassBatonInputSchema.parse>;

/**
 * turnFactsUnderLock reads once, under the lock, the turn facts that the turn rule and the answer
 * of a change of holder need (decision 290): the latest boundary handoff and the members' time
 * off from the earliest either reads, the start of the shift ending at the pending boundary or the
 * answer's look-back before it.
 */
async function turnFactsUnderLock(locked: Locked): Promise<TurnFactsRead> {
  const { row } = locked;
  const memberIds = locked.members.map((m) => m.member.userId);
  const lookBack = lookBackOf(row);
  let since: Date | null = null;
  if (row.nextHandoffAt && lookBack !== null) {
    const ending = turnSpansAt(patternOf(row), row.nextHandoffAt, false).ending.start.getTime();
    since = new Date(Math.min(lookBack, ending));
  }
  return readTurnFacts(locked.tx, row.id, memberIds, since);
}

/** lookBackOf: from when the answer's turn facts count time off, as listRotationsWithLatest does */
const lookBackOf = (row: RotationRow) =>
  row.nextHandoffAt ? row.nextHandoffAt.getTime() - TIME_OFF_LOOKBACK_MS : null;

/**
 * turnAfterHand returns whose turn the shift is after a change of holder by hand to `receiverId`
 * (decision 256): for a fixed rotation, the owner of the shift the change hands over when the
 * receiver is who the rule names for it (the cover the app names for an away member), else the
 * receiver, from whom the order then goes on. From the latest boundary handoff and the members'
 * time off around that shift, as read under the lock.
 */
function turnAfterHand(
  deps: RotationDeps,
  locked: Locked,
  facts: TurnFactsRead,
  receiverId: number,
) {
  const { row, now } = locked;
  if (row.type !== 'fixed' || followsWindows(row) || !row.nextHandoffAt) return receiverId;
  const memberIds = [...locked.members]
    .sort((a, b) => a.member.order - b.member.order)
    .filter((m) => canHoldBaton(rolesOf(m)))
    .map((m) => m.member.userId);
  const t = timingsOf(deps);
  const latest = facts.boundary;
  const handled = isBoundaryHandedOff(
    row.nextHandoffAt,
    latest ? new Date(latest.occurredAt) : null,
    t,
  );
  const handlesBoundary = !handled && isBoundaryHandedOff(row.nextHandoffAt, now, t);
  const spans = turnSpansAt(patternOf(row), row.nextHandoffAt, handled);
  const shift = handlesBoundary ? spans.shift : spans.ending;
  const members = new Set(memberIds);
  const timeOff = facts.away.filter(
    (w) => members.has(w.userId) && w.end > shift.start && w.start < shift.end,
  );
  return turnAfterHandChange({
    memberIds,
    holderId: row.holderUserId,
    turnUserId: row.turnUserId,
    receiverId,
    shift,
    handlesBoundary,
    timeOff,
  });
}

/**
 * rotationAfterChange answers a baton change from what its transaction read and wrote, with no
 * read after the commit: the row as updated, the members read under the lock, the handoff just
 * recorded as the latest, and the turn facts read under the lock with that handoff as the latest
 * boundary (decision 290). Undefined when another handoff is later (a clock set back): the caller
 * then reads the rotation as getRotation does.
 */
async function rotationAfterChange(
  deps: RotationDeps,
  locked: Locked,
  row: RotationRow,
  handoff: Awaited<ReturnType<typeof insertLatestHandoff>>,
  viewer: User,
  before: TurnFactsRead,
): Promise<Rotation | undefined> {
  if (!handoff.isLatest) return undefined;
  const next =
    row.type === 'scheduled' ? await listNextScheduleEntries(locked.tx, [row.id], locked.now) : [];
  const handles = (KINDS_HANDLING_A_BOUNDARY as readonly string[]).includes(handoff.kind);
  const boundary = handles
    ? { fromUserId: handoff.fromUserId, toUserId: handoff.toUserId, occurredAt: handoff.occurredAt }
    : before.boundary;
  const since = lookBackOf(row);
  const away = since === null ? [] : before.away.filter((w) => w.end.getTime() > since);
  const turns: TurnFacts = {
    boundary: new Map([[row.id, boundary]]),
    timeOff: new Map([[row.id, away]]),
  };
  const [rotation] = toRotations(
    [row],
    locked.members,
    next,
    personReader(deps.cipher, [viewer]),
    locked.now,
    { latest: new Map([[row.id, handoff]]), timings: timingsOf(deps), turns },
  );
  return rotation;
}

type ReassignInput = ReturnType<typeof ReassignInputSchema.parse>;

/** takeOnCall gives the baton to the caller: a member, when no one holds it. */
export async function takeOnCall(deps: RotationDeps, actor: User, id: number): Promise<Rotation> {
  const answer = await inBatonChange(deps, id, async (locked) => {
    const refusal = takeOnCallRefusal(stateOf(locked.row, locked.members), actor);
    if (refusal) throw refusalError(refusal);
    const facts = await turnFactsUnderLock(locked);
    const turnUserId = turnAfterHand(deps, locked, facts, actor.id);
    const row = await setHolder(locked.tx, id, actor.id, locked.now, { turnUserId });
    const handoff = await insertLatestHandoff(locked.tx, {
      rotationId: id,
      fromUserId: null,
      toUserId: actor.id,
      kind: 'take',
      occurredAt: locked.now,
      // Taking the baton is its own acknowledgement.
      acknowledgedAt: locked.now,
    });
    const managers = managerIdsOf({ ...locked.row, members: locked.members }).filter(
      (userId) => userId !== actor.id,
    );
    const known = locked.members.map((m) => m.user);
    const people = await findUsers(locked.tx, deps.cipher, [actor.id, ...managers], known);
    await announce(locked.tx, deps, locked.now, {
      type: 'baton.taken',
      key: `handoff:${handoff.id}`,
      at: locked.now,
      handoffId: handoff.id,
      told: toldAs(
        'to',
        managers.map((userId) => people.get(userId)),
      ),
      rotation: { id: locked.row.id, name: locked.row.name },
      takerName: nameOf(people, actor.id) ?? 'A member',
    });
    return rotationAfterChange(deps, locked, row, handoff, actor, facts);
  });
  return answer ?? getRotation(deps, id, actor);
}

export function receiverOf(members: MemberWithRoles[], userId: number) {
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
      actor,
      receiverOf(locked.members, input.toUserId),
    );
    if (refusal) throw refusalError(refusal);
    const facts = await turnFactsUnderLock(locked);
    const turnUserId = turnAfterHand(deps, locked, facts, input.toUserId);
    const row = await setHolder(locked.tx, id, input.toUserId, locked.now, { turnUserId });
    const handoff = await insertLatestHandoff(locked.tx, {
      rotationId: id,
      fromUserId: actor.id,
      toUserId: input.toUserId,
      kind: 'pass',
      notes: input.notes,
      urgent: input.urgent,
      occurredAt: locked.now,
    });
    const known = locked.members.map((m) => m.user);
    const people = await findUsers(locked.tx, deps.cipher, [actor.id, input.toUserId], known);
    await announce(locked.tx, deps, locked.now, {
      type: 'baton.passed',
      key: `handoff:${handoff.id}`,
      at: locked.now,
      handoffId: handoff.id,
      told: toldAs('to', [people.get(input.toUserId)]),
      rotation: { id: locked.row.id, name: locked.row.name },
      fromName: nameOf(people, actor.id),
      toName: nameOf(people, input.toUserId),
      notes: input.notes || null,
      urgent: input.urgent,
    });
    return rotationAfterChange(deps, locked, row, handoff, actor, facts);
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
      actor,
      receiverOf(locked.members, input.toUserId),
    );
    if (refusal) throw refusalError(refusal);
    const facts = await turnFactsUnderLock(locked);
    const turnUserId = turnAfterHand(deps, locked, facts, input.toUserId);
    const row = await setHolder(locked.tx, id, input.toUserId, locked.now, { turnUserId });
    const handoff = await insertLatestHandoff(locked.tx, {
      rotationId: id,
      fromUserId: locked.row.holderUserId,
      toUserId: input.toUserId,
      kind: 'reassign',
      notes: input.notes,
      occurredAt: locked.now,
    });
    const fromUserId = locked.row.holderUserId;
    const known = locked.members.map((m) => m.user);
    const people = await findUsers(
      locked.tx,
      deps.cipher,
      [actor.id, fromUserId, input.toUserId],
      known,
    );
    await announce(locked.tx, deps, locked.now, {
      type: 'baton.reassigned',
      key: `handoff:${handoff.id}`,
      at: locked.now,
      handoffId: handoff.id,
      told: [
        ...toldAs('to', [people.get(input.toUserId)]),
        ...toldAs('from', [
          fromUserId !== null && fromUserId !== input.toUserId ? people.get(fromUserId) : undefined,
        ]),
      ],
      rotation: { id: locked.row.id, name: locked.row.name },
      actorName: nameOf(people, actor.id) ?? 'A manager',
      previousName: nameOf(people, fromUserId),
      nextName: nameOf(people, input.toUserId),
      notes: input.notes || null,
    });
    return rotationAfterChange(deps, locked, row, handoff, actor, facts);
  });
  return answer ?? getRotation(deps, id, actor);
}
