import type { ErrorCode } from '../contracts/errors';
import { can } from './permissions';
import type { Actor, Role } from './roles';
import { type AwayWindow, isAwayDuring, type Span } from './time-off';

/**
 * The rules of a rotation and its baton (specification sections 4, 5 and 6): who is next, who may
 * take, pass or reassign the baton, coverage and schedule validation. Pure: the clock comes in as
 * `now`. The server enforces these inside a transaction; the client uses them to show controls.
 */

export interface RotationMemberState {
  userId: number;
  /** zero-based position in the rotation */
  order: number;
}

/** A window in which one user holds the baton (a schedule entry, or a coverage window). */
export interface ScheduleWindow {
  userId: number;
  startTime: string | Date;
  endTime: string | Date;
}

/** RotationState is what the rules read; the API's Rotation shape satisfies it. */
export interface RotationState {
  type: 'fixed' | 'scheduled';
  suspended: boolean;
  /** the holder of the baton, or null */
  currentOnCallUserId: number | null;
  members: readonly RotationMemberState[];
  /** the rotation's schedule entries; only scheduled rotations read them (absent: none known) */
  schedule?: readonly ScheduleWindow[];
  /**
   * a fixed rotation's next turn as time off shapes it (decision 256): the next shift, whose turn
   * the current one is, and the members' time off; absent: no time off is known, and the member
   * after the holder in order is next
   */
  turn?: TurnContext;
}

/** What a fixed rotation's next turn is decided from, besides its members and holder. */
export interface TurnContext {
  /** the next shift (turnSpansAt in shifts.ts) */
  shift: Span;
  /** whose turn the current shift is (the rotation's stored turn owner, decision 256) */
  turnUserId: number | null;
  timeOff: readonly AwayWindow[];
}

/** Refusal says why a rule refuses: an error code, a message users see, and the field at fault. */
export interface Refusal {
  code: ErrorCode;
  message: string;
  field?: string;
}

/**
 * How far in the past a start time may lie and still count as "now": the time between opening a
 * form and submitting it, and small clock differences between browser and server.
 */
export const START_TIME_GRACE_MS = 5 * 60_000;

/** The messages of each refusal; the server answers with these and the client may show them. */
export const ROTATION_MESSAGES = {
  suspended: 'This rotation is suspended and does not accept handoffs. Activate it first.',
  suspendedPaging: 'This rotation is suspended and takes no part in alerting. Activate it first.',
  cannotHold: 'Incident managers cannot hold or pass the baton.',
  takeNotMember: 'You must be a member of this rotation to take on-call.',
  alreadyHeld: 'Someone is already on call for this rotation.',
  youAlreadyHold: 'You are already on call for this rotation.',
  passNotHolder: 'You must be on-call to pass the baton.',
  passToSelf: 'You already hold the baton. Choose another team member.',
  targetNotMember: 'The person you chose is not a member of this rotation.',
  targetCannotHold:
    'The person you chose cannot hold the baton: only on-call members and managers hold on-call.',
  reassignNotAllowed: 'Only managers and administrators can reassign on-call.',
  reassignToHolder: 'That person is already on call. Choose someone else.',
  holderChanged: 'The baton changed hands while your request was waiting. Refresh and try again.',
  coverageNotHolder: 'You must be on-call to request coverage',
  coverageSelf: 'Choose a team member other than yourself to cover you.',
  noOneOnCall: 'No one is on call for this rotation, so there is no one to page.',
  startInPast: 'Start time cannot be in the past',
  startInvalid: 'Start time must be a valid date and time',
  endInvalid: 'End time must be a valid date and time',
  endBeforeStart: 'End time must be after start time',
  scheduleOverlap: 'This schedule entry overlaps another entry of this rotation.',
  scheduleRequired:
    'Cannot change the rotation type to scheduled without at least one schedule entry. Add a schedule entry first.',
  notPermutation: 'The new order must list every member once, with positions 0 to N-1.',
  membersChanged: 'The members of this rotation have changed. Refresh and try again.',
} as const;

const refuse = (code: ErrorCode, message: string, field?: string): Refusal =>
  field ? { code, message, field } : { code, message };

const time = (value: string | Date): number =>
  value instanceof Date ? value.getTime() : Date.parse(value);

/** membersInOrder returns the members sorted by their order. */
export function membersInOrder<M extends RotationMemberState>(members: readonly M[]): M[] {
  return [...members].sort((a, b) => a.order - b.order);
}

/** isMember tells whether the user is a member of the rotation. */
function isMember(rotation: Pick<RotationState, 'members'>, userId: number): boolean {
  return rotation.members.some((m) => m.userId === userId);
}

/** canHoldBaton tells whether roles allow holding the baton: on-call or manager (admin counts). */
export function canHoldBaton(roles: readonly Role[]): boolean {
  return can(roles, 'baton.hold');
}

/**
 * memberIdAfter returns the member after `holderId` among `memberIds` (already in order), wrapping
 * around; the first member when nobody, or a non-member, holds the baton; null when there are
 * fewer than two members: a sole member is never next, holding the baton or not (decision 120).
 * The rotation answer, the engine and the shift projections all ask this one function.
 */
export function memberIdAfter(
  memberIds: readonly number[],
  holderId: number | null,
): number | null {
  if (memberIds.length < 2) return null;
  const at = holderId === null ? -1 : memberIds.indexOf(holderId);
  return memberIds[(at + 1) % memberIds.length];
}

/** memberAfter returns the user id of the member after `userId` in order: memberIdAfter of the members. */
export function memberAfter(
  members: readonly RotationMemberState[],
  userId: number | null,
): number | null {
  return memberIdAfter(
    membersInOrder(members).map((m) => m.userId),
    userId,
  );
}

// Time off and turns (issue 18, decision 217; issue 35, decision 256): the rule time-off.ts describes.

/**
 * How a shift came to its holder: its owner's own turn, a cover for an away owner (the next
 * member in order who is available, for that shift alone), or a gap (nobody available; the owner
 * keeps it).
 */
export type TurnKind = 'turn' | 'cover' | 'gap';

/** Who holds a shift, whose turn it is in the order, and how. */
export interface Turn {
  holderId: number | null;
  ownerId: number | null;
  kind: TurnKind;
}

/** What the next turn of a fixed rotation is decided from. */
export interface TurnInput {
  /** members who can hold the baton, in order */
  memberIds: readonly number[];
  /** who holds the shift that is ending */
  holderId: number | null;
  /** whose turn the ending shift is (turnOwnerOf the stored turn owner) */
  ownerId: number | null;
  /** the shift to hand out */
  shift: Span;
  timeOff: readonly AwayWindow[];
}

/**
 * turnOwnerOf returns whose turn a fixed rotation's current shift is: the stored turn owner when
 * they are still a member who can hold the baton, else the holder (the order goes on from them,
 * as it did before decision 256, and does after a member is removed).
 */
export function turnOwnerOf(
  memberIds: readonly number[],
  turnUserId: number | null | undefined,
  holderId: number | null,
): number | null {
  return turnUserId != null && memberIds.includes(turnUserId) ? turnUserId : holderId;
}

/**
 * turnFrom returns who holds `shift` when it is `ownerId`'s turn: the owner when available, else
 * the next member in order who is (a cover, for this shift alone), else the owner with the shift
 * a gap.
 */
export function turnFrom(
  memberIds: readonly number[],
  ownerId: number,
  shift: Span,
  timeOff: readonly AwayWindow[],
): Turn {
  if (!isAwayDuring(timeOff, ownerId, shift)) return { holderId: ownerId, ownerId, kind: 'turn' };
  const at = memberIds.indexOf(ownerId);
  for (let step = 1; step < memberIds.length; step++) {
    const candidate = memberIds[(at + step) % memberIds.length];
    if (!isAwayDuring(timeOff, candidate, shift)) {
      return { holderId: candidate, ownerId, kind: 'cover' };
    }
  }
  return { holderId: ownerId, ownerId, kind: 'gap' };
}

/**
 * nextTurn returns who holds the next shift of a fixed rotation (decision 256): it is the turn of
 * the member after the ending shift's owner, whoever held that shift; they hold it when available,
 * else the next member in order who is, for that shift alone (an override, not a swap), else they
 * keep it as a gap. Time off thus changes only the shifts it overlaps. With fewer than two
 * members the holder keeps the baton (memberIdAfter: a sole member is never handed it), a gap if
 * away. Without time off it is memberIdAfter of the owner.
 */
export function nextTurn(input: TurnInput): Turn {
  const { memberIds, holderId, shift, timeOff } = input;
  if (memberIds.length < 2) {
    const away = holderId !== null && isAwayDuring(timeOff, holderId, shift);
    return { holderId, ownerId: holderId, kind: away ? 'gap' : 'turn' };
  }
  return turnFrom(memberIds, memberIdAfter(memberIds, input.ownerId) as number, shift, timeOff);
}

/** What a change of holder by hand (take, pass, reassign) re-anchors the turn from. */
export interface HandTurnInput {
  memberIds: readonly number[];
  holderId: number | null;
  /** the stored turn owner of the current shift */
  turnUserId: number | null;
  /** who receives the baton */
  receiverId: number;
  /**
   * the shift the change hands over: the one starting at the pending boundary when the change
   * handles it (isBoundaryHandedOff, and nothing handled it before), else the current one
   */
  shift: Span;
  /** whether `shift` is the next one (the change handles the pending boundary) */
  handlesBoundary: boolean;
  timeOff: readonly AwayWindow[];
}

/**
 * turnAfterHandChange returns the turn owner to store after a change of holder by hand: the
 * owner of the shift it hands over when the receiver is who the rule names for it (passing to
 * the cover the app names keeps the order, as the engine's transfer would); otherwise the
 * receiver (the order goes on from them, as it always has).
 */
export function turnAfterHandChange(input: HandTurnInput): number {
  const { memberIds, receiverId, shift, timeOff } = input;
  if (memberIds.length < 2 || !memberIds.includes(receiverId)) return receiverId;
  const owner = turnOwnerOf(memberIds, input.turnUserId, input.holderId);
  const turn = input.handlesBoundary
    ? nextTurn({ memberIds, holderId: input.holderId, ownerId: owner, shift, timeOff })
    : owner === null
      ? null
      : turnFrom(memberIds, owner, shift, timeOff);
  return turn && turn.holderId === receiverId && turn.ownerId !== null ? turn.ownerId : receiverId;
}

/**
 * nextOnCall returns the user id of the next person on call: for a fixed rotation the holder of
 * the next shift (nextTurn: the member after the holder in order, wrapping, going round time
 * off; no holder: the first member; a sole member: no one); for a scheduled rotation the user of
 * the first schedule entry starting after `now`. Null when there is no one.
 */
export function nextOnCall(rotation: RotationState, now: Date): number | null {
  if (rotation.type === 'scheduled') {
    const at = now.getTime();
    let best: ScheduleWindow | null = null;
    for (const entry of rotation.schedule ?? []) {
      const start = time(entry.startTime);
      if (!(start > at)) continue;
      if (!best || start < time(best.startTime)) best = entry;
    }
    return best ? best.userId : null;
  }
  if (!rotation.turn) return memberAfter(rotation.members, rotation.currentOnCallUserId);
  const memberIds = membersInOrder(rotation.members).map((m) => m.userId);
  if (memberIds.length < 2) return null;
  const holderId = rotation.currentOnCallUserId;
  const { shift, turnUserId, timeOff } = rotation.turn;
  return nextTurn({
    memberIds,
    holderId,
    ownerId: turnOwnerOf(memberIds, turnUserId, holderId),
    shift,
    timeOff,
  }).holderId;
}

export type MemberStatus = 'current' | 'next' | 'in_rotation';

/** MEMBER_STATUS_LABELS are the badges of the On-Call Team table. */
export const MEMBER_STATUS_LABELS: Record<MemberStatus, string> = {
  current: 'Currently On-Call',
  next: 'Next On-Call',
  in_rotation: 'In Rotation',
};

/**
 * memberStatus returns a member's standing: holding the baton, next on call, or in rotation. It
 * reads the holder and the next on call as the API answers them (Rotation satisfies the input).
 */
export function memberStatus(
  rotation: { currentOnCallUserId: number | null; nextOnCall: { id: number } | null },
  userId: number,
): MemberStatus {
  if (rotation.currentOnCallUserId === userId) return 'current';
  if (rotation.nextOnCall?.id === userId) return 'next';
  return 'in_rotation';
}

/** takeOnCallRefusal returns why the actor may not take the baton, or null when they may. */
export function takeOnCallRefusal(rotation: RotationState, actor: Actor): Refusal | null {
  if (!canHoldBaton(actor.roles)) return refuse('FORBIDDEN', ROTATION_MESSAGES.cannotHold);
  if (rotation.suspended) return refuse('ROTATION_SUSPENDED', ROTATION_MESSAGES.suspended);
  if (!isMember(rotation, actor.id)) return refuse('NOT_A_MEMBER', ROTATION_MESSAGES.takeNotMember);
  if (rotation.currentOnCallUserId === actor.id) {
    return refuse('BATON_ALREADY_HELD', ROTATION_MESSAGES.youAlreadyHold);
  }
  if (rotation.currentOnCallUserId !== null) {
    return refuse('BATON_ALREADY_HELD', ROTATION_MESSAGES.alreadyHeld);
  }
  return null;
}

/** canTakeOnCall tells whether the actor may take the baton: no one holds it and they are a member. */
export function canTakeOnCall(rotation: RotationState, actor: Actor): boolean {
  return takeOnCallRefusal(rotation, actor) === null;
}

/** A user the baton would go to: their id and roles (roles unknown: not checked). */
export interface Receiver {
  id: number;
  roles?: readonly Role[];
}

function receiverRefusal(rotation: RotationState, receiver: Receiver): Refusal | null {
  if (!isMember(rotation, receiver.id)) {
    return refuse('NOT_A_MEMBER', ROTATION_MESSAGES.targetNotMember, 'toUserId');
  }
  if (receiver.roles && !canHoldBaton(receiver.roles)) {
    return refuse('CANNOT_HOLD_BATON', ROTATION_MESSAGES.targetCannotHold, 'toUserId');
  }
  return null;
}

/**
 * passBatonRefusal returns why the actor may not pass the baton (to `receiver`, when given), or
 * null when they may: only the holder passes, to another member who can hold the baton.
 */
export function passBatonRefusal(
  rotation: RotationState,
  actor: Actor,
  receiver?: Receiver,
): Refusal | null {
  if (!canHoldBaton(actor.roles)) return refuse('FORBIDDEN', ROTATION_MESSAGES.cannotHold);
  if (rotation.suspended) return refuse('ROTATION_SUSPENDED', ROTATION_MESSAGES.suspended);
  if (rotation.currentOnCallUserId !== actor.id) {
    return refuse('NOT_ON_CALL', ROTATION_MESSAGES.passNotHolder);
  }
  if (!receiver) return null;
  if (receiver.id === actor.id) {
    return refuse('BAD_REQUEST', ROTATION_MESSAGES.passToSelf, 'toUserId');
  }
  return receiverRefusal(rotation, receiver);
}

/** canPassBaton tells whether the actor may pass the baton (to `receiver`, when given). */
export function canPassBaton(rotation: RotationState, actor: Actor, receiver?: Receiver): boolean {
  return passBatonRefusal(rotation, actor, receiver) === null;
}

/**
 * reassignRefusal returns why the actor may not reassign the baton (to `receiver`, when given),
 * or null: managers and administrators move it to a member other than the holder.
 */
export function reassignRefusal(
  rotation: RotationState,
  actor: Actor,
  receiver?: Receiver,
): Refusal | null {
  if (!can(actor.roles, 'baton.reassign')) {
    return refuse('FORBIDDEN', ROTATION_MESSAGES.reassignNotAllowed);
  }
  if (rotation.suspended) return refuse('ROTATION_SUSPENDED', ROTATION_MESSAGES.suspended);
  if (!receiver) return null;
  if (receiver.id === rotation.currentOnCallUserId) {
    return refuse('CONFLICT', ROTATION_MESSAGES.reassignToHolder, 'toUserId');
  }
  return receiverRefusal(rotation, receiver);
}

/** canReassign tells whether the actor may reassign the baton (to `receiver`, when given). */
export function canReassign(rotation: RotationState, actor: Actor, receiver?: Receiver): boolean {
  return reassignRefusal(rotation, actor, receiver) === null;
}

/** canRequestCoverage tells whether the actor may ask for coverage: they hold the baton. */
export function canRequestCoverage(rotation: RotationState, actor: Actor): boolean {
  return (
    canHoldBaton(actor.roles) && !rotation.suspended && rotation.currentOnCallUserId === actor.id
  );
}

/** coverageCandidates returns the members who may cover the actor: members other than themselves. */
export function coverageCandidates<M extends RotationMemberState>(
  members: readonly M[],
  actorId: number,
): M[] {
  return membersInOrder(members).filter((m) => m.userId !== actorId);
}

/** What a coverage request asks: who covers, and when. */
export interface CoverageAsk {
  coveringUser: Receiver;
  startTime: string | Date;
  endTime: string | Date;
}

/**
 * coverageRefusal returns why a coverage request may not be made, or null: only the holder asks,
 * another member who can hold the baton covers, the window starts now or later and ends after it
 * starts.
 */
export function coverageRefusal(
  rotation: RotationState,
  actor: Actor,
  ask: CoverageAsk,
  now: Date,
): Refusal | null {
  if (!canHoldBaton(actor.roles)) return refuse('FORBIDDEN', ROTATION_MESSAGES.cannotHold);
  if (rotation.suspended) return refuse('ROTATION_SUSPENDED', ROTATION_MESSAGES.suspended);
  if (rotation.currentOnCallUserId !== actor.id) {
    return refuse('NOT_ON_CALL', ROTATION_MESSAGES.coverageNotHolder);
  }
  if (ask.coveringUser.id === actor.id) {
    return refuse('BAD_REQUEST', ROTATION_MESSAGES.coverageSelf, 'coveringUserId');
  }
  const receiver = receiverRefusal(rotation, ask.coveringUser);
  if (receiver) return { ...receiver, field: 'coveringUserId' };
  return windowRefusal(ask, now);
}

function windowRefusal(
  window: { startTime: string | Date; endTime: string | Date },
  now: Date,
): Refusal | null {
  const start = time(window.startTime);
  const end = time(window.endTime);
  if (Number.isNaN(start)) {
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.startInvalid, 'startTime');
  }
  if (Number.isNaN(end)) {
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.endInvalid, 'endTime');
  }
  if (start < now.getTime() - START_TIME_GRACE_MS) {
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.startInPast, 'startTime');
  }
  if (!(end > start)) {
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.endBeforeStart, 'endTime');
  }
  return null;
}

export type ScheduleStatus = 'Current' | 'Past' | 'Upcoming' | 'Unknown';

/** scheduleStatus returns Current, Past or Upcoming for an entry at `now`; Unknown for bad dates. */
export function scheduleStatus(
  entry: { startTime: string | Date; endTime: string | Date },
  now: Date,
): ScheduleStatus {
  const start = time(entry.startTime);
  const end = time(entry.endTime);
  const at = now.getTime();
  if (Number.isNaN(start) || Number.isNaN(end) || end <= start) return 'Unknown';
  if (at >= end) return 'Past';
  if (at >= start) return 'Current';
  return 'Upcoming';
}

/** schedulesOverlap tells whether two windows share any instant; touching ends do not overlap. */
export function schedulesOverlap(
  a: { startTime: string | Date; endTime: string | Date },
  b: { startTime: string | Date; endTime: string | Date },
): boolean {
  return time(a.startTime) < time(b.endTime) && time(b.startTime) < time(a.endTime);
}

/**
 * scheduleEntryRefusal returns why a new schedule entry may not be added, or null: a member who
 * can hold the baton, a window that starts now or later and ends after it starts, and no overlap
 * with the rotation's other entries (a series: none of its occurrences overlaps).
 */
export function scheduleEntryRefusal(
  rotation: RotationState,
  entry: ScheduleWindow & { roles?: readonly Role[]; occurrences?: readonly ScheduleWindow[] },
  existing: readonly ScheduleWindow[],
  now: Date,
): Refusal | null {
  const window = windowRefusal(entry, now);
  if (window) return window;
  if (!isMember(rotation, entry.userId)) {
    return refuse('NOT_A_MEMBER', ROTATION_MESSAGES.targetNotMember, 'userId');
  }
  if (entry.roles && !canHoldBaton(entry.roles)) {
    return refuse('CANNOT_HOLD_BATON', ROTATION_MESSAGES.targetCannotHold, 'userId');
  }
  // A repeating entry is checked by its occurrences (decision 250), a single one by itself.
  const windows = entry.occurrences ?? [entry];
  if (existing.some((other) => windows.some((w) => schedulesOverlap(w, other)))) {
    return refuse('SCHEDULE_OVERLAP', ROTATION_MESSAGES.scheduleOverlap, 'startTime');
  }
  return null;
}

/** changeTypeRefusal returns why the type may not change, or null: scheduled needs an entry. */
export function changeTypeRefusal(
  to: RotationState['type'],
  scheduleEntryCount: number,
): Refusal | null {
  if (to === 'scheduled' && scheduleEntryCount === 0) {
    return refuse('SCHEDULE_REQUIRED', ROTATION_MESSAGES.scheduleRequired, 'type');
  }
  return null;
}

/**
 * isPermutation tells whether `proposed` lists every member id exactly once with the orders
 * 0…N-1, each once: the only reorder the server accepts.
 */
export function isPermutation(
  memberIds: readonly number[],
  proposed: readonly { id: number; order: number }[],
): boolean {
  if (proposed.length !== memberIds.length) return false;
  const ids = new Set(proposed.map((p) => p.id));
  const orders = new Set(proposed.map((p) => p.order));
  if (ids.size !== proposed.length || orders.size !== proposed.length) return false;
  if (!memberIds.every((id) => ids.has(id))) return false;
  return proposed.every(
    (p) => Number.isInteger(p.order) && p.order >= 0 && p.order < proposed.length,
  );
}

/**
 * successorOf returns the member who takes the baton when `userId` leaves: the next member after
 * them in order (wrapping) whose roles let them hold it, or the first such member when `userId`
 * is not one; null when there is none.
 */
export function successorOf(
  members: readonly (RotationMemberState & { roles: readonly Role[] })[],
  userId: number,
): number | null {
  const ordered = membersInOrder(members);
  // Not a member: as if just before the first, so the first is considered too.
  const at = ordered.findIndex((m) => m.userId === userId);
  for (let step = 1; step <= ordered.length; step++) {
    const candidate = ordered[(at + step) % ordered.length];
    if (candidate.userId !== userId && canHoldBaton(candidate.roles)) return candidate.userId;
  }
  return null;
}

/** nextMemberOrder returns the order a new member gets: the highest order plus one, or 0. */
export function nextMemberOrder(members: readonly RotationMemberState[]): number {
  return members.reduce((max, m) => Math.max(max, m.order + 1), 0);
}

/** pageRefusal returns why the rotation's holder cannot be paged, or null: active, with a holder. */
export function pageRefusal(rotation: RotationState): Refusal | null {
  if (rotation.suspended) return refuse('ROTATION_SUSPENDED', ROTATION_MESSAGES.suspendedPaging);
  if (rotation.currentOnCallUserId === null) {
    return refuse('NO_ONE_ON_CALL', ROTATION_MESSAGES.noOneOnCall);
  }
  return null;
}
