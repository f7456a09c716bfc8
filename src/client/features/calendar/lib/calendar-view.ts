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
  /** the signed-in user's own shift */
  mine: boolean;
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
    mine: s.userId === viewerId,
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
