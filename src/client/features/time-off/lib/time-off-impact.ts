import type { ShiftMove } from '@shared/contracts/time-off';
import { wallTimeOf } from '@shared/domain/shifts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** One sentence of the impact: who covers which days of one rotation (or that nobody can). */
export interface ImpactLine {
  key: string;
  text: string;
  gap: boolean;
}

/** dayOf writes an instant's calendar day in a zone: "1 December". */
function dayOf(iso: string, timeZone: string): string {
  const wall = wallTimeOf(new Date(iso), timeZone);
  return `${wall.day} ${MONTHS[wall.month - 1]}`;
}

/** listOf joins words as people read them: "1, 3 and 6 December". */
function listOf(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/**
 * datesOf writes the days the moves start on, in the viewer's zone, each month named once after
 * its days: "30 November, 3 and 6 December".
 */
function datesOf(moves: readonly ShiftMove[], timeZone: string): string {
  const months: { month: string; days: string[] }[] = [];
  for (const day of [...new Set(moves.map((m) => dayOf(m.start, timeZone)))]) {
    const [d, ...rest] = day.split(' ');
    const month = rest.join(' ');
    const last = months.at(-1);
    if (last?.month === month) last.days.push(d);
    else months.push({ month, days: [d] });
  }
  return months.map((m) => `${listOf(m.days)} ${m.month}`).join(', ');
}

/**
 * impactLines writes the impact of an entry of time off as the dialog shows it (decision 256):
 * per rotation and per person who takes the shifts, "Noah Novak covers 1, 3 and 6 December in
 * Payments"; shifts nobody can take, "Nobody can cover 5 December in Payments: a gap". Dates are
 * the days the moved shifts start, in `timeZone`.
 */
export function impactLines(moves: readonly ShiftMove[], timeZone: string): ImpactLine[] {
  const groups = new Map<string, ShiftMove[]>();
  for (const m of moves) {
    const key = `${m.rotationId}:${m.to?.id ?? 'gap'}`;
    groups.set(key, [...(groups.get(key) ?? []), m]);
  }
  return [...groups.entries()].map(([key, group]) => {
    const { to, rotationName } = group[0];
    const dates = datesOf(group, timeZone);
    return to
      ? { key, text: `${to.name} covers ${dates} in ${rotationName}`, gap: false }
      : { key, text: `Nobody can cover ${dates} in ${rotationName}: a gap`, gap: true };
  });
}
