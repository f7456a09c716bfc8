import { type HandoffFlowTimings, isBoundaryHandedOff } from './handoff-flow';
import { nextTurn, type Refusal, turnOwnerOf } from './rotation';
import {
  handoffsBetween,
  nextHandoffAt,
  type ShiftPattern,
  type TimeWindow,
  turnSpansAt,
  windowAt,
} from './shifts';
import type { AwayWindow } from './time-off';

/**
 * Coverage windows (decision 053): the holder asks another member to hold the baton for a window;
 * the covering member accepts or declines; an accepted window hands the baton over at its start and
 * back at its end, to whoever the rotation's rules name then. Pure: `now` comes in.
 */

export type CoverageAction = 'accept' | 'decline' | 'cancel';

export const COVERAGE_MESSAGES = {
  onlyCovering: 'Only the person asked to cover can accept or decline this request.',
  onlyParties:
    'Only the person who asked for coverage, the person covering, or whoever arranged it can cancel it.',
  notPending: 'This coverage request has already been answered.',
  notOpen: 'This coverage request is already finished.',
  ended: 'This coverage window has already ended.',
  started: 'This coverage window has already started; cancel it instead.',
  notFound: 'Coverage request not found',
} as const;

/** The facts of a coverage request the rules read. */
export interface CoverageFacts {
  status: string;
  requesterId: number;
  coveringUserId: number;
  start: Date;
  end: Date;
  /** who arranged it for the requester (a manager or administrator), or null */
  arrangedById?: number | null;
}

/**
 * coverageResponseRefusal returns why the actor may not accept, decline or cancel the request,
 * or null: the covering member accepts or declines a pending request whose window has not ended
 * (declining also withdraws an acceptance before the window starts); the requester or the
 * covering member cancels anything not yet finished (an active window then ends at once).
 */
export function coverageResponseRefusal(
  request: CoverageFacts,
  actorId: number,
  action: CoverageAction,
  now: Date,
): Refusal | null {
  if (action === 'cancel') {
    const party =
      actorId === request.requesterId ||
      actorId === request.coveringUserId ||
      (request.arrangedById != null && actorId === request.arrangedById);
    if (!party) {
      return { code: 'FORBIDDEN', message: COVERAGE_MESSAGES.onlyParties };
    }
    if (!['pending', 'accepted', 'active'].includes(request.status)) {
      return { code: 'CONFLICT', message: COVERAGE_MESSAGES.notOpen };
    }
    return null;
  }
  if (actorId !== request.coveringUserId) {
    return { code: 'FORBIDDEN', message: COVERAGE_MESSAGES.onlyCovering };
  }
  if (action === 'accept' && request.status !== 'pending') {
    return { code: 'CONFLICT', message: COVERAGE_MESSAGES.notPending };
  }
  if (action === 'decline' && request.status === 'active') {
    return { code: 'CONFLICT', message: COVERAGE_MESSAGES.started };
  }
  if (action === 'decline' && !['pending', 'accepted'].includes(request.status)) {
    return { code: 'CONFLICT', message: COVERAGE_MESSAGES.notPending };
  }
  if (request.end.getTime() <= now.getTime()) {
    return { code: 'CONFLICT', message: COVERAGE_MESSAGES.ended };
  }
  return null;
}

export type CoverageDisplayStatus =
  | 'Pending'
  | 'Accepted'
  | 'Declined'
  | 'Cancelled'
  | 'Active'
  | 'Completed'
  | 'Expired';

/** coverageDisplayStatus returns the label of a request at `now`: a pending one past its end reads Expired. */
export function coverageDisplayStatus(
  request: { status: string; end: Date | string },
  now: Date,
): CoverageDisplayStatus {
  const end = new Date(request.end).getTime();
  switch (request.status) {
    case 'pending':
      return end <= now.getTime() ? 'Expired' : 'Pending';
    case 'accepted':
      return end <= now.getTime() ? 'Expired' : 'Accepted';
    case 'declined':
      return 'Declined';
    case 'cancelled':
      return 'Cancelled';
    case 'active':
      return 'Active';
    default:
      return 'Completed';
  }
}

/**
 * holderAfterFixedCoverage returns who holds a fixed rotation's baton when a coverage window
 * ends: the requester moved on one turn per shift boundary from the rotation's pending boundary
 * up to the end (inclusive), as if they had held it through the window, going round time off as
 * the projection does (nextTurn); and how many boundaries that was. A requester no longer in the
 * rotation hands to the first member.
 */
export function holderAfterFixedCoverage(input: {
  pattern: ShiftPattern;
  memberIds: readonly number[];
  requesterId: number;
  /** the rotation's stored next handoff when the window ends (null: none pending) */
  pendingBoundary: Date | null;
  end: Date;
  /** whose turn the requester's shift is (the rotation's stored turn owner, decision 256) */
  turnUserId?: number | null;
  /** the members' time off (decision 256) */
  timeOff?: readonly AwayWindow[];
}): { holderId: number | null; turnUserId: number | null; boundariesPassed: number } {
  const { memberIds, pendingBoundary, end } = input;
  const passed =
    pendingBoundary && pendingBoundary.getTime() <= end.getTime()
      ? 1 + handoffsBetween(input.pattern, pendingBoundary, end).length
      : 0;
  let holder: number | null = memberIds.includes(input.requesterId) ? input.requesterId : null;
  let owner = holder === null ? null : turnOwnerOf(memberIds, input.turnUserId, holder);
  if (holder === null) {
    holder = memberIds[0] ?? null;
    owner = holder;
  }
  let boundary = pendingBoundary;
  for (let i = 0; i < passed && boundary && memberIds.length > 1; i++) {
    const turn = nextTurn({
      memberIds,
      holderId: holder,
      ownerId: owner,
      shift: turnSpansAt(input.pattern, boundary).shift,
      timeOff: input.timeOff ?? [],
    });
    holder = turn.holderId;
    owner = turn.ownerId;
    boundary = nextHandoffAt(input.pattern, boundary);
  }
  return { holderId: holder, turnUserId: owner, boundariesPassed: passed };
}

/** holderAfterScheduledCoverage returns who the schedule names when a coverage window ends (null in a gap). */
export function holderAfterScheduledCoverage(
  entries: readonly TimeWindow[],
  end: Date,
): number | null {
  return windowAt(entries, end)?.userId ?? null;
}

/**
 * How a coverage window can start: `holder` when the requester holds the baton; `due` when they
 * do not yet but the rotation's rules hand it to them at a change that has come and not yet
 * been carried out (a fixed rotation's pending boundary, waiting for the holder to pass; a
 * scheduled rotation's entry change, which the engine applies after the windows); null when
 * neither, so the window cannot start.
 */
export type CoverageStart = 'holder' | 'due' | null;

/** What coverageStart reads: the rotation now, and the window's start. */
export interface CoverageStartInput {
  type: 'fixed' | 'scheduled';
  pattern: ShiftPattern;
  /** members who can hold the baton, in order */
  memberIds: readonly number[];
  holderId: number | null;
  /** the rotation's stored next handoff (fixed: the pending boundary; scheduled: the next change) */
  nextBoundary: Date | null;
  /** when the holder last changed in a way that handles a boundary */
  lastHandoffAt: Date | null;
  /** schedule entries around the start (scheduled rotations) */
  entries: readonly TimeWindow[];
  /** whose turn the current shift is (the rotation's stored turn owner, decision 256) */
  turnUserId?: number | null;
  /** the members' time off around the boundary: the shift goes round it (nextTurn, decision 256) */
  timeOff?: readonly AwayWindow[];
  requesterId: number;
  /** when the window starts handing over (its start, or a late acceptance) */
  at: Date;
}

/**
 * coverageStart returns how a window for `requesterId` can start at `at` (CoverageStart). A
 * planned window on a shift's first moments meets the previous holder still holding: the
 * boundary is due but the handoff flow waits for them to pass (decision 218).
 */
export function coverageStart(input: CoverageStartInput, t: HandoffFlowTimings): CoverageStart {
  if (input.holderId === input.requesterId) return 'holder';
  const boundary = input.nextBoundary;
  if (!boundary || boundary.getTime() > input.at.getTime()) return null;
  if (input.type === 'scheduled') {
    return windowAt(input.entries, input.at)?.userId === input.requesterId ? 'due' : null;
  }
  if (isBoundaryHandedOff(boundary, input.lastHandoffAt, t)) return null;
  // The shift the boundary starts is the requester's by the same rule the projection and the
  // engine follow, so a shift re-flowed round time off starts its planned cover too.
  const turn = nextTurn({
    memberIds: input.memberIds,
    holderId: input.holderId,
    ownerId: turnOwnerOf(input.memberIds, input.turnUserId, input.holderId),
    shift: turnSpansAt(input.pattern, boundary).shift,
    timeOff: input.timeOff ?? [],
  });
  if (turn.holderId === input.holderId || turn.holderId !== input.requesterId) return null;
  // Only the boundary that starts the requester's shift: one after it passed too is not theirs.
  if (nextHandoffAt(input.pattern, boundary).getTime() <= input.at.getTime()) return null;
  return 'due';
}
