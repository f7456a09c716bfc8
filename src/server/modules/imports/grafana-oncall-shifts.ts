import type { OnDutyWindow } from '../../../shared/domain/on-duty-windows';
import { wallMinuteOf, wallTimeOf } from '../../../shared/domain/shifts';
import type { SourceLayer } from './source-snapshot';

/**
 * Grafana OnCall's on-call shifts in Baton's terms (issue 34, decision 272): which `rolling_users`
 * shift is a Baton layer (turns of N hours, days or weeks following the wall clock, on duty in
 * windows), and, for any other, the reason Baton cannot hold it as layers. Pure: the shift and the
 * schedule's zone come in.
 */

/** An on-call shift as Grafana OnCall's public API answers it (GET /api/v1/on_call_shifts/). */
export interface GrafanaShift {
  id: string;
  name: string;
  type: string;
  schedule?: string | null;
  time_zone?: string | null;
  level?: number | null;
  /** UTC, 'YYYY-MM-DDTHH:MM:SS' */
  start: string;
  /** seconds */
  duration: number;
  rotation_start?: string | null;
  frequency?: string | null;
  interval?: number | null;
  until?: string | null;
  week_start?: string | null;
  by_day?: string[] | null;
  by_month?: number[] | null;
  by_monthday?: number[] | null;
  users?: string[] | null;
  rolling_users?: string[][] | null;
  start_rotation_from_user_index?: number | null;
}

/** A shift as a layer, or why it cannot be one. */
export type ShiftMapping = { layer: SourceLayer } | { refusal: string };

const ICAL_DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const HOUR = 3600;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const UNIT: Record<string, number> = { hourly: HOUR, daily: DAY, weekly: WEEK };

/** grafanaInstant reads the API's UTC date-time ('YYYY-MM-DDTHH:MM:SS', with or without a zone). */
export function grafanaInstant(text: string): Date {
  const zoned = /(Z|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`;
  return new Date(zoned);
}

const pad = (n: number) => String(n).padStart(2, '0');
const hhmm = (hour: number, minute: number) => `${pad(hour)}:${pad(minute)}`;

/** turnOrder is the shift's user groups in turn order: rolled by start_rotation_from_user_index. */
export function turnOrder(shift: GrafanaShift): string[][] {
  const users = shift.users ?? [];
  const groups =
    (shift.type === 'rolling_users' || shift.type === 'override') && shift.rolling_users?.length
      ? shift.rolling_users
      : users.length > 0
        ? [users]
        : [];
  const from = shift.start_rotation_from_user_index ?? 0;
  if (from <= 0 || from >= groups.length) return groups;
  return [...groups.slice(from), ...groups.slice(0, from)];
}

/**
 * shiftLayer maps one recurring shift onto a Baton layer, or says why it cannot. A layer's turns
 * follow the wall clock from the shift's start in the schedule's zone, as Grafana's recurrence
 * rule repeats the shift's local start: a shift lasting its whole period is a plain layer; a
 * shorter one (daily or weekly, every 1) is on duty in a window from its local start for its
 * duration; a daily shift on chosen days (`by_day`) is on duty on those days, which Grafana's
 * turn count (one turn per event) matches only when the skipped days keep the turn order.
 */
export function shiftLayer(
  shift: GrafanaShift,
  scheduleZone: string,
  window?: { from: Date; to: Date },
): ShiftMapping {
  const mapping = mapShift(shift, scheduleZone);
  if ('refusal' in mapping || !window) return mapping;
  const skipped = skippedTimeRefusal(mapping.layer, scheduleZone, window.from, window.to);
  return skipped ? { refusal: skipped } : mapping;
}

function mapShift(shift: GrafanaShift, scheduleZone: string): ShiftMapping {
  const zone = shift.time_zone || scheduleZone;
  if (zone !== scheduleZone) {
    return {
      refusal: `its time zone ${zone} is not the schedule's (${scheduleZone}); a Baton rotation's layers share one zone`,
    };
  }
  const groups = turnOrder(shift);
  if (groups.length === 0) return { refusal: 'it has no users' };
  if (groups.some((g) => g.length !== 1)) {
    return {
      refusal:
        'a turn has more or fewer than one user; Baton puts one person on call per turn of a layer',
    };
  }
  const frequency = shift.frequency;
  if (!frequency) return { refusal: 'it does not repeat' };
  const unit = UNIT[frequency];
  if (unit === undefined) {
    return { refusal: `it repeats ${frequency}; Baton's turns are hours, days or weeks` };
  }
  if ((shift.by_month?.length ?? 0) > 0 || (shift.by_monthday?.length ?? 0) > 0) {
    return { refusal: 'it repeats on chosen months or days of the month' };
  }
  const start = grafanaInstant(shift.start);
  if (Number.isNaN(start.getTime())) return { refusal: `its start ${shift.start} is not a date` };
  if (start.getUTCSeconds() !== 0 || start.getUTCMilliseconds() !== 0) {
    return { refusal: 'it starts at a time that is not a whole minute' };
  }
  if (shift.rotation_start && grafanaInstant(shift.rotation_start).getTime() !== start.getTime()) {
    return {
      refusal: `its rotation restarts on ${shift.rotation_start} (UTC), later than its first shift`,
    };
  }
  if (shift.until) {
    return {
      refusal: `it ends on ${shift.until} (UTC) and a Baton layer does not end`,
    };
  }
  const every = shift.interval ?? 1;
  if (!Number.isInteger(every) || every < 1) return { refusal: `its interval ${every} is invalid` };
  const duration = shift.duration;
  if (!Number.isInteger(duration) || duration <= 0 || duration % 60 !== 0) {
    return { refusal: `its duration of ${duration} s is not a whole number of minutes` };
  }
  const period = unit * every;
  if (duration > period) {
    return { refusal: 'its shifts last longer than the time between them, so they overlap' };
  }
  const local = wallTimeOf(start, zone);
  const handoffTime = hhmm(local.hour, local.minute);
  const byDay = [...new Set(shift.by_day ?? [])];
  const weekdays = byDay.map((d) => ICAL_DAYS.indexOf(d));
  if (weekdays.some((d) => d < 0)) return { refusal: `its days ${byDay.join(', ')} are not valid` };
  const layer = (activeWindows: OnDutyWindow[]): ShiftMapping => ({
    layer: {
      name: shift.name,
      memberSourceIds: groups.map((g) => g[0] as string),
      cadence: frequency as SourceLayer['cadence'],
      cadenceEvery: every,
      handoffTime,
      handoffWeekday: local.weekday,
      activeWindows,
      startsAt: start,
    },
  });

  // Chosen days that change nothing: a weekly shift on its own weekday, a daily one on every day.
  const onlyItsWeekday =
    frequency === 'weekly' && weekdays.length === 1 && weekdays[0] === local.weekday;
  const everyDay = frequency === 'daily' && every === 1 && weekdays.length === 7;
  if (weekdays.length > 0 && !onlyItsWeekday && !everyDay) {
    if (frequency !== 'daily') {
      return { refusal: `it repeats ${frequency} on chosen days (${byDay.join(', ')})` };
    } else {
      if (every !== 1) {
        return { refusal: `it runs every ${every} days on chosen days (${byDay.join(', ')})` };
      }
      if (!weekdays.includes(local.weekday)) {
        return { refusal: `its first shift is on a day it does not run on (${byDay.join(', ')})` };
      }
      if (duration > DAY) return { refusal: 'its shifts on chosen days last more than a day' };
      // Grafana passes the turn on each shift it runs; Baton's daily turns pass each day, run or
      // not. They agree when every skipped stretch keeps the order: the days skipped between two
      // shifts and in a week are multiples of the number of people.
      const n = groups.length;
      let shiftsBefore = 0;
      for (let d = 0; d < 7; d++) {
        const weekday = (local.weekday + d) % 7;
        if (!weekdays.includes(weekday)) continue;
        if ((d - shiftsBefore) % n !== 0) {
          return {
            refusal: `on chosen days (${byDay.join(', ')}) Grafana passes the turn on each shift while Baton passes it each day, and with ${n} people the two orders differ`,
          };
        }
        shiftsBefore += 1;
      }
      if ((7 - weekdays.length) % n !== 0) {
        return {
          refusal: `on chosen days (${byDay.join(', ')}) Grafana passes the turn on each shift while Baton passes it each day, and with ${n} people the two orders differ`,
        };
      }
      return layer([
        { days: weekdays.sort((x, y) => x - y), start: handoffTime, end: endOf(local, duration) },
      ]);
    }
  }
  if (duration === period) return layer([]);
  if (every !== 1 || frequency === 'hourly') {
    return {
      refusal: `its shifts last ${duration / 60} minutes of every ${every} ${frequency === 'hourly' ? 'hours' : frequency === 'daily' ? 'days' : 'weeks'}, which an on-duty window (by the day and week) cannot hold`,
    };
  }
  if (frequency === 'daily') {
    return layer([
      { days: [0, 1, 2, 3, 4, 5, 6], start: handoffTime, end: endOf(local, duration) },
    ]);
  }
  return layer(weeklyWindows(local.weekday, local.hour * 60 + local.minute, duration / 60));
}

/** endOf is the local 'HH:MM' a shift starting at `local` ends after `seconds` (wall clock). */
function endOf(local: { hour: number; minute: number }, seconds: number): string {
  const minutes = (local.hour * 60 + local.minute + seconds / 60) % (24 * 60);
  return hhmm(Math.floor(minutes / 60), minutes % 60);
}

/** weeklyWindows cuts one weekly stretch of `length` minutes from a weekday's minute into days. */
function weeklyWindows(weekday: number, startMinute: number, length: number): OnDutyWindow[] {
  const out: OnDutyWindow[] = [];
  let day = weekday;
  let at = startMinute;
  let left = length;
  while (left > 0) {
    const take = Math.min(left, 24 * 60 - at);
    const end = at + take;
    out.push({
      days: [day],
      start: hhmm(Math.floor(at / 60), at % 60),
      end: end === 24 * 60 ? '00:00' : hhmm(Math.floor(end / 60), end % 60),
    });
    left -= take;
    day = (day + 1) % 7;
    at = 0;
  }
  return out;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;
const wallMinuteAt = (at: number, zone: string) => wallMinuteOf(wallTimeOf(new Date(at), zone));

/** A stretch of wall-clock time a zone's clocks skip (spring forward): wall minutes [start, end). */
interface SkippedStretch {
  start: number;
  end: number;
}

/** skippedStretches lists the wall-clock times a zone skips between two instants. */
export function skippedStretches(zone: string, from: Date, to: Date): SkippedStretch[] {
  const out: SkippedStretch[] = [];
  const hour = 60 * MINUTE_MS;
  const first = Math.floor(from.getTime() / hour) * hour - 24 * hour;
  for (let t = first; t < to.getTime(); t += hour) {
    if (wallMinuteAt(t + hour, zone) - wallMinuteAt(t, zone) <= 60) continue;
    // the change is within this hour: find its minute
    let lo = t;
    let hi = t + hour;
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
      if (wallMinuteAt(mid, zone) - wallMinuteAt(t, zone) === (mid - t) / MINUTE_MS) lo = mid;
      else hi = mid;
    }
    out.push({ start: wallMinuteAt(lo, zone) + 1, end: wallMinuteAt(hi, zone) });
  }
  return out;
}

/**
 * skippedTimeRefusal: a layer whose turns change hands, or whose window opens or closes, at a
 * local time the clocks skip inside the window (02:30 on a spring-forward night) cannot match
 * Grafana there: OnCall reads the skipped time with the offset before the change (03:30), Baton
 * moves it to the first instant after the gap (03:00). A change exactly at the gap's start is
 * the same instant in both.
 */
function skippedTimeRefusal(layer: SourceLayer, zone: string, from: Date, to: Date): string | null {
  const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
  const handoff = minutes(layer.handoffTime);
  const times =
    layer.cadence === 'hourly'
      ? Array.from({ length: 24 }, (_, h) => h * 60 + (handoff % 60))
      : [handoff, ...layer.activeWindows.flatMap((w) => [minutes(w.start), minutes(w.end)])];
  for (const gap of skippedStretches(zone, from, to)) {
    const day = gap.start - (((gap.start % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES);
    for (const time of times) {
      for (const at of [day + time, day + DAY_MINUTES + time]) {
        if (at > gap.start && at < gap.end) {
          const date = new Date(gap.start * MINUTE_MS).toISOString().slice(0, 10);
          const clock = (m: number) => hhmm(Math.floor((m % DAY_MINUTES) / 60), m % 60);
          return `its shifts change at ${clock(at)}, a time the clocks skip on ${date} in ${zone}; Grafana OnCall moves that change to ${clock(at + gap.end - gap.start)}, Baton to ${clock(gap.end)}`;
        }
      }
    }
  }
  return null;
}
