import type { Calendar, CalendarShift } from '@shared/contracts/calendar';
import type { Person } from '@shared/contracts/rotations';
import { type CalendarDay, dayBounds, dayKeyOf, shiftMonth } from '@shared/domain/calendar';

/** What one day shows for one rotation: who holds the baton that day, in order. */
export interface DayRotation {
  rotationId: number;
  rotationName: string;
  /** the rotation's place in the calendar's list (its colour) */
  index: number;
  people: DayShift[];
}

export interface DayShift {
  userId: number;
  name: string;
  /** the shift starts during this day: the handoff time */
  startsAt: Date | null;
  /** the shift ends during this day */
  endsAt: Date | null;
  coverage: boolean;
  /** a coverage window ahead: whose shift it covers (their name), else null */
  coveredName: string | null;
  /** the signed-in user's own shift */
  mine: boolean;
  /** the whole shift, beyond this day */
  shift: { start: Date; end: Date; source: CalendarShift['source'] };
}

/** parseMonth reads 'YYYY-MM' (a month in the address), or null. */
export function parseMonth(value: string | null): { year: number; month: number } | null {
  const match = value ? /^(\d{4})-(0[1-9]|1[0-2])$/.exec(value) : null;
  return match ? { year: Number(match[1]), month: Number(match[2]) } : null;
}

/** monthParam writes a month as 'YYYY-MM'. */
export function monthParam(m: { year: number; month: number }): string {
  return `${m.year}-${String(m.month).padStart(2, '0')}`;
}

/** currentMonth returns the month `now` falls in, in a time zone. */
export function currentMonth(now: Date, timeZone: string): { year: number; month: number } {
  const [year, month] = dayKeyOf(now, timeZone).split('-').map(Number);
  return { year, month };
}

/** neighbours returns the months before and after. */
export function neighbours(m: { year: number; month: number }) {
  return { prev: shiftMonth(m.year, m.month, -1), next: shiftMonth(m.year, m.month, 1) };
}

/**
 * dayRotations returns, for one day in the viewer's zone, who is on call in each rotation shown
 * (all, or only `rotationId`), in the calendar's order; rotations with nobody that day are left out.
 */
export function dayRotations(
  calendar: Calendar,
  day: Pick<CalendarDay, 'year' | 'month' | 'day'>,
  timeZone: string,
  options: { rotationId: number | null; viewerId: number | null },
): DayRotation[] {
  const { start, end } = dayBounds(day, timeZone);
  const people = new Map<number, Person>(calendar.people.map((p) => [p.id, p]));
  const out: DayRotation[] = [];
  calendar.rotations.forEach((rotation, index) => {
    if (options.rotationId !== null && rotation.id !== options.rotationId) return;
    const shifts = rotation.shifts.filter(
      (s) => Date.parse(s.start) < end.getTime() && Date.parse(s.end) > start.getTime(),
    );
    if (shifts.length === 0) return;
    out.push({
      rotationId: rotation.id,
      rotationName: rotation.name,
      index,
      people: shifts.map((s) => toDayShift(s, start, end, people, options.viewerId)),
    });
  });
  return out;
}

function toDayShift(
  s: CalendarShift,
  start: Date,
  end: Date,
  people: Map<number, Person>,
  viewerId: number | null,
): DayShift {
  const from = Date.parse(s.start);
  const to = Date.parse(s.end);
  return {
    userId: s.userId,
    name: people.get(s.userId)?.name ?? 'Unknown',
    startsAt: from > start.getTime() ? new Date(from) : null,
    endsAt: to < end.getTime() ? new Date(to) : null,
    coverage: s.source === 'coverage',
    coveredName: s.coveredUserId === undefined ? null : (people.get(s.coveredUserId)?.name ?? null),
    mine: s.userId === viewerId,
    shift: { start: new Date(from), end: new Date(to), source: s.source },
  };
}

/**
 * shiftLabel returns how a day names one shift to assistive technology and in a chip's tooltip:
 * 'Noah Nakamura', with ' (you)' for the signed-in user's own and ' (coverage)' for a coverage
 * window, so neither is told by colour or weight alone.
 */
export function shiftLabel(shift: Pick<DayShift, 'name' | 'mine' | 'coverage'>): string {
  return `${shift.name}${shift.mine ? ' (you)' : ''}${shift.coverage ? ' (coverage)' : ''}`;
}

/** shortName returns 'Noah N.' for 'Noah Nakamura'. */
export function shortName(name: string): string {
  const [first, ...rest] = name.trim().split(/\s+/);
  const last = rest.at(-1);
  return last ? `${first} ${last[0]}.` : first;
}

/** A day's time off and gaps (issue 18): who is away, and which rotations have nobody free. */
export interface DayAvailability {
  /** people with time off that day, by name */
  away: { userId: number; name: string; mine: boolean }[];
  /** rotations with a gap that day: every member away */
  gaps: { rotationId: number; rotationName: string; start: Date; end: Date }[];
}

/**
 * dayAvailability returns who has time off on a day (in `timeZone`) and which rotations have a
 * gap then (only `rotationId`'s, when filtered; then only its members are listed away).
 */
export function dayAvailability(
  calendar: Calendar,
  day: Pick<CalendarDay, 'year' | 'month' | 'day'>,
  timeZone: string,
  options: { rotationId: number | null; viewerId: number | null },
): DayAvailability {
  const { start, end } = dayBounds(day, timeZone);
  const overlaps = (s: { start: string; end: string }) =>
    Date.parse(s.start) < end.getTime() && Date.parse(s.end) > start.getTime();
  const people = new Map<number, Person>(calendar.people.map((p) => [p.id, p]));
  const shown = calendar.rotations.filter(
    (r) => options.rotationId === null || r.id === options.rotationId,
  );
  const inShown =
    options.rotationId === null
      ? null
      : new Set(shown.flatMap((r) => r.shifts.map((s) => s.userId)));
  const away = new Map<number, DayAvailability['away'][number]>();
  for (const w of calendar.timeOff ?? []) {
    if (!overlaps(w) || (inShown && !inShown.has(w.userId))) continue;
    away.set(w.userId, {
      userId: w.userId,
      name: people.get(w.userId)?.name ?? 'Unknown',
      mine: w.userId === options.viewerId,
    });
  }
  const gaps = shown.flatMap((r) =>
    (r.gaps ?? []).filter(overlaps).map((g) => ({
      rotationId: r.id,
      rotationName: r.name,
      start: new Date(g.start),
      end: new Date(g.end),
    })),
  );
  return { away: [...away.values()].sort((a, b) => a.name.localeCompare(b.name)), gaps };
}
