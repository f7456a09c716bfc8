import type { Actor } from './roles';
import {
  canHoldBaton,
  type Receiver,
  type Refusal,
  ROTATION_MESSAGES,
  START_TIME_GRACE_MS,
} from './rotation';
import type { Shift } from './shifts';

/**
 * Planned cover (issue 18, decision 218): a member asks a teammate to cover a window of their own
 * future shifts; a manager of the rotation or an administrator arranges it for someone else, in
 * force at once. A cover plan is a coverage request (decision 053) whose window the requester
 * holds by the shared projection rather than right now. Pure: `now` comes in.
 */

/** How far ahead a cover plan may end. */
export const COVER_PLAN_MAX_DAYS_AHEAD = 366;
/** How far back "who should cover" counts on-call hours. */
export const COVER_CANDIDATE_HISTORY_DAYS = 90;

const DAY = 86_400_000;

export const COVER_PLAN_MESSAGES = {
  notMember: 'You must be a member of this rotation to ask for cover.',
  requesterNotMember: 'The person to be covered is not a member of this rotation.',
  arrangeNotAllowed:
    'Only managers of this rotation and administrators can arrange cover for someone else.',
  selfArranged: 'Choose someone other than the person being covered.',
  tooFarAhead: `Cover can be planned up to ${COVER_PLAN_MAX_DAYS_AHEAD} days ahead.`,
  notHeldBySelf:
    'You are not on call for all of this window. Choose a window within your own upcoming shifts.',
} as const;

/** notHeldMessage returns the refusal for a window the person to be covered does not hold throughout. */
export function notHeldMessage(requesterName: string | null, self: boolean): string {
  if (self) return COVER_PLAN_MESSAGES.notHeldBySelf;
  return `${requesterName ?? 'That person'} is not on call for all of this window. Choose a window within their upcoming shifts.`;
}

/** overlapMessage returns the refusal for a window that overlaps other cover, naming it (who and when). */
export function overlapMessage(other: {
  coveringName: string;
  requesterName: string;
  from: string;
  until: string;
}): string {
  return `This window overlaps other cover in this rotation: ${other.coveringName} covers ${other.requesterName} from ${other.from} until ${other.until}.`;
}

/** What a cover plan asks, as the rules read it. */
export interface CoverPlanAsk {
  /** the person being covered: the actor, or someone a manager or administrator arranges for */
  requesterId: number;
  covering: Receiver;
  startTime: string | Date;
  endTime: string | Date;
}

/** The rotation facts the rules read. */
export interface CoverPlanRotation {
  suspended: boolean;
  memberIds: readonly number[];
  /** the actor may arrange cover for others here (canArrangeCover) */
  actorMayArrange: boolean;
}

const refuse = (code: Refusal['code'], message: string, field?: string): Refusal =>
  field ? { code, message, field } : { code, message };

const time = (value: string | Date): number =>
  value instanceof Date ? value.getTime() : Date.parse(value);

/** isArranging tells whether a cover plan is arranged for someone else (not the actor). */
export function isArranging(actor: Actor, ask: Pick<CoverPlanAsk, 'requesterId'>): boolean {
  return ask.requesterId !== actor.id;
}

/**
 * coverPlanRefusal returns why a cover plan may not be made, or null, from what can be told
 * without the projection and the other cover: who may ask or arrange, who may cover, and a window
 * that starts now or later (a few minutes' grace), ends after it starts and within a year.
 */
export function coverPlanRefusal(
  rotation: CoverPlanRotation,
  actor: Actor,
  ask: CoverPlanAsk,
  now: Date,
): Refusal | null {
  const arranging = isArranging(actor, ask);
  if (arranging && !rotation.actorMayArrange) {
    return refuse('FORBIDDEN', COVER_PLAN_MESSAGES.arrangeNotAllowed);
  }
  if (!arranging && !canHoldBaton(actor.roles)) {
    return refuse('FORBIDDEN', ROTATION_MESSAGES.cannotHold);
  }
  if (rotation.suspended) return refuse('ROTATION_SUSPENDED', ROTATION_MESSAGES.suspended);
  if (!rotation.memberIds.includes(ask.requesterId)) {
    return arranging
      ? refuse('NOT_A_MEMBER', COVER_PLAN_MESSAGES.requesterNotMember, 'requesterId')
      : refuse('NOT_A_MEMBER', COVER_PLAN_MESSAGES.notMember);
  }
  if (ask.covering.id === ask.requesterId) {
    return refuse(
      'BAD_REQUEST',
      arranging ? COVER_PLAN_MESSAGES.selfArranged : ROTATION_MESSAGES.coverageSelf,
      'coveringUserId',
    );
  }
  if (!rotation.memberIds.includes(ask.covering.id)) {
    return refuse('NOT_A_MEMBER', ROTATION_MESSAGES.targetNotMember, 'coveringUserId');
  }
  if (ask.covering.roles && !canHoldBaton(ask.covering.roles)) {
    return refuse('CANNOT_HOLD_BATON', ROTATION_MESSAGES.targetCannotHold, 'coveringUserId');
  }
  const start = time(ask.startTime);
  const end = time(ask.endTime);
  if (Number.isNaN(start)) {
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.startInvalid, 'startTime');
  }
  if (Number.isNaN(end))
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.endInvalid, 'endTime');
  if (start < now.getTime() - START_TIME_GRACE_MS) {
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.startInPast, 'startTime');
  }
  if (!(end > start)) {
    return refuse('VALIDATION_FAILED', ROTATION_MESSAGES.endBeforeStart, 'endTime');
  }
  if (end > now.getTime() + COVER_PLAN_MAX_DAYS_AHEAD * DAY) {
    return refuse('VALIDATION_FAILED', COVER_PLAN_MESSAGES.tooFarAhead, 'endTime');
  }
  return null;
}

/**
 * holdsThroughout tells whether `userId` holds the baton at every instant of [start, end) by
 * `shifts` (a rotation's projected shifts, in any order): their shifts there leave no gap.
 */
export function holdsThroughout(
  shifts: readonly Shift[],
  userId: number,
  start: Date,
  end: Date,
): boolean {
  let covered = start.getTime();
  const own = shifts
    .filter((s) => s.userId === userId && s.end.getTime() > covered)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  for (const s of own) {
    if (s.start.getTime() > covered) return false;
    covered = Math.max(covered, s.end.getTime());
    if (covered >= end.getTime()) return true;
  }
  return covered >= end.getTime();
}

/** A member as "who should cover" ranks them. */
export interface CoverCandidateFacts {
  userId: number;
  name: string;
  onCallHours: number;
  onTimeOff: boolean;
}

/**
 * rankCoverCandidates returns the candidates in the order to offer them: those not on time off
 * first, then the fewest on-call hours, then by name.
 */
export function rankCoverCandidates<C extends CoverCandidateFacts>(candidates: readonly C[]): C[] {
  return [...candidates].sort(
    (a, b) =>
      Number(a.onTimeOff) - Number(b.onTimeOff) ||
      a.onCallHours - b.onCallHours ||
      a.name.localeCompare(b.name),
  );
}
