import { tzOffset } from '@date-fns/tz';
import { nextTurn, type TurnKind, turnOwnerOf } from './rotation';
import { type AwayWindow, isAwayDuring, type Span } from './time-off';

/** What decides when a rotation's shifts change hands. */
export interface ShiftPattern {
  cadence: 'daily' | 'weekly';
  /** IANA time zone name */
  timeZone: string;
  /** local wall-clock time of the boundary, 'HH:MM' */
  handoffTime: string;
  /** weekday of the boundary for weekly rotations, 0 = Sunday … 6 = Saturday */
  handoffWeekday: number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** A local calendar date and wall-clock time, as read in a zone. */
export interface WallTime {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
}

// tzOffset reads the zone through Intl (about 10 µs a call), and a projection asks the same zone's
// offset at thousands of instants (issue 36: 90 days of 200 layered rotations asked about a
// million times). Remembered at each whole UTC hour, per zone: an instant inside an hour takes the
// offset both its ends have, as no zone changes its offset twice within an hour; when the ends
// differ (the hour of a change) Intl answers for the instant itself. Bounded like instantCache.
const HOUR = 3_600_000;
const hourOffsets = new Map<string, Map<number, number>>();
let hourOffsetCount = 0;
const HOUR_OFFSETS_MAX = 200_000;

function offsetAtHour(timeZone: string, hour: number): number {
  let zone = hourOffsets.get(timeZone);
  if (!zone) {
    zone = new Map();
    hourOffsets.set(timeZone, zone);
  }
  const known = zone.get(hour);
  if (known !== undefined) return known;
  const offset = tzOffset(timeZone, new Date(hour));
  if (hourOffsetCount >= HOUR_OFFSETS_MAX) {
    hourOffsets.clear();
    hourOffsetCount = 0;
    hourOffsets.set(timeZone, zone);
    zone.clear();
  }
  zone.set(hour, offset);
  hourOffsetCount += 1;
  return offset;
}

/** zoneOffset returns a zone's offset from UTC in minutes at an instant (tzOffset, remembered). */
export function zoneOffset(timeZone: string, instant: number): number {
  const hour = Math.floor(instant / HOUR) * HOUR;
  const atStart = offsetAtHour(timeZone, hour);
  if (instant === hour) return atStart;
  return atStart === offsetAtHour(timeZone, hour + HOUR)
    ? atStart
    : tzOffset(timeZone, new Date(instant));
}

/** wallTimeOf returns the local calendar date and time of an instant in a zone. */
export function wallTimeOf(instant: Date, timeZone: string): WallTime & { weekday: number } {
  const local = new Date(instant.getTime() + zoneOffset(timeZone, instant.getTime()) * MINUTE);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    weekday: local.getUTCDay(),
  };
}

/**
 * instantOfWallTime returns the instant a local wall-clock time names in a zone. A time skipped by
 * a daylight-saving change moves to the first instant after the gap; a time that happens twice
 * takes the first (earlier) occurrence.
 */
export function instantOfWallTime(wall: WallTime, timeZone: string): Date {
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  // Offsets either side of any transition near this time; candidates are asUtc minus each.
  const before = zoneOffset(timeZone, asUtc - DAY) * MINUTE;
  const after = zoneOffset(timeZone, asUtc + DAY) * MINUTE;
  const valid = [asUtc - before, asUtc - after]
    .filter((t) => t + zoneOffset(timeZone, t) * MINUTE === asUtc)
    .sort((a, b) => a - b);
  if (valid.length > 0) return new Date(valid[0]);
  // In a gap: find the transition instant between the two candidates (minute precision).
  let lo = Math.min(asUtc - before, asUtc - after);
  let hi = Math.max(asUtc - before, asUtc - after);
  const offsetAtLo = zoneOffset(timeZone, lo);
  while (hi - lo > MINUTE) {
    const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE;
    if (zoneOffset(timeZone, mid) === offsetAtLo) lo = mid;
    else hi = mid;
  }
  return new Date(hi);
}

/**
 * wallMinuteOf returns a local wall-clock time as minutes on a zone-free count (the wall time
 * read as if it were UTC), so local times can be added to and compared without a zone.
 */
export function wallMinuteOf(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute) / MINUTE;
}

// instantOfWallTime reads the zone's offsets (four a call), and a projection asks for the same
// boundaries and window edges again and again: remembered here, bounded, per zone and wall minute
// (a number key: a string built per call cost more than the lookup saved). The answer depends on
// nothing else, so this stays pure.
const instantCache = new Map<string, Map<number, number>>();
let instantCount = 0;
const INSTANT_CACHE_MAX = 100_000;

/** instantOfWallMinute returns the instant a wall minute (wallMinuteOf) names in a zone (instantOfWallTime). */
export function instantOfWallMinute(wallMinute: number, timeZone: string): Date {
  let zone = instantCache.get(timeZone);
  if (!zone) {
    zone = new Map();
    instantCache.set(timeZone, zone);
  }
  const known = zone.get(wallMinute);
  if (known !== undefined) return new Date(known);
  const d = new Date(wallMinute * MINUTE);
  const instant = instantOfWallTime(
    {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      hour: d.getUTCHours(),
      minute: d.getUTCMinutes(),
    },
    timeZone,
  );
  if (instantCount >= INSTANT_CACHE_MAX) {
    instantCache.clear();
    instantCount = 0;
    zone.clear();
    instantCache.set(timeZone, zone);
  }
  zone.set(wallMinute, instant.getTime());
  instantCount += 1;
  return instant;
}

/** parseLocalTime reads a local 'HH:MM' time (a handoff time, a window's edge); it throws on anything else. */
export function parseLocalTime(hhmm: string): { hour: number; minute: number } {
  const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!match) throw new Error(`Invalid local time ${hhmm}`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

/** boundaryOnLocalDate returns the boundary instant on a local calendar date (UTC-based day number). */
function boundaryOn(dayUtc: number, pattern: ShiftPattern): Date {
  const d = new Date(dayUtc);
  const { hour, minute } = parseLocalTime(pattern.handoffTime);
  return instantOfWallTime(
    { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate(), hour, minute },
    pattern.timeZone,
  );
}

/** nextHandoffAt returns the first shift boundary strictly after `now`. */
export function nextHandoffAt(pattern: ShiftPattern, now: Date): Date {
  const today = wallTimeOf(now, pattern.timeZone);
  let day = Date.UTC(today.year, today.month - 1, today.day);
  if (pattern.cadence === 'weekly') {
    day += ((pattern.handoffWeekday - today.weekday + 7) % 7) * DAY;
  }
  const step = pattern.cadence === 'weekly' ? 7 * DAY : DAY;
  for (;;) {
    const boundary = boundaryOn(day, pattern);
    if (boundary.getTime() > now.getTime()) return boundary;
    day += step;
  }
}

/** previousHandoffAt returns the last shift boundary at or before `now`. */
export function previousHandoffAt(pattern: ShiftPattern, now: Date): Date {
  const next = nextHandoffAt(pattern, now);
  const local = wallTimeOf(next, pattern.timeZone);
  const step = pattern.cadence === 'weekly' ? 7 * DAY : DAY;
  return boundaryOn(Date.UTC(local.year, local.month - 1, local.day) - step, pattern);
}

/** handoffsBetween returns every boundary in (from, to], oldest first. */
export function handoffsBetween(pattern: ShiftPattern, from: Date, to: Date): Date[] {
  const out: Date[] = [];
  let cursor = from;
  for (;;) {
    const next = nextHandoffAt(pattern, cursor);
    if (next.getTime() > to.getTime()) return out;
    out.push(next);
    cursor = next;
  }
}

/** A stretch of time in which one user holds a rotation's baton: [start, end). */
export interface Shift {
  userId: number;
  start: Date;
  end: Date;
}

/** What projects a fixed rotation's shifts: its pattern, members in order, holder and pending boundary. */
export interface FixedShiftInput {
  pattern: ShiftPattern;
  /** members who can hold the baton, in order */
  memberIds: readonly number[];
  holderId: number | null;
  /** the boundary the rotation waits for (its stored next handoff) */
  nextBoundary: Date;
  /**
   * true when the holder took the baton inside the handoff window of `nextBoundary`
   * (isBoundaryHandedOff): that boundary passes without a change, as the engine does it
   */
  boundaryHandled?: boolean;
  /**
   * whose turn the holder's shift is (the rotation's stored turn owner, decision 256); null, absent
   * or no longer a member: the holder's own (turnOwnerOf)
   */
  turnUserId?: number | null;
  /** the members' time off (decisions 217 and 256); absent: nobody is away */
  timeOff?: readonly AwayWindow[];
}

/** A projected shift of a fixed rotation, with whose turn it is and how it came to its holder. */
export interface ProjectedShift extends Shift {
  ownerId: number | null;
  kind: TurnKind;
}

/** boundaryBefore returns the shift boundary before `boundary`. */
function boundaryBefore(pattern: ShiftPattern, boundary: Date): Date {
  return previousHandoffAt(pattern, new Date(boundary.getTime() - 1));
}

/**
 * turnSpansAt returns the shifts around a fixed rotation's pending boundary: the shift ending
 * there and the one starting there (the one its next turn hands out, nextTurn). A boundary
 * already handled by hand passes without a change: the turn is the one after it.
 */
export function turnSpansAt(
  pattern: ShiftPattern,
  nextBoundary: Date,
  boundaryHandled = false,
): { ending: Span; shift: Span } {
  const boundary = boundaryHandled ? nextHandoffAt(pattern, nextBoundary) : nextBoundary;
  return {
    ending: { start: boundaryBefore(pattern, boundary), end: boundary },
    shift: { start: boundary, end: nextHandoffAt(pattern, boundary) },
  };
}

/**
 * projectFixedTurns returns a fixed rotation's shifts, one per boundary, that overlap [from, to):
 * the holder from `from` until the pending boundary (the one after, when that boundary was already
 * handled by hand; a gap when they and every member are away in it, decision 231), then each
 * next turn (nextTurn: each member's turn in order from the stored turn owner, an away owner's
 * shift going to the next available member for that shift alone, decision 256). Unmerged: each
 * carries its owner and kind, so covers and gaps show. Nobody holding is no shift.
 */
export function projectFixedTurns(input: FixedShiftInput, from: Date, to: Date): ProjectedShift[] {
  const shifts: ProjectedShift[] = [];
  const timeOff = input.timeOff ?? [];
  const push = (
    userId: number | null,
    start: Date,
    end: Date,
    ownerId: number | null,
    kind: TurnKind,
  ) => {
    const s = Math.max(start.getTime(), from.getTime());
    if (userId === null || end.getTime() <= s || s >= to.getTime()) return;
    shifts.push({ userId, start: new Date(s), end, ownerId, kind });
  };
  let holder = input.holderId;
  let owner = turnOwnerOf(input.memberIds, input.turnUserId, holder);
  const spans = turnSpansAt(input.pattern, input.nextBoundary, input.boundaryHandled);
  let shift = spans.shift;
  // The turn under way is a gap too when the holder and every member are away in what is left of
  // it (decision 217): the holder keeps the baton though away, as the engine left it.
  const rest = { start: from, end: spans.ending.end };
  const everyoneAway =
    holder !== null && [holder, ...input.memberIds].every((id) => isAwayDuring(timeOff, id, rest));
  push(
    holder,
    from,
    spans.ending.end,
    owner,
    everyoneAway ? 'gap' : owner === holder ? 'turn' : 'cover',
  );
  // Bounded: one step per boundary up to `to` (ten years of daily boundaries at most).
  for (let guard = 0; guard < 4000 && shift.start.getTime() < to.getTime(); guard++) {
    const turn = nextTurn({
      memberIds: input.memberIds,
      holderId: holder,
      ownerId: owner,
      shift,
      timeOff,
    });
    holder = turn.holderId;
    owner = turn.ownerId;
    push(holder, shift.start, shift.end, turn.ownerId, turn.kind);
    shift = { start: shift.end, end: nextHandoffAt(input.pattern, shift.end) };
  }
  return shifts;
}

/**
 * upcomingShifts returns the shifts of a fixed rotation that overlap [from, to): the holder from
 * `from` until the pending boundary (the one after, when that boundary was already handled by
 * hand), then each member in order, one shift per boundary, going round time off (nextTurn). A
 * boundary with nobody to hand to leaves the baton where it is (a sole member keeps it, and a sole
 * member who does not hold it is never handed it: memberIdAfter). Nobody holding shows as no
 * shift. Back-to-back shifts of one person are one.
 */
export function upcomingShifts(input: FixedShiftInput, from: Date, to: Date): Shift[] {
  const shifts: Shift[] = [];
  for (const s of projectFixedTurns(input, from, to)) {
    const last = shifts.at(-1);
    if (last && last.userId === s.userId && last.end.getTime() === s.start.getTime()) {
      last.end = s.end;
      continue;
    }
    shifts.push({ userId: s.userId, start: s.start, end: s.end });
  }
  return shifts;
}

/**
 * gapsOf returns the stretches of projected shifts that nobody available holds (kind gap), back
 * to back ones joined, earliest first.
 */
export function gapsOf(shifts: readonly ProjectedShift[]): Span[] {
  const gaps: Span[] = [];
  for (const s of shifts) {
    if (s.kind !== 'gap') continue;
    const last = gaps.at(-1);
    if (last && last.end.getTime() === s.start.getTime()) last.end = s.end;
    else gaps.push({ start: s.start, end: s.end });
  }
  return gaps;
}

/** A schedule entry or coverage window as the shift functions read it. */
export interface TimeWindow {
  userId: number;
  start: Date;
  end: Date;
}

/** windowAt returns the window covering `at` (start ≤ at < end), or null. */
export function windowAt<W extends TimeWindow>(windows: readonly W[], at: Date): W | null {
  const t = at.getTime();
  return windows.find((w) => w.start.getTime() <= t && t < w.end.getTime()) ?? null;
}

/**
 * scheduleTransitions returns each instant in [from, to] at which a scheduled rotation's holder is
 * due to change (an entry starts or ends), oldest first, with who the schedule names from then
 * on: the user of the entry covering that instant, or null in a gap.
 */
export function scheduleTransitions(
  entries: readonly TimeWindow[],
  from: Date,
  to: Date,
): { at: Date; userId: number | null }[] {
  const instants = new Set<number>();
  for (const e of entries) {
    for (const t of [e.start.getTime(), e.end.getTime()]) {
      if (t >= from.getTime() && t <= to.getTime()) instants.add(t);
    }
  }
  return [...instants]
    .sort((a, b) => a - b)
    .map((t) => ({ at: new Date(t), userId: windowAt(entries, new Date(t))?.userId ?? null }));
}

/** nextScheduleTransition returns the first instant after `after` at which an entry starts or ends, or null. */
export function nextScheduleTransition(entries: readonly TimeWindow[], after: Date): Date | null {
  let best: number | null = null;
  for (const e of entries) {
    for (const t of [e.start.getTime(), e.end.getTime()]) {
      if (t > after.getTime() && (best === null || t < best)) best = t;
    }
  }
  return best === null ? null : new Date(best);
}

/** scheduledShifts returns the schedule entries overlapping [from, to) as shifts, earliest first. */
export function scheduledShifts(entries: readonly TimeWindow[], from: Date, to: Date): Shift[] {
  return entries
    .filter((e) => e.start.getTime() < to.getTime() && e.end.getTime() > from.getTime())
    .sort((a, b) => a.start.getTime() - b.start.getTime())
    .map((e) => ({ userId: e.userId, start: e.start, end: e.end }));
}
