import type { Refusal } from './rotation';
import { handoffsBetween, type ShiftPattern, type TimeWindow, windowAt } from './shifts';

/**
 * Coverage windows (decision 053): the holder asks another member to hold the baton for a window;
 * the covering member accepts or declines; an accepted window hands the baton over at its start and
 * back at its end, to whoever the rotation's rules name then. Pure: `now` comes in.
 */

export type CoverageAction = 'accept' | 'decline' | 'cancel';

export const COVERAGE_MESSAGES = {
  onlyCovering: 'Only the person asked to cover can accept or decline this request.',
  onlyParties: 'Only the person who asked for coverage, or the person covering, can cancel it.',
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
    if (actorId !== request.requesterId && actorId !== request.coveringUserId) {
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
 * ends: the requester moved on one member per shift boundary from the rotation's pending boundary
 * up to the end (inclusive), as if they had held it through the window; and how many boundaries
 * that was. A requester no longer in the rotation hands to the first member.
 */
export function holderAfterFixedCoverage(input: {
  pattern: ShiftPattern;
  memberIds: readonly number[];
  requesterId: number;
  /** the rotation's stored next handoff when the window ends (null: none pending) */
  pendingBoundary: Date | null;
  end: Date;
}): { holderId: number | null; boundariesPassed: number } {
  const { memberIds, pendingBoundary, end } = input;
  const passed =
    pendingBoundary && pendingBoundary.getTime() <= end.getTime()
      ? 1 + handoffsBetween(input.pattern, pendingBoundary, end).length
      : 0;
  let holder: number | null = memberIds.includes(input.requesterId) ? input.requesterId : null;
  if (holder === null) holder = memberIds[0] ?? null;
  for (let i = 0; i < passed && memberIds.length > 1; i++) {
    const at: number = holder === null ? -1 : memberIds.indexOf(holder);
    holder = memberIds[(at + 1) % memberIds.length];
  }
  return { holderId: holder, boundariesPassed: passed };
}

/** holderAfterScheduledCoverage returns who the schedule names when a coverage window ends (null in a gap). */
export function holderAfterScheduledCoverage(
  entries: readonly TimeWindow[],
  end: Date,
): number | null {
  return windowAt(entries, end)?.userId ?? null;
}
