import {
  isOnDuty,
  MINUTES_PER_DAY,
  minutesOfDay,
  type OnDutyWindow,
  type WindowEdge,
  windowEdges,
} from './on-duty-windows';
import { instantOfWallMinute, wallMinuteOf, wallTimeOf } from './shifts';

/**
 * Layered rotations (issue 32, decision 246): who is on call when a rotation stacks layers, each
 * with its own members in turn order, shift length, handoff time and on-duty windows. Pure: the
 * instants and the rotation's zone come in.
 *
 * A layer's turns follow the clock from its start: boundaries fall at local wall-clock times
 * (every N hours of wall-clock time from the handoff time, every N days at it, or every N weeks on
 * the handoff weekday at it), so a 12-hour layer handing off at 08:00 keeps 08:00 and 20:00 and a
 * shift across a daylight-saving change lasts 11 or 13 hours. Turns keep following the clock
 * through the hours a layer is off duty. At any instant the last layer listed with somebody on
 * duty wins.
 */

/** How a layer's shift length is counted: N hours, days or weeks. */
export type Cadence = 'hourly' | 'daily' | 'weekly';

/** What decides when a layer's turns change hands and when it is on duty. */
export interface LayerPattern {
  cadence: Cadence;
  /** N: each turn lasts N hours, days or weeks; absent: 1 */
  cadenceEvery?: number;
  /** local wall-clock time of the boundaries, 'HH:MM' (hourly: the one the count starts from) */
  handoffTime: string;
  /** weekday of the boundaries of a weekly layer, 0 = Sunday … 6 = Saturday */
  handoffWeekday: number;
  /** when the layer is on duty; absent, null or empty: always */
  activeWindows?: readonly OnDutyWindow[] | null;
}

/** A layer's pattern and name: all its words need (describePattern). */
export interface NamedLayerPattern extends LayerPattern {
  name: string;
}

/** One layer of a rotation: its pattern, its members in turn order and when it began. */
export interface Layer extends NamedLayerPattern {
  /** members in turn order: the first holds the first turn */
  memberIds: readonly number[];
  /** when the layer began: its first turn runs from here to the first boundary after it */
  startsAt: Date;
}

/** Who is on call at an instant, and from which layer (its index in the list). */
export interface OnCall {
  memberId: number;
  layerIndex: number;
}

/** A stretch [start, end) with one person on call from one layer, or nobody (both null). */
export interface LayeredSegment {
  start: Date;
  end: Date;
  memberId: number | null;
  layerIndex: number | null;
}

/** How far nextChangeAfter looks: longer than the longest turn (365 days, or 52 weeks). */
export const NEXT_CHANGE_HORIZON_DAYS = 400;

const DAY = 86_400_000;
const STEP_MINUTES: Record<Cadence, number> = {
  hourly: 60,
  daily: MINUTES_PER_DAY,
  weekly: 7 * MINUTES_PER_DAY,
};

/**
 * A layer's boundaries as wall minutes (wallMinuteOf): anchor + k × step for every integer k.
 * The anchor is the handoff time on the start's local date (weekly: on the handoff weekday of the
 * start's week), so the grid, and who holds which turn, depend only on the layer.
 */
interface LayerClock {
  layer: Layer;
  anchor: number;
  step: number;
  /** the grid index of the last boundary at or before startsAt */
  startIndex: number;
}

function clockOf(layer: Layer, timeZone: string): LayerClock {
  const every = layer.cadenceEvery ?? 1;
  if (!Number.isInteger(every) || every < 1) {
    throw new Error(`Invalid cadenceEvery ${every}`);
  }
  const start = wallTimeOf(layer.startsAt, timeZone);
  let day = wallMinuteOf({ ...start, hour: 0, minute: 0 });
  if (layer.cadence === 'weekly') {
    day -= ((start.weekday - layer.handoffWeekday + 7) % 7) * MINUTES_PER_DAY;
  }
  const clock = {
    layer,
    anchor: day + minutesOfDay(layer.handoffTime),
    step: STEP_MINUTES[layer.cadence] * every,
    startIndex: 0,
  };
  clock.startIndex = gridIndexAt(clock, timeZone, layer.startsAt, wallMinuteOf(start));
  return clock;
}

const boundaryOf = (clock: LayerClock, k: number, timeZone: string) =>
  instantOfWallMinute(clock.anchor + k * clock.step, timeZone);

/** gridIndexAt returns the index of the last boundary at or before `at`. */
function gridIndexAt(
  clock: LayerClock,
  timeZone: string,
  at: Date,
  wall = wallMinuteOf(wallTimeOf(at, timeZone)),
): number {
  // Every boundary at or before the wall time is at or before `at`; in a repeated hour the next
  // ones may be too (they took the first occurrence).
  let k = Math.floor((wall - clock.anchor) / clock.step);
  while (boundaryOf(clock, k + 1, timeZone).getTime() <= at.getTime()) k += 1;
  return k;
}

/** turnHolderAt returns whose turn it is at `at` by the clock alone (windows aside), or null. */
function turnHolderAt(clock: LayerClock, timeZone: string, at: Date): number | null {
  const { memberIds, startsAt } = clock.layer;
  if (memberIds.length === 0 || at.getTime() < startsAt.getTime()) return null;
  const turns = gridIndexAt(clock, timeZone, at) - clock.startIndex;
  return memberIds[turns % memberIds.length];
}

function holderOf(clock: LayerClock, timeZone: string, at: Date): number | null {
  if (!isOnDuty(clock.layer.activeWindows, timeZone, at)) return null;
  return turnHolderAt(clock, timeZone, at);
}

/** A boundary of a layer's turns: its instant and its index on the layer's grid. */
interface Boundary {
  at: number;
  index: number;
}

/**
 * boundariesFrom returns the boundaries from grid index `first` up to `to` (inclusive), oldest
 * first. One wall-clock hour skipped by daylight saving makes two boundaries one instant: it is
 * listed once, with the later index.
 */
function boundariesFrom(clock: LayerClock, timeZone: string, first: number, to: Date): Boundary[] {
  const out: Boundary[] = [];
  // Bounded: ten years of hourly boundaries at most.
  for (let k = first, guard = 0; guard < 87_700; k++, guard++) {
    const at = boundaryOf(clock, k, timeZone).getTime();
    if (at > to.getTime()) break;
    const last = out.at(-1);
    if (last?.at === at) last.index = k;
    else out.push({ at, index: k });
  }
  return out;
}

function clockBoundaries(clock: LayerClock, timeZone: string, from: Date, to: Date): Date[] {
  const lower = new Date(Math.max(from.getTime(), clock.layer.startsAt.getTime()));
  const first = gridIndexAt(clock, timeZone, lower) + 1;
  return boundariesFrom(clock, timeZone, first, to).map((b) => new Date(b.at));
}

/**
 * layerBoundaries returns each boundary of a layer's turns in (from, to] after the layer's start,
 * oldest first. A boundary passes the turn to the next member in order, cycling; a one-hour turn
 * whose wall-clock hour daylight saving skips is empty, so its boundaries are one instant.
 */
export function layerBoundaries(layer: Layer, timeZone: string, from: Date, to: Date): Date[] {
  return clockBoundaries(clockOf(layer, timeZone), timeZone, from, to);
}

/**
 * layerHolderAt returns the member of a layer on duty at `at`: whose turn it is, counted from the
 * layer's start, if `at` is in one of its windows; null before the start, off duty or without
 * members.
 */
export function layerHolderAt(layer: Layer, timeZone: string, at: Date): number | null {
  return holderOf(clockOf(layer, timeZone), timeZone, at);
}

function onCallOf(clocks: readonly LayerClock[], timeZone: string, at: Date): OnCall | null {
  for (let i = clocks.length - 1; i >= 0; i--) {
    const memberId = holderOf(clocks[i], timeZone, at);
    if (memberId !== null) return { memberId, layerIndex: i };
  }
  return null;
}

/** onCallAt returns who is on call at `at`: the last layer listed with somebody on duty, or null. */
export function onCallAt(layers: readonly Layer[], timeZone: string, at: Date): OnCall | null {
  return onCallOf(
    layers.map((layer) => clockOf(layer, timeZone)),
    timeZone,
    at,
  );
}

/**
 * One layer's changes over a stretch, walked once in time order: its duty and whose turn it is
 * at `from`, then each window edge and each turn boundary after it. The boundaries keep their grid
 * index, so a boundary that daylight saving made one instant with the next counts both turns.
 */
interface LayerWalk {
  clock: LayerClock;
  onDuty: boolean;
  turn: number;
  edges: WindowEdge[];
  boundaries: Boundary[];
  nextEdge: number;
  nextBoundary: number;
}

function walkOf(clock: LayerClock, timeZone: string, from: Date, to: Date): LayerWalk {
  const turn = gridIndexAt(clock, timeZone, from);
  const boundaries = boundariesFrom(clock, timeZone, turn + 1, to);
  const windows = clock.layer.activeWindows;
  return {
    clock,
    onDuty: isOnDuty(windows, timeZone, from),
    turn,
    edges: windowEdges(windows, timeZone, from, to),
    boundaries,
    nextEdge: 0,
    nextBoundary: 0,
  };
}

/** holderAfterWalkingTo moves a layer's walk to `t` (no earlier than the last) and says who holds it. */
function holderAfterWalkingTo(walk: LayerWalk, t: number): number | null {
  while (walk.nextEdge < walk.edges.length && walk.edges[walk.nextEdge].at.getTime() <= t) {
    walk.onDuty = walk.edges[walk.nextEdge].onDuty;
    walk.nextEdge += 1;
  }
  while (walk.nextBoundary < walk.boundaries.length && walk.boundaries[walk.nextBoundary].at <= t) {
    walk.turn = walk.boundaries[walk.nextBoundary].index;
    walk.nextBoundary += 1;
  }
  const { memberIds, startsAt } = walk.clock.layer;
  if (!walk.onDuty || memberIds.length === 0 || t < startsAt.getTime()) return null;
  return memberIds[(walk.turn - walk.clock.startIndex) % memberIds.length];
}

/**
 * layeredSegments returns who is on call over [from, to) as ordered, back-to-back segments
 * covering it: the member and layer (onCallAt), or nobody (nulls). Adjacent segments of the same
 * member from the same layer are one. Each layer's edges and boundaries are found once and walked
 * in time order, so a long stretch costs in proportion to its changes.
 */
export function layeredSegments(
  layers: readonly Layer[],
  timeZone: string,
  from: Date,
  to: Date,
): LayeredSegment[] {
  if (to.getTime() <= from.getTime()) return [];
  const walks = layers.map((layer) => walkOf(clockOf(layer, timeZone), timeZone, from, to));
  const changes = new Set<number>([from.getTime()]);
  const add = (t: number) => {
    if (t > from.getTime() && t < to.getTime()) changes.add(t);
  };
  for (const walk of walks) {
    add(walk.clock.layer.startsAt.getTime());
    for (const b of walk.boundaries) add(b.at);
    for (const e of walk.edges) add(e.at.getTime());
  }
  const instants = [...changes].sort((a, b) => a - b);
  const segments: LayeredSegment[] = [];
  instants.forEach((t, i) => {
    const end = new Date(instants[i + 1] ?? to.getTime());
    let memberId: number | null = null;
    let layerIndex: number | null = null;
    // Every walk moves to t, the ones below the winner too, so none falls behind.
    for (let l = walks.length - 1; l >= 0; l--) {
      const holder = holderAfterWalkingTo(walks[l], t);
      if (memberId === null && holder !== null) {
        memberId = holder;
        layerIndex = l;
      }
    }
    const last = segments.at(-1);
    if (last && last.memberId === memberId && last.layerIndex === layerIndex) last.end = end;
    else segments.push({ start: new Date(t), end, memberId, layerIndex });
  });
  return segments;
}

/**
 * nextChangeAfter returns the first instant after `at` at which the person on call changes (a
 * boundary of the layer on duty, or a window edge; nobody counts as a person), or null if it does
 * not change within NEXT_CHANGE_HORIZON_DAYS.
 */
export function nextChangeAfter(layers: readonly Layer[], timeZone: string, at: Date): Date | null {
  const current = onCallAt(layers, timeZone, at)?.memberId ?? null;
  const limit = at.getTime() + NEXT_CHANGE_HORIZON_DAYS * DAY;
  for (let start = at.getTime(); start < limit; start += 14 * DAY) {
    const end = Math.min(start + 14 * DAY, limit);
    const change = layeredSegments(layers, timeZone, new Date(start), new Date(end)).find(
      (s) => s.memberId !== current,
    );
    if (change) return change.start;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// In words, for screens

const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_LONG = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
// Weeks read from Monday in words: "Mon–Fri", "Sat, Sun".
const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0];

const listInWords = (items: readonly string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

function daysInWords(days: readonly number[]): string {
  const chosen = WEEK_ORDER.filter((d) => days.includes(d));
  if (chosen.length === 7) return 'Every day';
  if (chosen.join() === '1,2,3,4,5') return 'Weekdays';
  if (chosen.join() === '6,0') return 'Weekends';
  const runs: number[][] = [];
  for (const d of chosen) {
    const run = runs.at(-1);
    if (run && WEEK_ORDER.indexOf(d) === WEEK_ORDER.indexOf(run.at(-1) ?? -1) + 1) run.push(d);
    else runs.push([d]);
  }
  return runs
    .map((run) =>
      run.length >= 3
        ? `${DAY_SHORT[run[0]]}–${DAY_SHORT[run[run.length - 1]]}`
        : run.map((d) => DAY_SHORT[d]).join(', '),
    )
    .join(', ');
}

function windowInWords(window: OnDutyWindow): string {
  const hours = window.start === window.end ? 'all day' : `${window.start}–${window.end}`;
  return `${daysInWords(window.days)} ${hours}`;
}

function turnsInWords(pattern: LayerPattern): string {
  const n = pattern.cadenceEvery ?? 1;
  if (pattern.cadence === 'hourly') return `${n}-hour turns`;
  const unit = pattern.cadence === 'daily' ? 'day' : 'week';
  return n === 1 ? `${pattern.cadence} turns` : `${n}-${unit} turns`;
}

function shiftsInWords(pattern: LayerPattern): string {
  const n = pattern.cadenceEvery ?? 1;
  const at = pattern.handoffTime;
  if (pattern.cadence === 'hourly') {
    if (24 % n !== 0 || 24 / n > 4) return `${n}-hour shifts from ${at}`;
    const first = minutesOfDay(at);
    const times = Array.from({ length: 24 / n }, (_, i) => (first + i * n * 60) % MINUTES_PER_DAY)
      .sort((a, b) => a - b)
      .map(
        (m) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`,
      );
    return `${n}-hour shifts at ${listInWords(times)}`;
  }
  if (pattern.cadence === 'daily')
    return n === 1 ? `Daily shifts at ${at}` : `${n}-day shifts at ${at}`;
  const from = `${DAY_LONG[pattern.handoffWeekday]} ${at}`;
  return n === 1 ? `Weekly shifts from ${from}` : `${n}-week shifts from ${from}`;
}

function layerInWords(layer: LayerPattern): string {
  const windows = layer.activeWindows ?? [];
  if (windows.length === 0) return shiftsInWords(layer);
  return `${windows.map(windowInWords).join('; ')}, ${turnsInWords(layer)}`;
}

/** Every layer on duty in one daily window, every day, the windows sharing the day between them. */
function isFollowTheSun(layers: readonly NamedLayerPattern[]): boolean {
  if (layers.length < 2) return false;
  const covered = new Array<number>(MINUTES_PER_DAY).fill(0);
  for (const layer of layers) {
    const windows = layer.activeWindows ?? [];
    if (windows.length !== 1 || new Set(windows[0].days).size !== 7) return false;
    const start = minutesOfDay(windows[0].start);
    const end = minutesOfDay(windows[0].end);
    if (start === end) return false;
    for (let m = start; m !== end; m = (m + 1) % MINUTES_PER_DAY) covered[m] += 1;
  }
  return covered.every((count) => count === 1);
}

/**
 * describePattern returns a rotation's layers in words for screens: "12-hour shifts at 08:00 and
 * 20:00", "Weekdays 09:00–17:00, weekly turns", "Follow the sun: London 07:00–19:00, Sydney
 * 19:00–07:00"; several layers otherwise each by name, in order (the last listed wins).
 */
export function describePattern(layers: readonly NamedLayerPattern[]): string {
  if (layers.length === 0) return 'Nobody on call';
  if (layers.length === 1) return layerInWords(layers[0]);
  if (isFollowTheSun(layers)) {
    const legs = layers.map((l) => {
      const [window] = l.activeWindows ?? [];
      return `${l.name} ${window.start}–${window.end}`;
    });
    return `Follow the sun: ${legs.join(', ')}`;
  }
  return layers.map((l) => `${l.name}: ${layerInWords(l)}`).join('; ');
}

// ---------------------------------------------------------------------------------------------
// Shifts across a change of the clocks, for screens to say so

/** A layer's turn whose length daylight saving changed: it lasts `hours`, not `nominalHours`. */
export interface ClockChangedTurn {
  layerIndex: number;
  start: Date;
  end: Date;
  hours: number;
  nominalHours: number;
}

/**
 * turnsAcrossClockChanges returns each turn of the layers overlapping [from, to) that a change of
 * the clocks made longer or shorter than its shift length (a 12-hour turn of 11 or 13 hours),
 * earliest first: the wall-clock boundaries stay, so the hours between them change.
 */
export function turnsAcrossClockChanges(
  layers: readonly Layer[],
  timeZone: string,
  from: Date,
  to: Date,
): ClockChangedTurn[] {
  const out: ClockChangedTurn[] = [];
  layers.forEach((layer, layerIndex) => {
    const clock = clockOf(layer, timeZone);
    const nominalHours = clock.step / 60;
    // From a turn's length before `from`, so the turn holding `from` has both its ends.
    const before = new Date(from.getTime() - (nominalHours + 2) * 3_600_000);
    const after = new Date(to.getTime() + (nominalHours + 2) * 3_600_000);
    const boundaries = clockBoundaries(clock, timeZone, before, after);
    for (let i = 1; i < boundaries.length; i++) {
      const start = boundaries[i - 1];
      const end = boundaries[i];
      if (end.getTime() <= from.getTime() || start.getTime() >= to.getTime()) continue;
      const hours = (end.getTime() - start.getTime()) / 3_600_000;
      if (hours !== nominalHours) out.push({ layerIndex, start, end, hours, nominalHours });
    }
  });
  return out.sort((a, b) => a.start.getTime() - b.start.getTime());
}
