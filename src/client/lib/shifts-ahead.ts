import type { CalendarRotation } from '@shared/contracts/calendar';
import { NOBODY_ON_CALL } from './timeline';

/*
 * Who is on call from now on, as lists (issue 35, decision 259): a rotation's "Upcoming shifts",
 * a person's, and the dashboard's "On call now and the next 7 days". Pure: the calendar read's
 * shifts (the one projection: history, turns, time off gone round, cover laid over), the names
 * and now come in. Nothing here projects; it only joins, cuts at now and names the holes.
 */

/** How far ahead the upcoming shifts look: the calendar's widest read, about two months. */
export const SHIFTS_AHEAD_DAYS = 62;
/** The dashboard's glance: now and the changes of the coming seven days. */
export const WEEK_AHEAD_DAYS = 7;
const DAY = 86_400_000;

/**
 * shiftsAheadSpan returns the calendar read the upcoming shifts come from: from the start of the
 * minute of `now` for SHIFTS_AHEAD_DAYS (the rotation page's cover plans read the same span).
 */
export function shiftsAheadSpan(now: Date): { from: string; to: string } {
  const from = Math.floor(now.getTime() / 60_000) * 60_000;
  return {
    from: new Date(from).toISOString(),
    to: new Date(from + SHIFTS_AHEAD_DAYS * DAY).toISOString(),
  };
}

/** turn: the person's own shift; cover: a coverage window; nobody: nobody holds the baton. */
export type ShiftAheadKind = 'turn' | 'cover' | 'nobody';

export interface ShiftAhead {
  rotationId: number;
  rotationName: string;
  userId: number | null;
  /** the person's name, or 'Nobody on call' */
  name: string;
  kind: ShiftAheadKind;
  /** a cover's: whose shift it covers, when the calendar says */
  coveredName: string | null;
  /** when it starts; the stretch under way may have started before the read */
  start: Date;
  /** when it ends; null: nobody, and nothing ahead within the read */
  end: Date | null;
  /** now falls in it */
  now: boolean;
}

type RotationShifts = Pick<CalendarRotation, 'id' | 'name' | 'shifts'> &
  Partial<Pick<CalendarRotation, 'suspended'>>;

/** nameOf returns a person's name from the read's people, or 'A former member'. */
const nameOf = (names: ReadonlyMap<number, string>, id: number) =>
  names.get(id) ?? 'A former member';

/**
 * rotationShiftsAhead returns one rotation's stretches running at `now` or starting before `to`,
 * earliest first: back-to-back ones of one person joined (a cover apart), every hole a 'Nobody on
 * call' stretch (the last one open-ended when nothing follows it within the read). A suspended
 * rotation has nobody on call from now on (its recorded holder's stretch ends at the read's now).
 */
export function rotationShiftsAhead(
  rotation: RotationShifts,
  names: ReadonlyMap<number, string>,
  now: Date,
  to: Date,
): ShiftAhead[] {
  const at = now.getTime();
  type Stretch = {
    userId: number | null;
    start: Date;
    end: Date | null;
    kind: ShiftAheadKind;
    covered: number | null;
  };
  // Joined before cut at now, so the stretch under way keeps its start (history, then projection).
  const held: (Stretch & { end: Date })[] = [];
  for (const s of [...(rotation.suspended ? [] : rotation.shifts)].sort(
    (a, b) => Date.parse(a.start) - Date.parse(b.start),
  )) {
    const next = {
      userId: s.userId,
      start: new Date(s.start),
      end: new Date(s.end),
      kind: s.source === 'coverage' ? ('cover' as const) : ('turn' as const),
      covered: s.source === 'coverage' ? (s.coveredUserId ?? null) : null,
    };
    if (next.start.getTime() >= to.getTime()) continue;
    const last = held.at(-1);
    const same =
      last?.userId === next.userId && last.kind === next.kind && last.covered === next.covered;
    if (same && last.end.getTime() === next.start.getTime()) last.end = next.end;
    else held.push(next);
  }
  const joined: Stretch[] = [];
  let until = at;
  for (const s of held.filter((h) => h.end.getTime() > at)) {
    if (s.start.getTime() > until) {
      joined.push({
        userId: null,
        start: new Date(until),
        end: s.start,
        kind: 'nobody',
        covered: null,
      });
    }
    joined.push(s);
    until = Math.max(until, s.end.getTime());
  }
  if (until < to.getTime()) {
    joined.push({ userId: null, start: new Date(until), end: null, kind: 'nobody', covered: null });
  }
  return joined.map((s) => ({
    rotationId: rotation.id,
    rotationName: rotation.name,
    userId: s.userId,
    name: s.userId === null ? NOBODY_ON_CALL : nameOf(names, s.userId),
    kind: s.kind,
    coveredName: s.covered === null ? null : nameOf(names, s.covered),
    start: s.start,
    end: s.end,
    now: s.start.getTime() <= at && (s.end === null || at < s.end.getTime()),
  }));
}

/**
 * personShiftsAhead returns the person's own stretches in every rotation (theirs and the ones
 * they cover), running at `now` or starting before `to`, earliest first (by rotation name at a tie).
 */
export function personShiftsAhead(
  rotations: readonly RotationShifts[],
  personId: number,
  names: ReadonlyMap<number, string>,
  now: Date,
  to: Date,
): ShiftAhead[] {
  return rotations
    .flatMap((r) => rotationShiftsAhead(r, names, now, to).filter((s) => s.userId === personId))
    .sort(
      (a, b) =>
        a.start.getTime() - b.start.getTime() || a.rotationName.localeCompare(b.rotationName),
    );
}

export interface RotationWeek {
  id: number;
  name: string;
  suspended: boolean;
  /** the viewer is one of its members */
  mine: boolean;
  /** who is on call now (a 'Nobody on call' stretch when nobody is) */
  current: ShiftAhead;
  /** each change of hands in the coming seven days, in order */
  changes: ShiftAhead[];
}

/**
 * weekAhead returns, for each rotation, who is on call now and each change in the seven days
 * after `now`: the viewer's own rotations first, then the rest, each group in the read's order.
 */
export function weekAhead(
  rotations: readonly Pick<
    CalendarRotation,
    'id' | 'name' | 'shifts' | 'suspended' | 'memberIds'
  >[],
  viewerId: number | null,
  names: ReadonlyMap<number, string>,
  now: Date,
): RotationWeek[] {
  const to = new Date(now.getTime() + WEEK_AHEAD_DAYS * DAY);
  const weeks = rotations.map((r): RotationWeek => {
    const stretches = rotationShiftsAhead(r, names, now, to);
    return {
      id: r.id,
      name: r.name,
      suspended: r.suspended,
      mine: viewerId !== null && r.memberIds.includes(viewerId),
      // rotationShiftsAhead always starts with the stretch holding now (nobody's, if need be).
      current: stretches[0],
      changes: stretches.slice(1),
    };
  });
  return [...weeks.filter((w) => w.mine), ...weeks.filter((w) => !w.mine)];
}
