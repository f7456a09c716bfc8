import { z } from 'zod';
import {
  CADENCE_EVERY_MAX,
  LAYER_WINDOWS_MAX,
  LAYERS_MAX,
} from '../../../shared/contracts/rotations';
import type { Cadence } from '../../../shared/domain/layers';
import type { OnDutyWindow } from '../../../shared/domain/on-duty-windows';
import { instantOfWallMinute, wallMinuteOf, wallTimeOf } from '../../../shared/domain/shifts';
import { isTimeZone } from '../../../shared/domain/time-zones';
import { merge } from './snapshot-rendering';
import type { SourceLayer, SourceNote, SourceSchedule, SourceShift } from './source-snapshot';

/**
 * PagerDuty's schedules in Baton's terms (decision 270), for the PagerDuty reader: a schedule as
 * GET /schedules/{id} answers it over the import window becomes a snapshot schedule, its layers
 * Baton layers when every one can be expressed exactly, otherwise PagerDuty's own final schedule
 * (a scheduled rotation) with a warning saying why. Pure: the window comes in.
 */

const MINUTES_PER: Record<Cadence, number> = { hourly: 60, daily: 1440, weekly: 10_080 };
const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];

const Reference = z.object({ id: z.string() });

const Restriction = z.object({
  type: z.enum(['daily_restriction', 'weekly_restriction']),
  start_time_of_day: z.string().regex(/^\d{2}:\d{2}(:\d{2})?$/),
  duration_seconds: z.number().int(),
  start_day_of_week: z.number().int().min(1).max(7).nullish(),
});
type Restriction = z.infer<typeof Restriction>;

export const instant = z
  .string()
  .refine((s) => !Number.isNaN(Date.parse(s)), 'not a date and time');

const ScheduleLayer = z.object({
  id: z.string().nullish(),
  name: z.string().nullish(),
  start: instant,
  end: instant.nullish(),
  rotation_virtual_start: instant,
  rotation_turn_length_seconds: z.number().int().positive(),
  users: z.array(z.object({ user: Reference })),
  restrictions: z.array(Restriction).nullish(),
});
type ScheduleLayer = z.infer<typeof ScheduleLayer>;

const Entry = z.object({ start: instant, end: instant, user: Reference.nullish() });

/** GET /schedules/{id}'s answer, as much of it as the import reads. */
export const Schedule = z.object({
  schedule: z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullish(),
    time_zone: z.string(),
    schedule_layers: z.array(ScheduleLayer),
    final_schedule: z.object({ rendered_schedule_entries: z.array(Entry).nullish() }),
  }),
});
export type Schedule = z.infer<typeof Schedule>['schedule'];

/** A layer Baton cannot keep as layers: why, in a sentence. */
class Inexpressible extends Error {}

/**
 * scheduleOf maps one PagerDuty schedule (as GET /schedules/{id} answers it over the window) and
 * its overrides onto a snapshot schedule: its layers when Baton can express every one exactly,
 * otherwise none (a scheduled rotation of `rendered`), with notes saying what and why.
 */
export function scheduleOf(
  pd: Schedule,
  overrides: readonly SourceShift[],
  window: { from: Date; to: Date },
): { schedule: SourceSchedule; notes: SourceNote[] } {
  const notes: SourceNote[] = [];
  const subject = `Schedule “${pd.name}”`;
  // Both asked with overflow=true: entries and overrides across the window's edges come whole.
  const within = (shifts: readonly SourceShift[]) =>
    shifts
      .filter((o) => o.end > window.from && o.start < window.to)
      .map((o) => ({
        personSourceId: o.personSourceId,
        start: new Date(Math.max(o.start.getTime(), window.from.getTime())),
        end: new Date(Math.min(o.end.getTime(), window.to.getTime())),
      }));
  const rendered = merge(
    within(
      (pd.final_schedule.rendered_schedule_entries ?? []).flatMap((e) =>
        e.user
          ? [{ start: new Date(e.start), end: new Date(e.end), personSourceId: e.user.id }]
          : [],
      ),
    ),
  );
  const clipped = within(overrides);
  const scheduled = (
    zone: string,
    why: string,
  ): { schedule: SourceSchedule; notes: SourceNote[] } => {
    notes.push({
      level: 'warning',
      subject,
      message: `${why}. It becomes a scheduled rotation of PagerDuty's own shifts from ${window.from.toISOString().slice(0, 10)} to ${window.to.toISOString().slice(0, 10)}: add later shifts in Baton before then`,
    });
    return {
      schedule: {
        sourceId: pd.id,
        name: pd.name,
        description: pd.description ?? null,
        timeZone: zone,
        layers: null,
        overrides: clipped,
        rendered,
      },
      notes,
    };
  };
  if (!isTimeZone(pd.time_zone)) {
    return scheduled('UTC', `Its time zone “${pd.time_zone}” is not an IANA time zone Baton knows`);
  }
  // GET answers list the layers highest first (the reverse of the order they were made in, and
  // of Baton's, where the last listed wins): PagerDuty/public-support-scripts says so.
  const pdLayers = [...pd.schedule_layers].reverse();
  const layers: SourceLayer[] = [];
  try {
    pdLayers.forEach((l, i) => {
      const layer = layerOf(l, i, pd, window, notes);
      if (layer) layers.push(layer);
    });
  } catch (err) {
    if (err instanceof Inexpressible) return scheduled(pd.time_zone, err.message);
    throw err;
  }
  if (layers.length === 0) return scheduled(pd.time_zone, 'It has no layer on call in the window');
  if (layers.length > LAYERS_MAX) {
    return scheduled(
      pd.time_zone,
      `It has ${layers.length} layers and Baton keeps at most ${LAYERS_MAX}`,
    );
  }
  return {
    schedule: {
      sourceId: pd.id,
      name: pd.name,
      description: pd.description ?? null,
      timeZone: pd.time_zone,
      layers,
      overrides: clipped,
      rendered,
    },
    notes,
  };
}

/** A layer's turn length as Baton's cadence × N, or why it cannot be one. */
function cadenceOf(seconds: number): { cadence: Cadence; every: number } | string {
  for (const cadence of ['weekly', 'daily', 'hourly'] as const) {
    const unit = MINUTES_PER[cadence] * 60;
    if (seconds % unit === 0 && seconds / unit <= CADENCE_EVERY_MAX[cadence]) {
      return { cadence, every: seconds / unit };
    }
  }
  return seconds % 3600 === 0
    ? `turns of ${seconds / 3600} hours, longer than Baton's longest (${CADENCE_EVERY_MAX.hourly} hours, or whole days up to a year)`
    : `turns of ${seconds} seconds, not a whole number of hours as Baton's turns are`;
}

const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60) % 24).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

function layerOf(
  l: ScheduleLayer,
  index: number,
  pd: Schedule,
  window: { from: Date; to: Date },
  notes: SourceNote[],
): SourceLayer | null {
  const zone = pd.time_zone;
  const name = l.name?.trim() || `Layer ${index + 1}`;
  const subject = `Schedule “${pd.name}” layer “${name}”`;
  const fail = (why: string): never => {
    throw new Inexpressible(`Its layer “${name}” has ${why}`);
  };
  const end = l.end ? new Date(l.end) : null;
  if (end && end <= window.from) {
    notes.push({
      level: 'info',
      subject,
      message: 'It ended before the import window: not imported',
    });
    return null;
  }
  if (end && end < window.to) {
    throw new Inexpressible(
      `Its layer “${name}” ends on ${end.toISOString()}, inside the import window, and a Baton layer does not end`,
    );
  }
  if (end) {
    notes.push({
      level: 'warning',
      subject,
      message: `It ends on ${end.toISOString()} in PagerDuty; the Baton layer goes on: remove it by then`,
    });
  }
  const members = l.users.map((u) => u.user.id);
  if (members.length === 0) {
    notes.push({ level: 'info', subject, message: 'It has no users: not imported' });
    return null;
  }

  const shift = cadenceOf(l.rotation_turn_length_seconds);
  if (typeof shift === 'string') return fail(shift);
  const step = MINUTES_PER[shift.cadence] * shift.every;
  const virtualStart = new Date(l.rotation_virtual_start);
  if (virtualStart.getTime() % 60_000 !== 0) {
    fail(`its turns handing over at ${l.rotation_virtual_start}, not on a whole minute`);
  }
  const activeWindows = windowsOf(l.restrictions ?? [], fail);

  // Turns follow the schedule's wall clock from the virtual start: turn k begins at its wall
  // minute + k × step (decision 270: PagerDuty keeps a schedule's local times across DST).
  const origin = wallMinuteOf(wallTimeOf(virtualStart, zone));
  const boundary = (k: number) => instantOfWallMinute(origin + k * step, zone);
  const turnAt = (at: Date) => {
    let k = Math.floor((wallMinuteOf(wallTimeOf(at, zone)) - origin) / step);
    while (boundary(k + 1).getTime() <= at.getTime()) k++;
    while (boundary(k).getTime() > at.getTime()) k--;
    return k;
  };
  // Baton's layer starts at the layer's start if it is inside the window; otherwise at the turn
  // that holds the window's start (the layer's earlier past does not matter to Baton).
  const layerStart = new Date(l.start);
  const startsInWindow = layerStart > window.from;
  const startTurn = turnAt(startsInWindow ? layerStart : window.from);
  const startsAt = startsInWindow ? layerStart : boundary(startTurn);

  // Baton counts turns from the handoff time on the start's local date (weekly: on the handoff
  // weekday of its week): that must be one of PagerDuty's boundaries.
  const start = wallTimeOf(startsAt, zone);
  let day = wallMinuteOf({ ...start, hour: 0, minute: 0 });
  const virtual = wallTimeOf(virtualStart, zone);
  let handoff = virtual.hour * 60 + virtual.minute;
  const handoffWeekday = shift.cadence === 'weekly' ? virtual.weekday : 0;
  if (shift.cadence === 'weekly') day -= ((start.weekday - handoffWeekday + 7) % 7) * 1440;
  if (shift.cadence === 'hourly') {
    // the first boundary on that date; an hourly turn has boundaries at several times of day
    handoff = (((origin - day) % step) + step) % step;
    if (handoff >= 1440)
      fail(
        `${shift.every}-hour turns with no handover on ${startsAt.toISOString().slice(0, 10)}, the day Baton counts them from`,
      );
  }
  if ((((day + handoff - origin) % step) + step) % step !== 0) {
    fail(
      `${shift.every}-${shift.cadence === 'weekly' ? 'week' : 'day'} turns that begin on ${layerStart.toISOString()} off their own turn grid, which Baton cannot count from`,
    );
  }
  const first = ((startTurn % members.length) + members.length) % members.length;
  return {
    name: name.slice(0, 100),
    memberSourceIds: [...members.slice(first), ...members.slice(0, first)],
    cadence: shift.cadence,
    cadenceEvery: shift.every,
    handoffTime: hhmm(handoff),
    handoffWeekday,
    activeWindows,
    startsAt,
  };
}

/**
 * windowsOf turns a layer's restrictions into Baton's on-duty windows: a daily restriction is a
 * window every day, a weekly one a window on its day (ISO 1 = Monday … 7 = Sunday; Baton's 0 is
 * Sunday), one longer than a day split into a window a day; windows with the same hours are one.
 */
function windowsOf(
  restrictions: readonly Restriction[],
  fail: (why: string) => never,
): OnDutyWindow[] {
  const pieces: { day: number; start: number; end: number }[] = [];
  let always = false;
  for (const r of restrictions) {
    const [h = 0, m = 0, s = 0] = r.start_time_of_day.split(':').map(Number);
    if (s !== 0 || r.duration_seconds % 60 !== 0 || r.duration_seconds <= 0) {
      fail(
        `a restriction from ${r.start_time_of_day} for ${r.duration_seconds} seconds, not whole minutes`,
      );
    }
    const start = h * 60 + m;
    const minutes = r.duration_seconds / 60;
    if (r.type === 'daily_restriction') {
      if (minutes >= 1440) always = true;
      else for (const day of ALL_DAYS) pieces.push({ day, start, end: (start + minutes) % 1440 });
      continue;
    }
    if (minutes >= 7 * 1440) {
      always = true;
      continue;
    }
    let day = (r.start_day_of_week ?? 1) % 7;
    for (let left = minutes; left > 0; left -= 1440, day = (day + 1) % 7) {
      pieces.push({ day, start, end: (start + Math.min(left, 1440)) % 1440 });
    }
  }
  if (always) return [];
  const byHours = new Map<string, Set<number>>();
  for (const p of pieces) {
    const key = `${hhmm(p.start)}-${hhmm(p.end)}`;
    byHours.set(key, (byHours.get(key) ?? new Set()).add(p.day));
  }
  const windows = [...byHours].map(([key, days]) => {
    const [start = '', end = ''] = key.split('-');
    return { days: [...days].sort((a, b) => a - b), start, end };
  });
  if (windows.length > LAYER_WINDOWS_MAX) {
    fail(
      `restrictions that need ${windows.length} on-duty windows, and a Baton layer has at most ${LAYER_WINDOWS_MAX}`,
    );
  }
  return windows;
}
