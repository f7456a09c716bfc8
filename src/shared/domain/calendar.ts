import { type HandoffFlowTimings, isBoundaryHandedOff } from './handoff-flow';
import {
  gapsOf,
  instantOfWallTime,
  nextScheduleTransition,
  type ProjectedShift,
  projectFixedTurns,
  type Shift,
  type ShiftPattern,
  scheduledShifts,
  type TimeWindow,
  wallTimeOf,
} from './shifts';
import type { AwayWindow, Span } from './time-off';

/**
 * Who is on call when, for the calendar screen and the calendar feeds alike: the past from the
 * handoff history, the future projected by the same shift functions the engine follows, with
 * accepted coverage windows laid over it. Pure: `now` and the time zone come in.
 */

export interface CalendarDay {
  year: number;
  /** 1-12 */
  month: number;
  day: number;
  /** 0 = Sunday … 6 = Saturday */
  weekday: number;
  /** 'YYYY-MM-DD' */
  key: string;
  /** false for the leading and trailing days of the neighbouring months */
  inMonth: boolean;
}

const DAY = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** dayKey returns 'YYYY-MM-DD' for a calendar date. */
function dayKey(d: { year: number; month: number; day: number }): string {
  return `${d.year}-${pad(d.month)}-${pad(d.day)}`;
}

/** dayKeyOf returns the local calendar date ('YYYY-MM-DD') of an instant in a zone. */
export function dayKeyOf(instant: Date, timeZone: string): string {
  return dayKey(wallTimeOf(instant, timeZone));
}

/** monthGrid returns the weeks (Sunday to Saturday) that show a month, with the days around it. */
export function monthGrid(year: number, month: number): CalendarDay[][] {
  const first = Date.UTC(year, month - 1, 1);
  const start = first - new Date(first).getUTCDay() * DAY;
  const lastDay = Date.UTC(year, month, 0);
  const end = lastDay + (6 - new Date(lastDay).getUTCDay()) * DAY;
  const weeks: CalendarDay[][] = [];
  for (let t = start; t <= end; t += DAY) {
    const d = new Date(t);
    const day: CalendarDay = {
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      weekday: d.getUTCDay(),
      key: '',
      inMonth: d.getUTCMonth() + 1 === month,
    };
    day.key = dayKey(day);
    if (day.weekday === 0) weeks.push([]);
    weeks[weeks.length - 1].push(day);
  }
  return weeks;
}

/** shiftMonth returns the month `delta` months away. */
export function shiftMonth(
  year: number,
  month: number,
  delta: number,
): { year: number; month: number } {
  const d = new Date(Date.UTC(year, month - 1 + delta, 1));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1 };
}

/** dayBounds returns a local calendar day in a zone as instants [start, end): midnight to midnight. */
export function dayBounds(
  d: { year: number; month: number; day: number },
  timeZone: string,
): { start: Date; end: Date } {
  const next = new Date(Date.UTC(d.year, d.month - 1, d.day) + DAY);
  return {
    start: instantOfWallTime({ ...d, hour: 0, minute: 0 }, timeZone),
    end: instantOfWallTime(
      {
        year: next.getUTCFullYear(),
        month: next.getUTCMonth() + 1,
        day: next.getUTCDate(),
        hour: 0,
        minute: 0,
      },
      timeZone,
    ),
  };
}

/** gridBounds returns the instants a month grid spans in a zone: its first day's start to its last day's end. */
export function gridBounds(weeks: CalendarDay[][], timeZone: string): { from: Date; to: Date } {
  const first = weeks[0][0];
  const last = weeks.at(-1)?.at(-1) ?? first;
  return { from: dayBounds(first, timeZone).start, to: dayBounds(last, timeZone).end };
}

/** Where a shift comes from: the recorded history, the rotation's order, its schedule, or a coverage window. */
type ShiftSource = 'history' | 'rotation' | 'schedule' | 'coverage';

export interface CalendarShift extends Shift {
  source: ShiftSource;
  /** a projected coverage window's: whose shift it covers (decision 218) */
  coveredUserId?: number;
}

/** One recorded change of holder, as history reads it. */
export interface HolderChange {
  at: Date;
  toUserId: number | null;
  kind: string;
}

/**
 * historyShifts returns who held the baton in [from, until) from the recorded changes of holder
 * (oldest first) and the holder at `from`. A stretch begun by a coverage window is marked so.
 */
export function historyShifts(
  changes: readonly HolderChange[],
  holderAtFrom: { userId: number | null; kind: string | null },
  from: Date,
  until: Date,
): CalendarShift[] {
  const out: CalendarShift[] = [];
  let holder = holderAtFrom.userId;
  let kind = holderAtFrom.kind;
  let start = from;
  const close = (end: Date) => {
    if (holder !== null && end.getTime() > start.getTime()) {
      out.push({
        userId: holder,
        start,
        end,
        source: kind === 'coverage' ? 'coverage' : 'history',
      });
    }
  };
  for (const change of changes) {
    if (change.at.getTime() < from.getTime()) continue;
    if (change.at.getTime() >= until.getTime()) break;
    close(change.at);
    holder = change.toUserId;
    kind = change.kind;
    start = change.at;
  }
  close(until);
  return out;
}

/** An accepted (or running) coverage window to lay over the projection. */
interface CoverageWindow extends TimeWindow {
  requesterId: number;
}

/**
 * overlayCoverage returns the shifts with each coverage window laid over them: inside a window
 * the covering user holds the baton; around it the shifts are cut.
 */
export function overlayCoverage(
  shifts: readonly CalendarShift[],
  windows: readonly (TimeWindow & { requesterId?: number })[],
): CalendarShift[] {
  let out = [...shifts];
  for (const w of [...windows].sort((a, b) => a.start.getTime() - b.start.getTime())) {
    const cut: CalendarShift[] = [];
    for (const s of out) {
      if (s.end.getTime() <= w.start.getTime() || s.start.getTime() >= w.end.getTime()) {
        cut.push(s);
        continue;
      }
      if (s.start.getTime() < w.start.getTime()) cut.push({ ...s, end: w.start });
      if (s.end.getTime() > w.end.getTime()) cut.push({ ...s, start: w.end });
    }
    const covered = w.requesterId === undefined ? {} : { coveredUserId: w.requesterId };
    cut.push({ userId: w.userId, start: w.start, end: w.end, source: 'coverage', ...covered });
    out = cut.sort((a, b) => a.start.getTime() - b.start.getTime());
  }
  return out;
}

/** mergeShifts joins back-to-back shifts of the same user (a coverage stretch stays apart). */
export function mergeShifts(shifts: readonly CalendarShift[]): CalendarShift[] {
  const out: CalendarShift[] = [];
  for (const s of [...shifts].sort((a, b) => a.start.getTime() - b.start.getTime())) {
    const last = out.at(-1);
    const isCoverage = s.source === 'coverage';
    if (
      last &&
      last.userId === s.userId &&
      last.end.getTime() === s.start.getTime() &&
      (last.source === 'coverage') === isCoverage
    ) {
      last.end = s.end.getTime() > last.end.getTime() ? s.end : last.end;
      continue;
    }
    out.push({ ...s });
  }
  return out;
}

/** Everything needed to lay out one rotation's shifts. */
export interface RotationCalendarInput {
  type: 'fixed' | 'scheduled';
  suspended: boolean;
  pattern: ShiftPattern;
  /** members who can hold the baton, in order */
  memberIds: readonly number[];
  holderId: number | null;
  /** the stored next handoff (fixed rotations' pending boundary) */
  nextBoundary: Date | null;
  /** when the holder last changed in a way that handles a boundary (KINDS_HANDLING_A_BOUNDARY) */
  lastHandoffAt: Date | null;
  /** whose turn the current shift is (the rotation's stored turn owner, decision 256) */
  turnUserId?: number | null;
  /** the members' time off: a fixed rotation's turns go round it (decision 256) */
  timeOff?: readonly AwayWindow[];
  /** schedule entries (scheduled rotations), or a layered rotation's stretches (decision 247) */
  entries: readonly TimeWindow[];
  /** true for a layered rotation: laid out as a scheduled one, its gaps where its people are away */
  layered?: boolean;
  /** accepted and running coverage windows */
  coverage: readonly CoverageWindow[];
  /** the holder at `from` and the changes of holder in [from, now), oldest first */
  holderAtFrom: { userId: number | null; kind: string | null };
  changes: readonly HolderChange[];
}

/** runningWindow returns the coverage window running at `now`, if any. */
function runningWindow(input: RotationCalendarInput, now: Date): CoverageWindow | undefined {
  return input.coverage.find(
    (c) => c.start.getTime() <= now.getTime() && now.getTime() < c.end.getTime(),
  );
}

/**
 * fixedProjection returns a fixed rotation's turns from `start` (now or later) to `to`, as the
 * engine will hand them out: from its pending boundary, going round time off; null when it has
 * no boundary pending. While a coverage window runs, the rotation's own order goes on underneath
 * it from the requester.
 */
function fixedProjection(
  input: RotationCalendarInput,
  start: Date,
  to: Date,
  now: Date,
  t: HandoffFlowTimings,
): ProjectedShift[] | null {
  if (!input.nextBoundary) return null;
  const running = runningWindow(input, now);
  const holderId = running ? running.requesterId : input.holderId;
  const handled = !running && isBoundaryHandedOff(input.nextBoundary, input.lastHandoffAt, t);
  return projectFixedTurns(
    {
      pattern: input.pattern,
      memberIds: input.memberIds,
      holderId,
      nextBoundary: input.nextBoundary,
      boundaryHandled: handled,
      turnUserId: input.turnUserId ?? null,
      timeOff: input.timeOff ?? [],
    },
    start,
    to,
  );
}

/**
 * rotationGaps returns the stretches of a fixed rotation in [max(from, now), to) that nobody
 * available holds (decision 217: every member is away for that shift), earliest first, less any
 * accepted coverage window laid over them; a layered rotation's, the stretches its layers give to
 * someone away. A fixed rotation's gap is its whole shift: one that begins before `to` may end
 * after it (a warning names the whole gap). Scheduled and suspended rotations have none.
 */
export function rotationGaps(
  input: RotationCalendarInput,
  from: Date,
  to: Date,
  now: Date,
  t: HandoffFlowTimings,
): Span[] {
  if (input.suspended || (input.type !== 'fixed' && !input.layered)) return [];
  const start = new Date(Math.max(now.getTime(), from.getTime()));
  if (to.getTime() <= start.getTime()) return [];
  const gaps = input.layered
    ? awayStretches(input.entries, input.timeOff ?? [], start, to)
    : gapsOf(fixedProjection(input, start, to, now, t) ?? []);
  const out: Span[] = [];
  for (const gap of gaps) {
    let pieces: Span[] = [gap];
    for (const w of input.coverage) {
      pieces = pieces.flatMap((p) => {
        if (w.end.getTime() <= p.start.getTime() || w.start.getTime() >= p.end.getTime()) {
          return [p];
        }
        const kept: Span[] = [];
        if (p.start.getTime() < w.start.getTime()) kept.push({ start: p.start, end: w.start });
        if (w.end.getTime() < p.end.getTime()) kept.push({ start: w.end, end: p.end });
        return kept;
      });
    }
    out.push(...pieces);
  }
  return out;
}

/**
 * awayStretches returns the parts of a layered rotation's stretches in [start, to) whose person is
 * away, earliest first, touching ones joined: the layers do not go round time off (PagerDuty's do
 * not either), so each is a gap to cover (decision 247).
 */
function awayStretches(
  stretches: readonly TimeWindow[],
  timeOff: readonly AwayWindow[],
  start: Date,
  to: Date,
): Span[] {
  const spans: Span[] = [];
  for (const s of stretches) {
    for (const w of timeOff) {
      if (w.userId !== s.userId) continue;
      const a = Math.max(s.start.getTime(), w.start.getTime(), start.getTime());
      const b = Math.min(s.end.getTime(), w.end.getTime(), to.getTime());
      if (a < b) spans.push({ start: new Date(a), end: new Date(b) });
    }
  }
  spans.sort((x, y) => x.start.getTime() - y.start.getTime());
  const joined: Span[] = [];
  for (const span of spans) {
    const last = joined.at(-1);
    if (last && span.start.getTime() <= last.end.getTime()) {
      if (span.end.getTime() > last.end.getTime()) last.end = span.end;
    } else joined.push({ ...span });
  }
  return joined;
}

/**
 * rotationShifts returns one rotation's shifts overlapping [from, to): recorded history until
 * `now`, then the projection: a fixed rotation's members in order from its pending boundary, a
 * scheduled rotation's entries, with accepted coverage windows laid over both. A suspended
 * rotation has no future shifts.
 */
export function rotationShifts(
  input: RotationCalendarInput,
  from: Date,
  to: Date,
  now: Date,
  t: HandoffFlowTimings,
): CalendarShift[] {
  const past =
    from.getTime() < now.getTime()
      ? historyShifts(
          input.changes,
          input.holderAtFrom,
          from,
          new Date(Math.min(now.getTime(), to.getTime())),
        )
      : [];
  if (input.suspended || to.getTime() <= now.getTime()) return mergeShifts(past);
  const start = new Date(Math.max(now.getTime(), from.getTime()));
  let future: CalendarShift[] = [];
  const running = runningWindow(input, now);
  if (input.type === 'fixed') {
    future = (fixedProjection(input, start, to, now, t) ?? []).map((s) => ({
      userId: s.userId,
      start: s.start,
      end: s.end,
      source: 'rotation' as const,
    }));
  } else {
    // The holder now keeps the baton until the schedule's next change; then the entries rule.
    const change = nextScheduleTransition(input.entries, now) ?? to;
    const current = running ? null : input.holderId;
    if (current !== null && change.getTime() > start.getTime()) {
      future.push({ userId: current, start, end: change, source: 'schedule' });
    }
    future.push(
      ...scheduledShifts(input.entries, change, to)
        .map((s) => ({
          ...s,
          start: new Date(Math.max(s.start.getTime(), change.getTime())),
          source: 'schedule' as const,
        }))
        .filter((s) => s.end.getTime() > s.start.getTime()),
    );
  }
  const windows = input.coverage
    .filter((c) => c.end.getTime() > start.getTime())
    .map((c) => ({ ...c, start: new Date(Math.max(c.start.getTime(), start.getTime())) }));
  future = overlayCoverage(future, windows);
  return mergeShifts([...past, ...future]).filter(
    (s) => s.end.getTime() > from.getTime() && s.start.getTime() < to.getTime(),
  );
}

/** shiftsBetween returns the shifts that overlap [start, end) (a calendar day). */
export function shiftsBetween<S extends Shift>(shifts: readonly S[], start: Date, end: Date): S[] {
  return shifts.filter(
    (s) => s.start.getTime() < end.getTime() && s.end.getTime() > start.getTime(),
  );
}

/** Who held the baton at the start of a laid span, and since when (the handoff before it). */
export interface HeldAtFrom {
  userId: number;
  since: Date;
}

/** Who holds a rotation's baton at an instant, read from its laid shifts (holderAt). */
export interface HolderAt {
  /** the shift holding the baton at the instant; null when nobody holds it */
  shift: CalendarShift | null;
  /** when the holder took the baton (nobody: when the last holder let it go); null if unknown */
  since: Date | null;
  /** when the baton leaves the holder (nobody: when someone takes it); null if not in the span */
  until: Date | null;
  /** the next person to hold the baton, and from when; null if nobody within the span */
  next: { userId: number; from: Date } | null;
}

/**
 * holderAt returns who holds the baton at `at` among one rotation's shifts laid over [from, to)
 * (rotationShifts, sorted), since when and until when, and who comes next. Back-to-back shifts of
 * one person are one stretch (a shift they cover runs on from their own turn); a stretch laid from
 * `from` began when `heldAtFrom` says, if it is theirs; a stretch reaching `to` has no known end.
 */
export function holderAt(
  shifts: readonly CalendarShift[],
  at: Date,
  span: { from: Date; to: Date; heldAtFrom: HeldAtFrom | null },
): HolderAt {
  const t = at.getTime();
  const i = shifts.findIndex((s) => s.start.getTime() <= t && t < s.end.getTime());
  const joined = (a: CalendarShift, b: CalendarShift) =>
    a.userId === b.userId && a.end.getTime() === b.start.getTime();
  if (i === -1) {
    const before = shifts.filter((s) => s.end.getTime() <= t).at(-1);
    const after = shifts.find((s) => s.start.getTime() > t);
    return {
      shift: null,
      since: before ? before.end : null,
      until: after ? after.start : null,
      next: after ? { userId: after.userId, from: after.start } : null,
    };
  }
  let first = i;
  while (first > 0 && joined(shifts[first - 1], shifts[first])) first -= 1;
  let last = i;
  while (last + 1 < shifts.length && joined(shifts[last], shifts[last + 1])) last += 1;
  const shift = shifts[i];
  const start = shifts[first].start;
  const held = span.heldAtFrom;
  const since =
    start.getTime() === span.from.getTime() && held?.userId === shift.userId ? held.since : start;
  const end = shifts[last].end;
  const open = end.getTime() >= span.to.getTime();
  const following = open ? undefined : shifts[last + 1];
  return {
    shift,
    since,
    until: open ? null : end,
    next:
      following && following.start.getTime() < span.to.getTime()
        ? { userId: following.userId, from: following.start }
        : null,
  };
}
