import type { OnDutyWindow } from '../../../shared/domain/on-duty-windows';

/**
 * Opsgenie's time restrictions as Baton's on-duty windows (issue 34, decision 271). Pure.
 *
 * A `time-of-day` restriction is one window on all seven days. A `weekday-and-time-of-day`
 * restriction is a list of spans, each from a weekday and time to a weekday and time (Friday 18:00
 * to Monday 08:00); a Baton window belongs to the day it starts and may run into the next day only,
 * so a span is cut at each local midnight into one window per day it touches, the last two joined
 * when the last piece ends before the one before it starts (Friday 18:00–Saturday 08:00 is one
 * window). Windows with the same hours are then one window on several days.
 */

export const OPSGENIE_WEEKDAYS = [
  'sunday',
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
] as const;
export type OpsgenieWeekday = (typeof OPSGENIE_WEEKDAYS)[number];

export interface TimeOfDay {
  startHour: number;
  startMin: number;
  endHour: number;
  endMin: number;
}

export interface WeekdaySpan extends TimeOfDay {
  startDay: OpsgenieWeekday;
  endDay: OpsgenieWeekday;
}

export type OpsgenieRestriction =
  | { type: 'time-of-day'; restriction: TimeOfDay }
  | { type: 'weekday-and-time-of-day'; restrictions: WeekdaySpan[] };

const pad = (n: number) => String(n).padStart(2, '0');
/** 'HH:MM' of an hour and minute; Opsgenie's 24:00 is Baton's midnight, '00:00'. */
export const hhmm = (hour: number, minute: number) => `${pad(hour % 24)}:${pad(minute)}`;

const MINUTES_PER_DAY = 24 * 60;

/** windowsOfRestriction returns the on-duty windows a restriction allows (none: always). */
export function windowsOfRestriction(restriction: OpsgenieRestriction | null): OnDutyWindow[] {
  if (!restriction) return [];
  if (restriction.type === 'time-of-day') {
    const r = restriction.restriction;
    return [
      {
        days: [0, 1, 2, 3, 4, 5, 6],
        start: hhmm(r.startHour, r.startMin),
        end: hhmm(r.endHour, r.endMin),
      },
    ];
  }
  const pieces: { day: number; start: number; end: number }[] = [];
  for (const span of restriction.restrictions) pieces.push(...piecesOf(span));
  // One window per distinct pair of hours, on every day that has it.
  const byHours = new Map<string, OnDutyWindow & { days: number[] }>();
  for (const p of pieces) {
    const start = hhmm(Math.floor(p.start / 60), p.start % 60);
    const end = hhmm(Math.floor((p.end % MINUTES_PER_DAY) / 60), p.end % 60);
    const key = `${start}-${end}`;
    const window = byHours.get(key) ?? { days: [], start, end };
    if (!window.days.includes(p.day)) window.days.push(p.day);
    byHours.set(key, window);
  }
  return [...byHours.values()].map((w) => ({ ...w, days: w.days.sort((a, b) => a - b) }));
}

/**
 * piecesOf cuts one span at local midnights: each piece is a day and minutes from its midnight,
 * `end` up to 24 h (midnight) or, for a joined last piece, into the next day (end > 24 h).
 */
function piecesOf(span: WeekdaySpan): { day: number; start: number; end: number }[] {
  const startDay = OPSGENIE_WEEKDAYS.indexOf(span.startDay);
  const endDay = OPSGENIE_WEEKDAYS.indexOf(span.endDay);
  const start = span.startHour * 60 + span.startMin;
  const end = span.endHour * 60 + span.endMin;
  let length = ((endDay - startDay + 7) % 7) * MINUTES_PER_DAY + end - start;
  if (length <= 0) length += 7 * MINUTES_PER_DAY;
  const pieces: { day: number; start: number; end: number }[] = [];
  let at = start;
  let day = startDay;
  let left = length;
  while (left > 0) {
    const take = Math.min(left, MINUTES_PER_DAY - at);
    pieces.push({ day, start: at, end: at + take });
    left -= take;
    at = 0;
    day = (day + 1) % 7;
  }
  // Join a last piece from midnight that ends before the one before it starts: that window runs
  // into the next day, as Baton's windows may.
  const last = pieces.at(-1);
  const before = pieces.at(-2);
  if (
    last &&
    before &&
    last.start === 0 &&
    before.end === MINUTES_PER_DAY &&
    last.end < before.start
  ) {
    pieces.pop();
    before.end = MINUTES_PER_DAY + last.end;
  }
  return pieces;
}
