import { nextTurn, turnOwnerOf } from './rotation';
import {
  nextHandoffAt,
  type ShiftPattern,
  scheduleTransitions,
  type TimeWindow,
  turnSpansAt,
  windowAt,
} from './shifts';
import type { AwayWindow } from './time-off';

/**
 * The documented handoff flow of a fixed rotation (specification sections 4 and 9): a notice
 * before the shift boundary, a request to pass at the boundary, an escalation notice when the
 * handoff is late, and an automatic transfer when it is very late. Pure: `now` comes in.
 */
export interface HandoffFlowTimings {
  /** notice to the holder and the next person this long before the boundary */
  noticeBeforeMs: number;
  /** escalation notice to both when no handoff this long after the boundary */
  escalateAfterMs: number;
  /** the baton moves automatically this long after the boundary */
  autoTransferAfterMs: number;
  /** the incoming holder acknowledges within this, or the handoff is marked missed */
  acknowledgeWithinMs: number;
  /** the previous holder stays backup this long after a handoff */
  backupMs: number;
}

const MINUTE = 60_000;

export const DEFAULT_HANDOFF_TIMINGS: HandoffFlowTimings = {
  noticeBeforeMs: 30 * MINUTE,
  escalateAfterMs: 30 * MINUTE,
  autoTransferAfterMs: 60 * MINUTE,
  acknowledgeWithinMs: 30 * MINUTE,
  backupMs: 15 * MINUTE,
};

export type FlowStep = 'notice' | 'due' | 'escalate' | 'auto_transfer';

/** stepTime returns when a step of the flow for `boundary` happens. */
export function stepTime(step: FlowStep, boundary: Date, t: HandoffFlowTimings): Date {
  const b = boundary.getTime();
  switch (step) {
    case 'notice':
      return new Date(b - t.noticeBeforeMs);
    case 'due':
      return boundary;
    case 'escalate':
      return new Date(b + t.escalateAfterMs);
    case 'auto_transfer':
      return new Date(b + t.autoTransferAfterMs);
  }
}

/**
 * isBoundaryHandedOff tells whether a handoff made at `lastHandoffAt` counts for `boundary`: any
 * change of holder from the notice onwards does, so the engine never moves the baton again for a
 * boundary someone already handled by hand.
 */
export function isBoundaryHandedOff(
  boundary: Date,
  lastHandoffAt: Date | null,
  t: HandoffFlowTimings,
): boolean {
  return lastHandoffAt !== null && lastHandoffAt.getTime() >= boundary.getTime() - t.noticeBeforeMs;
}

export interface FlowInput {
  pattern: ShiftPattern;
  /** the boundary the rotation waits for (its stored nextHandoffAt) */
  boundary: Date;
  /** when the holder last changed, for any reason */
  lastHandoffAt: Date | null;
  /** members in order, and the holder */
  memberIds: readonly number[];
  holderId: number | null;
  /** whose turn the current shift is (the rotation's stored turn owner, decision 256) */
  turnUserId?: number | null;
  /** the members' time off: a turn goes round it (nextTurn, decision 256) */
  timeOff?: readonly AwayWindow[];
  /**
   * each person's own notice lead (their handoff reminder), by user id; people not listed get
   * the deployment's `noticeBeforeMs`
   */
  noticeLeadMs?: Readonly<Record<number, number>>;
}

export type FlowEffect =
  | {
      kind: 'notify';
      step: 'notice' | 'due' | 'escalate';
      boundary: Date;
      holderId: number | null;
      nextId: number;
      /** who is told: notice → holder and next, each from their own lead; due → the holder; escalate → both */
      recipientIds: number[];
    }
  | { kind: 'transfer'; boundary: Date; fromId: number | null; toId: number }
  | {
      kind: 'advance';
      boundary: Date;
      nextBoundary: Date;
      /**
       * whose turn the shift starting at `boundary` is, stored as the rotation's turn owner
       * (decision 256); absent when a change by hand handled the boundary (it stored the owner)
       */
      turnUserId?: number | null;
    };

/**
 * planHandoffFlow returns what is due for a fixed rotation at `now`, in order. Boundaries long
 * past (after downtime) each get one automatic transfer and no stale notices; a notice is sent
 * only while its step is the latest one reached. Each effect carries its boundary: the engine
 * keys it, so doing a plan twice does nothing twice. The handoff notice goes to each person at
 * their own lead (`noticeLeadMs`); the window in which a manual change counts for the boundary
 * stays the deployment's `noticeBeforeMs` (decision 051).
 */
export function planHandoffFlow(input: FlowInput, now: Date, t: HandoffFlowTimings): FlowEffect[] {
  const effects: FlowEffect[] = [];
  let boundary = input.boundary;
  let holderId = input.holderId;
  let ownerId = turnOwnerOf(input.memberIds, input.turnUserId, holderId);
  let lastHandoffAt = input.lastHandoffAt;
  // Bounded: one iteration per boundary that has come and gone (a year of daily boundaries at most).
  for (let guard = 0; guard < 400; guard++) {
    // The shift starting at the boundary goes to whoever the rule names; nobody new (a sole
    // member, or everyone else away) means nobody to hand to.
    const turn = nextTurn({
      memberIds: input.memberIds,
      holderId,
      ownerId,
      shift: turnSpansAt(input.pattern, boundary).shift,
      timeOff: input.timeOff ?? [],
    });
    const nextId = turn.holderId === holderId ? null : turn.holderId;
    const handedOff = isBoundaryHandedOff(boundary, lastHandoffAt, t);
    const autoAt = stepTime('auto_transfer', boundary, t).getTime();
    if (handedOff || nextId === null) {
      // Handled by hand (or nobody to hand to): the boundary passes once it is reached.
      if (now.getTime() < boundary.getTime()) return effects;
      const nextBoundary = nextHandoffAt(input.pattern, boundary);
      if (handedOff) {
        effects.push({ kind: 'advance', boundary, nextBoundary });
      } else {
        // The holder keeps the baton (their own turn, a cover running on, a gap): the order moves on.
        effects.push({ kind: 'advance', boundary, nextBoundary, turnUserId: turn.ownerId });
        ownerId = turn.ownerId;
      }
      boundary = nextBoundary;
      continue;
    }
    if (now.getTime() >= autoAt) {
      effects.push({ kind: 'transfer', boundary, fromId: holderId, toId: nextId });
      const nextBoundary = nextHandoffAt(input.pattern, boundary);
      effects.push({ kind: 'advance', boundary, nextBoundary, turnUserId: turn.ownerId });
      ownerId = turn.ownerId;
      holderId = nextId;
      lastHandoffAt = new Date(autoAt);
      boundary = nextBoundary;
      continue;
    }
    // Before the automatic transfer: notify for the latest step reached, if any.
    const both = holderId === null ? [nextId] : [holderId, nextId];
    if (now.getTime() >= stepTime('escalate', boundary, t).getTime()) {
      effects.push({
        kind: 'notify',
        step: 'escalate',
        boundary,
        holderId,
        nextId,
        recipientIds: both,
      });
    } else if (now.getTime() >= boundary.getTime()) {
      // The holder is asked to pass; with nobody holding, the next person is asked to take it.
      const asked = [holderId ?? nextId];
      effects.push({
        kind: 'notify',
        step: 'due',
        boundary,
        holderId,
        nextId,
        recipientIds: asked,
      });
    } else {
      const lead = (id: number) => input.noticeLeadMs?.[id] ?? t.noticeBeforeMs;
      const told = both.filter((id) => now.getTime() >= boundary.getTime() - lead(id));
      if (told.length > 0) {
        effects.push({
          kind: 'notify',
          step: 'notice',
          boundary,
          holderId,
          nextId,
          recipientIds: told,
        });
      }
    }
    return effects;
  }
  return effects;
}

/** Handoff kinds whose receiver did not act themselves, so they acknowledge (a take needs none). */
const KINDS_AWAITING_ACKNOWLEDGEMENT = [
  'start',
  'pass',
  'reassign',
  'auto',
  'schedule',
  'coverage',
  'coverage_end',
  'member_removed',
] as const;

/** awaitsAcknowledgement tells whether a handoff of this kind asks its receiver to acknowledge. */
export function awaitsAcknowledgement(kind: string): boolean {
  return (KINDS_AWAITING_ACKNOWLEDGEMENT as readonly string[]).includes(kind);
}

/**
 * Handoff kinds that count as a change of holder for the shift boundary they come close to
 * (isBoundaryHandedOff). A coverage window's start and end follow the rotation's own rules and
 * never handle a boundary.
 */
export const KINDS_HANDLING_A_BOUNDARY = [
  'take',
  'start',
  'pass',
  'reassign',
  'auto',
  'schedule',
  'member_removed',
] as const;

/** The latest handoff of a rotation, as far as backup and acknowledgement rules read it. */
export interface LatestHandoff {
  fromUserId: number | null;
  toUserId: number | null;
  kind: string;
  urgent: boolean;
  occurredAt: Date;
  acknowledgedAt: Date | null;
}

/**
 * backupAfter returns who stays backup after the rotation's latest handoff, and until when: the
 * previous holder for `backupMs` after any handoff; after an emergency (urgent) handoff, until the
 * receiver acknowledges it (`until` null), and never less than `backupMs` (decision 052).
 */
export function backupAfter(
  latest: LatestHandoff | null,
  holderId: number | null,
  now: Date,
  t: HandoffFlowTimings,
): { userId: number; until: Date | null } | null {
  if (!latest || latest.fromUserId === null || latest.fromUserId === holderId) return null;
  if (latest.toUserId !== holderId) return null;
  const until = new Date(latest.occurredAt.getTime() + t.backupMs);
  if (latest.urgent && latest.acknowledgedAt === null) {
    return { userId: latest.fromUserId, until: null };
  }
  return now.getTime() < until.getTime() ? { userId: latest.fromUserId, until } : null;
}

/** acknowledgementDeadline returns when a handoff's receiver must have acknowledged it. */
export function acknowledgementDeadline(occurredAt: Date, t: HandoffFlowTimings): Date {
  return new Date(occurredAt.getTime() + t.acknowledgeWithinMs);
}

/**
 * isMissedNoticeStale tells whether a missed acknowledgement is too old to tell anyone about
 * (the engine was down past a whole further acknowledgement window): the handoff is marked missed
 * silently, so a restart sends no burst of stale notices.
 */
export function isMissedNoticeStale(occurredAt: Date, now: Date, t: HandoffFlowTimings): boolean {
  return now.getTime() >= occurredAt.getTime() + 2 * t.acknowledgeWithinMs;
}

/** A fixed rotation whose shift boundary has passed without a handoff: the holder should pass. */
export interface HandoffDue {
  /** the boundary that passed */
  boundary: Date;
  /** when both are told it is late */
  escalateAt: Date;
  /** when the baton moves to the next member by itself */
  autoTransferAt: Date;
}

/**
 * handoffDue says whether a fixed rotation's holder is being asked to pass the baton at `now`:
 * its boundary (stored `nextHandoffAt`, which the engine moves on once the boundary is handled)
 * has passed, the rotation is active, someone holds the baton, and no change of holder handled
 * that boundary. A running coverage window (latest handoff of kind 'coverage') holds it off,
 * as it holds off the engine.
 */
export function handoffDue(
  rotation: {
    type: string;
    suspended: boolean;
    holderUserId: number | null;
    nextHandoffAt: Date | null;
  },
  latest: Pick<LatestHandoff, 'kind' | 'occurredAt'> | null,
  now: Date,
  t: HandoffFlowTimings,
): HandoffDue | null {
  const boundary = rotation.nextHandoffAt;
  if (rotation.type !== 'fixed' || rotation.suspended || rotation.holderUserId === null) {
    return null;
  }
  if (!boundary || boundary.getTime() > now.getTime()) return null;
  if (latest?.kind === 'coverage') return null;
  const handling =
    latest && (KINDS_HANDLING_A_BOUNDARY as readonly string[]).includes(latest.kind)
      ? latest.occurredAt
      : null;
  if (isBoundaryHandedOff(boundary, handling, t)) return null;
  return {
    boundary,
    escalateAt: stepTime('escalate', boundary, t),
    autoTransferAt: stepTime('auto_transfer', boundary, t),
  };
}

/** What a scheduled rotation's notices are planned from. */
export interface ScheduleNoticeInput {
  /** the schedule entries that end at or after now */
  entries: readonly TimeWindow[];
  /** running coverage windows: the baton stays with the covering member through any change */
  running: readonly TimeWindow[];
  /** who holds the baton now */
  holderId: number | null;
  /** members who can hold the baton: an entry of anyone else names nobody */
  memberIds: readonly number[];
  /** each person's own notice lead (their handoff reminder); others get `noticeBeforeMs` */
  noticeLeadMs?: Readonly<Record<number, number>>;
}

/** A coming change of holder in a scheduled rotation, and who is to be told of it now. */
export interface ScheduleNotice {
  at: Date;
  fromId: number | null;
  toId: number | null;
  recipientIds: number[];
}

/**
 * planScheduleNotices returns the handoff notices due at `now` for a scheduled rotation's coming
 * changes of holder (decision 131): for each instant after `now` at which the schedule moves the
 * baton (an entry ends or starts), the outgoing holder and the incoming one, each once `now` is
 * within their own lead of it. The first change hands over from whoever holds the baton now
 * (it may have been passed by hand); a change inside a running coverage window moves nothing and
 * is skipped; nothing is planned for an instant already reached (the change itself is announced).
 */
export function planScheduleNotices(
  input: ScheduleNoticeInput,
  now: Date,
  t: HandoffFlowTimings,
): ScheduleNotice[] {
  const lead = (id: number) => input.noticeLeadMs?.[id] ?? t.noticeBeforeMs;
  const longest = Math.max(t.noticeBeforeMs, ...Object.values(input.noticeLeadMs ?? {}));
  const horizon = new Date(now.getTime() + longest);
  const notices: ScheduleNotice[] = [];
  let holder = input.holderId;
  for (const change of scheduleTransitions(input.entries, now, horizon)) {
    if (change.at.getTime() <= now.getTime() || windowAt(input.running, change.at)) continue;
    const named =
      change.userId !== null && input.memberIds.includes(change.userId) ? change.userId : null;
    if (named === holder) continue;
    const recipientIds = [holder, named].filter(
      (id): id is number => id !== null && now.getTime() >= change.at.getTime() - lead(id),
    );
    if (recipientIds.length > 0) {
      notices.push({ at: change.at, fromId: holder, toId: named, recipientIds });
    }
    holder = named;
  }
  return notices;
}

/** Handoff kinds whose notes the previous holder wrote: their pass, or their coverage request. */
const KINDS_WITH_NOTES_BY_PREVIOUS_HOLDER = ['pass', 'coverage'] as const;

/**
 * notesAuthorId returns who wrote a handoff's notes, when the handoff records it: the previous
 * holder of a pass or of a coverage start (the notes of their request). A reassignment's notes are
 * the manager's, whom the handoff does not record: null (decision 187).
 */
export function notesAuthorId(handoff: { kind: string; fromUserId: number | null }): number | null {
  return (KINDS_WITH_NOTES_BY_PREVIOUS_HOLDER as readonly string[]).includes(handoff.kind)
    ? handoff.fromUserId
    : null;
}
