import type { ErrorCode } from '../contracts/errors';

/**
 * Time off (issue 18, decision 217): a person's recorded absence, and how a fixed rotation's turns
 * go round it. Pure: the windows, the members and `now` come in.
 *
 * The rule, which the shift projection, the engine's handoffs and `nextOnCall` all ask here:
 * - A member is away for a shift when any of their time off overlaps it.
 * - The shift whose owner (the member whose turn it is) is away goes to the next member in order
 *   who is available: a cover.
 * - When that cover is the very next member, the owner owes them a turn: the cover's own turn,
 *   the shift right after, comes free and the owner takes it if they are back (a catch-up), so
 *   the order is where it would have been. If the owner is still away then, or several members
 *   in a row were away, nothing is owed: the order goes on from whoever held the shift.
 * - A shift nobody is available for is a gap: the owner keeps it (the baton never goes to nobody
 *   and the order is not disturbed), and it is warned about ahead.
 *
 * The rule itself is `nextTurn` in rotation.ts, beside `memberIdAfter`. It reads no stored state
 * beyond the holder, who held the baton before them (the handoff that gave it to them) and the
 * time off: each step works out from those whose turn the ending shift was.
 */

/** One stretch of a person's time off: [start, end). */
export interface AwayWindow {
  userId: number;
  start: Date;
  end: Date;
}

/** A shift's stretch of time: [start, end). */
export interface Span {
  start: Date;
  end: Date;
}

/** isAwayDuring tells whether any of the user's time off overlaps [start, end). */
export function isAwayDuring(timeOff: readonly AwayWindow[], userId: number, span: Span): boolean {
  const start = span.start.getTime();
  const end = span.end.getTime();
  return timeOff.some(
    (w) => w.userId === userId && w.start.getTime() < end && start < w.end.getTime(),
  );
}

// ---------------------------------------------------------------------------------------------
// Recording time off.

/** Why a request is refused: an error code, the message users see, the field at fault. */
export interface TimeOffRefusal {
  code: ErrorCode;
  message: string;
  field?: string;
}

/** How far back time off is read for the rule: the ending shift and the one before (weekly). */
export const TIME_OFF_LOOKBACK_MS = 15 * 86_400_000;

/** How far ahead a gap is warned about, and told to the rotation's managers. */
export const GAP_WARNING_DAYS = 14;

/** The longest stretch one entry of time off may cover. */
export const TIME_OFF_LONGEST_DAYS = 366;

export const TIME_OFF_MESSAGES = {
  notFound: 'Time off not found',
  personNotFound: 'User not found',
  notAllowed:
    'You can record time off for yourself; managers for members of their rotations; administrators for anyone.',
  endBeforeStart: 'End time must be after start time',
  inThePast: 'This time off is already over. Choose an end time in the future.',
  tooLong: `Time off can cover at most ${TIME_OFF_LONGEST_DAYS} days at a time. Record a longer absence in parts.`,
  overlaps: (start: string, end: string) =>
    `This overlaps time off already recorded (${start} – ${end}). Change or delete that entry first.`,
  deletePast: 'This time off is already over and stays on record.',
} as const;

/**
 * timeOffRefusal returns why new time off [start, end) may not be recorded, or null: it ends
 * after it starts and after `now` (it may already have begun), spans at most a year and overlaps
 * none of the person’s other entries (touching ends do not overlap). `nameWindow` writes the other
 * entry's window into the message.
 */
export function timeOffRefusal(
  entry: Span,
  existing: readonly Span[],
  now: Date,
  nameWindow: (span: Span) => { start: string; end: string } = (s) => ({
    start: s.start.toISOString(),
    end: s.end.toISOString(),
  }),
): TimeOffRefusal | null {
  const start = entry.start.getTime();
  const end = entry.end.getTime();
  if (!(end > start)) {
    return {
      code: 'VALIDATION_FAILED',
      message: TIME_OFF_MESSAGES.endBeforeStart,
      field: 'endTime',
    };
  }
  if (end <= now.getTime()) {
    return { code: 'VALIDATION_FAILED', message: TIME_OFF_MESSAGES.inThePast, field: 'endTime' };
  }
  if (end - start > TIME_OFF_LONGEST_DAYS * 86_400_000) {
    return { code: 'VALIDATION_FAILED', message: TIME_OFF_MESSAGES.tooLong, field: 'endTime' };
  }
  const clash = existing.find((o) => o.start.getTime() < end && start < o.end.getTime());
  if (clash) {
    const named = nameWindow(clash);
    return {
      code: 'CONFLICT',
      message: TIME_OFF_MESSAGES.overlaps(named.start, named.end),
      field: 'startTime',
    };
  }
  return null;
}

/** What decides who may record a person's time off. */
export interface TimeOffActor {
  id: number;
  /** administrator */
  isAdmin: boolean;
  /** holds the manager role */
  isManager: boolean;
}

/**
 * canManageTimeOff tells whether the actor may read, record and delete a person's time off: the
 * person themself, an administrator, or a manager who manages a rotation the person is a member
 * of (`managesOneOfTheirRotations`: created it or is a member of it).
 */
export function canManageTimeOff(
  actor: TimeOffActor,
  personId: number,
  managesOneOfTheirRotations: boolean,
): boolean {
  if (actor.id === personId || actor.isAdmin) return true;
  return actor.isManager && managesOneOfTheirRotations;
}

/** A scheduled rotation's entry whose person is away for part of it. */
export interface ScheduleCollision<E> {
  entry: E;
  timeOff: AwayWindow;
}

/**
 * scheduleCollisions returns each schedule entry that overlaps its own person's time off, with
 * the first such time off, in the entries' order.
 */
export function scheduleCollisions<E extends { userId: number; start: Date; end: Date }>(
  entries: readonly E[],
  timeOff: readonly AwayWindow[],
): ScheduleCollision<E>[] {
  const out: ScheduleCollision<E>[] = [];
  for (const entry of entries) {
    const clash = timeOff
      .filter(
        (w) =>
          w.userId === entry.userId &&
          w.start.getTime() < entry.end.getTime() &&
          entry.start.getTime() < w.end.getTime(),
      )
      .sort((a, b) => a.start.getTime() - b.start.getTime())[0];
    if (clash) out.push({ entry, timeOff: clash });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The impact of time off before it is saved (issue 35, decision 256).

/** A stretch in which one user holds a rotation's baton, as the impact compares them. */
export interface HeldStretch {
  userId: number;
  start: Date;
  end: Date;
}

/** A stretch whose holder an entry of time off would change: from whom, to whom. */
export interface ShiftMove {
  start: Date;
  end: Date;
  fromUserId: number;
  toUserId: number | null;
}

/** holderIn returns who holds the baton at `at` among stretches, or null. */
function holderIn(stretches: readonly HeldStretch[], at: number): number | null {
  const s = stretches.find((x) => x.start.getTime() <= at && at < x.end.getTime());
  return s ? s.userId : null;
}

/**
 * timeOffImpact compares one rotation's shifts without and with a proposed entry of time off
 * (two projections over the same span) and returns the stretches whose holder changes, from
 * whom to whom (null: nobody holds it then), back-to-back stretches of the same change joined,
 * earliest first. Pure: what saving the entry would do, and nothing else.
 */
export function timeOffImpact(
  before: readonly HeldStretch[],
  after: readonly HeldStretch[],
): ShiftMove[] {
  const instants = [
    ...new Set([...before, ...after].flatMap((s) => [s.start.getTime(), s.end.getTime()])),
  ].sort((a, b) => a - b);
  const moves: ShiftMove[] = [];
  for (let i = 0; i + 1 < instants.length; i++) {
    const from = holderIn(before, instants[i]);
    const to = holderIn(after, instants[i]);
    if (from === null || from === to) continue;
    const last = moves.at(-1);
    if (
      last &&
      last.end.getTime() === instants[i] &&
      last.fromUserId === from &&
      last.toUserId === to
    ) {
      last.end = new Date(instants[i + 1]);
      continue;
    }
    moves.push({
      start: new Date(instants[i]),
      end: new Date(instants[i + 1]),
      fromUserId: from,
      toUserId: to,
    });
  }
  return moves;
}
