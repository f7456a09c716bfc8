import { wallTimeOf } from './shifts';

/**
 * "Your shift moved" (issue 18, decision 219): what changed in each person's shifts between a
 * rotation's projection kept before its first change (the baseline) and its projection now, and
 * the words that tell them. Pure: the projections, the instants and the zones come in.
 */

const MINUTE = 60_000;
const DAY = 86_400_000;

/** How far ahead shifts are compared: 8 weeks from the baseline. */
export const SHIFT_CHANGE_HORIZON_MS = 56 * DAY;
/**
 * A shift pushed this far past the horizon (or pulled in from there) reads as moved rather than
 * removed (or new). Projections read twice this far past the horizon, so a shift that crosses the
 * horizon, or starts in this tail, is compared and told whole (up to a week and a day long).
 */
export const SHIFT_CHANGE_TAIL_MS = 8 * DAY;
/**
 * A rotation's changes are told together once this long has passed without another (the quiet
 * window), or DIGEST_MAX_WAITS of it after the first, whichever is sooner (decision 262).
 */
export const SHIFT_CHANGE_DELAY_MS = 2 * MINUTE;
/** However long the edits go on, their digest waits at most this many quiet windows. */
export const DIGEST_MAX_WAITS = 5;
/** At most this many changes are written out in one message; the rest are counted. */
export const SHIFT_CHANGES_SHOWN = 10;

/** One person's stretch of a projection. */
export interface PersonShift {
  userId: number;
  start: Date;
  end: Date;
}

export interface ShiftSpan {
  start: Date;
  end: Date;
}

export type ShiftChange =
  | { kind: 'moved'; before: ShiftSpan; after: ShiftSpan }
  | {
      kind: 'removed';
      before: ShiftSpan;
      /** who is on call in the removed shift's time now, by the projection (decision 262) */
      coveredBy?: readonly number[];
    }
  | { kind: 'added'; after: ShiftSpan };

/** projectionSpan returns what a projection taken at `at` covers: the horizon and beyond. */
export function projectionSpan(at: Date): { from: Date; to: Date } {
  return {
    from: at,
    to: new Date(at.getTime() + SHIFT_CHANGE_HORIZON_MS + 2 * SHIFT_CHANGE_TAIL_MS),
  };
}

const ms = (d: Date) => d.getTime();

/**
 * digestDueAt returns when a rotation's changes, the first of them at `firstAt`, are told
 * after a change at `now`: a quiet window (`delayMs`) after the latest, but no later than
 * DIGEST_MAX_WAITS windows after the first (decision 262).
 */
export function digestDueAt(firstAt: Date, now: Date, delayMs: number): Date {
  return new Date(Math.min(ms(now) + delayMs, ms(firstAt) + DIGEST_MAX_WAITS * delayMs));
}

/**
 * changedShifts returns, per person, how their shifts changed between the baseline (projected
 * at `takenAt` over projectionSpan(takenAt)) and the projection at `now` (over
 * projectionSpan(now)). Only the part both cover counts: from `now` to the baseline's horizon.
 * A shift that simply passed meanwhile is no change; a shift under way counts from `now`. A
 * person's changed shifts pair up in order as moves; what is left over was removed or added.
 * People whose shifts did not change are not in the answer.
 */
export function changedShifts(
  before: readonly PersonShift[],
  takenAt: Date,
  after: readonly PersonShift[],
  now: Date,
): Map<number, ShiftChange[]> {
  const from = Math.max(ms(now), ms(takenAt));
  const until = ms(takenAt) + SHIFT_CHANGE_HORIZON_MS;
  // Both sides are cut where the baseline's projection ended, so its edge is no change.
  const cutEnd = Math.min(ms(projectionSpan(takenAt).to), ms(projectionSpan(now).to));
  const out = new Map<number, ShiftChange[]>();
  if (from >= until) return out;

  const span = (s: PersonShift): ShiftSpan => ({
    start: new Date(Math.max(ms(s.start), from)),
    end: new Date(Math.min(ms(s.end), cutEnd)),
  });
  const keyOf = (s: ShiftSpan) => `${ms(s.start)}-${ms(s.end)}`;
  const inWindow = (s: PersonShift) => ms(s.start) < until && ms(s.end) > from;
  const inTail = (s: PersonShift) =>
    ms(s.start) >= until && ms(s.start) < until + SHIFT_CHANGE_TAIL_MS;
  const byPerson = (shifts: readonly PersonShift[], keep: (s: PersonShift) => boolean) => {
    const map = new Map<number, ShiftSpan[]>();
    for (const s of [...shifts].sort((a, b) => ms(a.start) - ms(b.start))) {
      if (!keep(s)) continue;
      const list = map.get(s.userId) ?? [];
      list.push(span(s));
      map.set(s.userId, list);
    }
    return map;
  };
  /** withoutCommon removes what both lists hold (by start and end), once per match. */
  const withoutCommon = (a: ShiftSpan[], b: ShiftSpan[]): [ShiftSpan[], ShiftSpan[]] => {
    const left = [...b];
    const onlyA: ShiftSpan[] = [];
    for (const s of a) {
      const i = left.findIndex((o) => keyOf(o) === keyOf(s));
      if (i >= 0) left.splice(i, 1);
      else onlyA.push(s);
    }
    return [onlyA, left];
  };

  const beforeIn = byPerson(before, inWindow);
  const afterIn = byPerson(after, inWindow);
  const beforeTail = byPerson(before, inTail);
  const afterTail = byPerson(after, inTail);
  const people = new Set([...beforeIn.keys(), ...afterIn.keys()]);
  for (const userId of [...people].sort((a, b) => a - b)) {
    const [removed, added] = withoutCommon(beforeIn.get(userId) ?? [], afterIn.get(userId) ?? []);
    if (removed.length === 0 && added.length === 0) continue;
    const [tailGone, tailNew] = withoutCommon(
      beforeTail.get(userId) ?? [],
      afterTail.get(userId) ?? [],
    );
    const changes: ShiftChange[] = [];
    const pairs = Math.min(removed.length, added.length);
    for (let i = 0; i < pairs; i++) {
      changes.push({ kind: 'moved', before: removed[i], after: added[i] });
    }
    // A shift pushed past the horizon (or pulled in from beyond it) moved; it did not vanish.
    removed.slice(pairs).forEach((s, i) => {
      const later = tailNew[i];
      changes.push(
        later ? { kind: 'moved', before: s, after: later } : { kind: 'removed', before: s },
      );
    });
    added.slice(pairs).forEach((s, i) => {
      const earlier = tailGone[i];
      changes.push(
        earlier ? { kind: 'moved', before: earlier, after: s } : { kind: 'added', after: s },
      );
    });
    changes.sort((a, b) => ms(firstOf(a)) - ms(firstOf(b)));
    out.set(userId, changes);
  }
  return out;
}

const keyOfSpan = (s: ShiftSpan) => `${ms(s.start)}-${ms(s.end)}`;

/** withoutCommonSpans returns what only `a` holds and what only `b` holds, by start and end. */
function withoutCommonSpans(
  a: readonly ShiftSpan[],
  b: readonly ShiftSpan[],
): [ShiftSpan[], ShiftSpan[]] {
  const left = [...b];
  const onlyA: ShiftSpan[] = [];
  for (const s of a) {
    const i = left.findIndex((o) => keyOfSpan(o) === keyOfSpan(s));
    if (i >= 0) left.splice(i, 1);
    else onlyA.push(s);
  }
  return [onlyA, left];
}

const bySpanStart = (a: ShiftSpan, b: ShiftSpan) => ms(a.start) - ms(b.start);

/**
 * pairChanges pairs what went and what came as moves: first a shift with one that overlaps it
 * (the same turn at other hours), then the rest in order; what is left was removed or added.
 */
function pairChanges(gone: ShiftSpan[], come: ShiftSpan[]): ShiftChange[] {
  gone.sort(bySpanStart);
  come.sort(bySpanStart);
  const overlaps = (a: ShiftSpan, b: ShiftSpan) =>
    ms(a.start) < ms(b.end) && ms(b.start) < ms(a.end);
  const changes: ShiftChange[] = [];
  const goneLeft: ShiftSpan[] = [];
  const comeLeft = [...come];
  for (const before of gone) {
    const i = comeLeft.findIndex((after) => overlaps(before, after));
    if (i < 0) goneLeft.push(before);
    else changes.push({ kind: 'moved', before, after: comeLeft.splice(i, 1)[0] });
  }
  const pairs = Math.min(goneLeft.length, comeLeft.length);
  changes.push(
    ...goneLeft.slice(0, pairs).map(
      (before, i): ShiftChange => ({
        kind: 'moved',
        before,
        after: comeLeft[i],
      }),
    ),
    ...goneLeft.slice(pairs).map((before): ShiftChange => ({ kind: 'removed', before })),
    ...comeLeft.slice(pairs).map((after): ShiftChange => ({ kind: 'added', after })),
  );
  return changes.sort((a, b) => ms(firstOf(a)) - ms(firstOf(b)));
}

/** isCurrentChange answers whether a change still matters at `now`: some shift in it has not ended. */
export function isCurrentChange(change: ShiftChange, now: Date): boolean {
  const ends = [
    change.kind === 'added' ? null : change.before.end,
    change.kind === 'removed' ? null : change.after.end,
  ];
  return ends.some((end) => end !== null && ms(end) > ms(now));
}

/** currentChanges returns the changes that still matter at `now` (isCurrentChange), in order. */
export function currentChanges(changes: readonly ShiftChange[], now: Date): ShiftChange[] {
  return changes.filter((c) => isCurrentChange(c, now));
}

/**
 * mergeShiftChanges returns one person's changes in a rotation from before `older` to after
 * `newer` (told later), as one list from `now` on: a shift `older` brought that `newer` took
 * away again is no change at all, and one moved twice moved once, to where it is now (decision
 * 262). Shifts that ended by `now` are left out; one under way counts from `now`.
 */
export function mergeShiftChanges(
  older: readonly ShiftChange[],
  newer: readonly ShiftChange[],
  now: Date,
): ShiftChange[] {
  const fromNow = (spans: ShiftSpan[]) =>
    spans
      .filter((s) => ms(s.end) > ms(now))
      .map((s) => ({ start: new Date(Math.max(ms(s.start), ms(now))), end: s.end }));
  const wentIn = (list: readonly ShiftChange[]) =>
    fromNow(list.flatMap((c) => (c.kind === 'added' ? [] : [c.before])));
  const cameIn = (list: readonly ShiftChange[]) =>
    fromNow(list.flatMap((c) => (c.kind === 'removed' ? [] : [c.after])));
  // What `newer` took away that `older` had not brought, and what `older` brought that stays.
  const [wentSinceOnly, broughtStays] = withoutCommonSpans(wentIn(newer), cameIn(older));
  const [gone, come] = withoutCommonSpans(
    [...wentIn(older), ...wentSinceOnly],
    [...broughtStays, ...cameIn(newer)],
  );
  return pairChanges(gone, come);
}

/**
 * withCover returns the changes with each removed shift's `coveredBy`: the other people whose
 * shifts in `after` (the projection now) overlap it, in the order their shifts start.
 */
export function withCover(
  changes: readonly ShiftChange[],
  after: readonly PersonShift[],
  userId: number,
): ShiftChange[] {
  const sorted = [...after].sort((a, b) => ms(a.start) - ms(b.start));
  return changes.map((c) => {
    if (c.kind !== 'removed') return c;
    const ids = sorted
      .filter(
        (s) =>
          s.userId !== userId && ms(s.start) < ms(c.before.end) && ms(s.end) > ms(c.before.start),
      )
      .map((s) => s.userId);
    return { ...c, coveredBy: [...new Set(ids)] };
  });
}

const firstOf = (c: ShiftChange) =>
  c.kind === 'added'
    ? c.after.start
    : c.kind === 'removed'
      ? c.before.start
      : new Date(Math.min(ms(c.before.start), ms(c.after.start)));

// ---------------------------------------------------------------------------------------------
// Words

interface Parts {
  weekday: string;
  month: string;
  day: string;
  year: string;
  time: string;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsOf(at: Date, timeZone: string): Parts {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
      timeZone,
    });
    if (partsFormatters.size < 1000) partsFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(at).map((x) => [x.type, x.value]));
  return {
    weekday: p.weekday,
    month: p.month,
    day: p.day,
    year: p.year,
    time: `${p.hour}:${p.minute} ${p.dayPeriod}`,
  };
}

/**
 * shiftDate returns "Mon Dec 7" (with ", 2027" when not in `now`'s year, in the zone), and with
 * `withTime` "Mon Dec 7, 9:00 AM".
 */
export function shiftDate(at: Date, timeZone: string, now: Date, withTime = true): string {
  const p = partsOf(at, timeZone);
  const year = p.year === String(wallTimeOf(now, timeZone).year) ? '' : `, ${p.year}`;
  return `${p.weekday} ${p.month} ${p.day}${year}${withTime ? `, ${p.time}` : ''}`;
}

const sameTimeOfDay = (a: Date, b: Date, timeZone: string) =>
  partsOf(a, timeZone).time === partsOf(b, timeZone).time;

/** shiftSpanText returns "Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM" in the zone. */
export function shiftSpanText(s: ShiftSpan, timeZone: string, now: Date, withTime = true): string {
  return `${shiftDate(s.start, timeZone, now, withTime)} – ${shiftDate(s.end, timeZone, now, withTime)}`;
}

/**
 * shiftChangeSentence returns one change in words for a reader in `timeZone`: "Your shift Mon
 * Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary moved to Mon Dec 14 –
 * Mon Dec 21." A move keeps to dates when the new shift starts and ends at the same times of day.
 */
export function shiftChangeSentence(
  change: ShiftChange,
  rotationName: string,
  timeZone: string,
  now: Date,
  names: ReadonlyMap<number, string> = new Map(),
): string {
  if (change.kind === 'added') {
    return `You have a new shift ${shiftSpanText(change.after, timeZone, now)} (${timeZone}) in ${rotationName}.`;
  }
  const was = `Your shift ${shiftSpanText(change.before, timeZone, now)} (${timeZone}) in ${rotationName}`;
  if (change.kind === 'removed') {
    const cover = (change.coveredBy ?? []).flatMap((id) => names.get(id) ?? []);
    if (cover.length === 0) return `${was} was removed: you are not on call then.`;
    return `${was} was removed: ${listOfNames(cover)} ${cover.length === 1 ? 'is' : 'are'} on call then.`;
  }
  const { before, after } = change;
  const datesOnly =
    sameTimeOfDay(before.start, after.start, timeZone) &&
    sameTimeOfDay(before.end, after.end, timeZone);
  return `${was} moved to ${shiftSpanText(after, timeZone, now, !datesOnly)}.`;
}

/** listOfNames returns "Ana", "Ana and Ben", "Ana, Ben and Cal". */
const listOfNames = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/**
 * shiftChangeSentences returns a person's changes in words, at most SHIFT_CHANGES_SHOWN of them,
 * and how many more there are.
 */
export function shiftChangeSentences(
  changes: readonly ShiftChange[],
  rotationName: string,
  timeZone: string,
  now: Date,
  names: ReadonlyMap<number, string> = new Map(),
): { sentences: string[]; more: number } {
  return {
    sentences: changes
      .slice(0, SHIFT_CHANGES_SHOWN)
      .map((c) => shiftChangeSentence(c, rotationName, timeZone, now, names)),
    more: Math.max(0, changes.length - SHIFT_CHANGES_SHOWN),
  };
}
