import {
  CADENCE_EVERY_MAX,
  LAYER_MEMBERS_MAX,
  LAYER_WINDOWS_MAX,
  LAYERS_MAX,
} from '../../../shared/contracts/rotations';
import type { Cadence } from '../../../shared/domain/layers';
import { wallTimeOf } from '../../../shared/domain/shifts';
import { isTimeZone } from '../../../shared/domain/time-zones';
import type { Override, Rotation, Schedule, Timeline } from './opsgenie-answers';
import { hhmm, windowsOfRestriction } from './opsgenie-windows';
import { merge, overlay } from './snapshot-rendering';
import type { SourceLayer, SourceNote, SourceSchedule, SourceShift } from './source-snapshot';

/**
 * An Opsgenie schedule as a Baton rotation (issue 34, decision 271). Pure: its rotations as
 * layers in order (or none, a scheduled rotation, when Baton cannot express them exactly), its
 * final timeline as one person at a time, its overrides as cover; every change is a note.
 */

/** What mapping needs besides the source's objects: the window, the people, where notes go. */
export interface MapContext {
  window: { from: Date; to: Date };
  personIds: ReadonlySet<string>;
  note: (level: SourceNote['level'], subject: string, message: string) => void;
}

/** scheduleOf maps one schedule with its overrides and final timeline over the window. */
export function scheduleOf(
  ctx: MapContext,
  schedule: Schedule,
  overrides: Override[],
  timeline: Timeline,
): SourceSchedule {
  const { from } = ctx.window;
  const subject = `Schedule “${schedule.name}”`;
  if (schedule.enabled === false) {
    ctx.note('info', subject, 'It is disabled in Opsgenie; it is imported all the same');
  }
  const rotations = (schedule.rotations ?? []).filter((r) => {
    if (r.endDate && Date.parse(r.endDate) <= from.getTime()) {
      ctx.note('info', `${subject} rotation “${rotationName(r)}”`, 'It has ended: not imported');
      return false;
    }
    return true;
  });
  const rendered = renderedOf(ctx, rotations, timeline, subject);
  return {
    sourceId: schedule.id,
    name: schedule.name,
    description: schedule.description || null,
    timeZone: schedule.timezone,
    layers: layersOf(ctx, schedule, rotations, subject),
    overrides: overridesOf(ctx, overrides, rendered, subject, schedule.timezone),
    rendered,
  };
}

/** The final timeline as one person at a time: where rotations overlap the later one wins. */
function renderedOf(
  ctx: MapContext,
  rotations: Rotation[],
  timeline: Timeline,
  subject: string,
): SourceShift[] {
  const { from, to } = ctx.window;
  const rows = timeline.finalTimeline.rotations ?? [];
  const place = (row: (typeof rows)[number], index: number) => {
    const at = rotations.findIndex((r) => r.id === row.id);
    return at >= 0 ? at : rotations.length + (row.order ?? index);
  };
  const ordered = rows
    .map((row, index) => ({ row, place: place(row, index) }))
    .sort((a, b) => a.place - b.place)
    .map((r) => r.row);
  let rendered: SourceShift[] = [];
  const skipped = new Set<string>();
  ordered.forEach((row, index) => {
    const shifts: SourceShift[] = [];
    for (const p of row.periods ?? []) {
      const start = new Date(Math.max(Date.parse(p.startDate), from.getTime()));
      const end = new Date(Math.min(Date.parse(p.endDate), to.getTime()));
      if (end <= start) continue;
      const who = p.recipient;
      if (who?.type !== 'user' || !who.id) {
        skipped.add(who?.name ?? who?.type ?? 'nobody');
        continue;
      }
      shifts.push({ start, end, personSourceId: who.id });
    }
    if (index > 0) {
      const hours = overlapHours(rendered, shifts);
      if (hours > 0) {
        ctx.note(
          'warning',
          `${subject} rotation “${row.name ?? row.id}”`,
          `It is on call at the same time as an earlier rotation for ${hours} hours in the next 90 days. Opsgenie notifies everyone on call in every rotation; a Baton rotation has one person on call, and the later rotation (this one) is kept, as Baton's later layers win`,
        );
      }
    }
    rendered = overlay(rendered, shifts);
  });
  if (skipped.size > 0) {
    ctx.note(
      'warning',
      subject,
      `Its timeline puts ${[...skipped].join(', ')} on call, which is not a person: those hours have nobody on call in Baton`,
    );
  }
  return merge(rendered);
}

/** The rotations as Baton's layers, or null (scheduled) with a note for each reason. */
function layersOf(ctx: MapContext, schedule: Schedule, rotations: Rotation[], subject: string) {
  const { to } = ctx.window;
  const reasons: string[] = [];
  const layers: SourceLayer[] = [];
  if (!isTimeZone(schedule.timezone)) {
    reasons.push(`its time zone “${schedule.timezone}” is not one Baton knows`);
    return scheduled(ctx, reasons, subject);
  }
  if (rotations.length > LAYERS_MAX) {
    reasons.push(
      `it has ${rotations.length} rotations and a Baton rotation at most ${LAYERS_MAX} layers`,
    );
  }
  for (const rotation of rotations) {
    const name = rotationName(rotation);
    const why = (text: string) => reasons.push(`rotation “${name}” ${text}`);
    const cadence = rotation.type;
    const every = rotation.length ?? 1;
    if (every > CADENCE_EVERY_MAX[cadence]) {
      why(
        `turns last ${every} ${unitOf(cadence)}, longer than a Baton layer's ${CADENCE_EVERY_MAX[cadence]}`,
      );
    }
    if (rotation.endDate && Date.parse(rotation.endDate) < to.getTime()) {
      why(
        `ends on ${day(new Date(rotation.endDate), schedule.timezone)}, inside the 90 days, and a Baton layer cannot end`,
      );
    } else if (rotation.endDate) {
      ctx.note(
        'warning',
        `${subject} rotation “${name}”`,
        `It ends on ${day(new Date(rotation.endDate), schedule.timezone)}, after the 90 days; a Baton layer cannot end, so it goes on: remove the layer then`,
      );
    }
    const members: string[] = [];
    for (const p of rotation.participants) {
      if (p.type === 'user' && p.id && ctx.personIds.has(p.id)) members.push(p.id);
      else if (p.type === 'none')
        why('has a turn with nobody (“none”), and a Baton layer has no empty turn');
      else if (p.type === 'user')
        why(`has a participant who is not among the account's users (${p.username ?? p.id})`);
      else
        why(
          `has a ${p.type} (${p.name ?? p.id}) taking a turn, and a Baton layer's turns are people`,
        );
    }
    if (members.length > LAYER_MEMBERS_MAX) {
      why(`has ${members.length} turns, more than a layer's ${LAYER_MEMBERS_MAX}`);
    }
    const activeWindows = windowsOfRestriction(rotation.timeRestriction ?? null);
    if (activeWindows.length > LAYER_WINDOWS_MAX) {
      why(
        `is restricted to ${activeWindows.length} stretches of the week, more than a layer's ${LAYER_WINDOWS_MAX} on-duty windows`,
      );
    }
    const startsAt = new Date(rotation.startDate);
    const wall = wallTimeOf(startsAt, schedule.timezone);
    layers.push({
      name,
      memberSourceIds: members,
      cadence,
      cadenceEvery: every,
      handoffTime: hhmm(wall.hour, wall.minute),
      handoffWeekday: wall.weekday,
      activeWindows,
      startsAt,
    });
  }
  if (reasons.length === 0) return layers;
  return scheduled(ctx, reasons, subject);
}

function scheduled(ctx: MapContext, reasons: string[], subject: string): null {
  for (const reason of [...new Set(reasons)]) {
    ctx.note(
      'warning',
      subject,
      `Imported as a scheduled rotation of Opsgenie's own timeline for the next 90 days: ${reason}`,
    );
  }
  return null;
}

/**
 * Overrides as cover: each override's hours in the window where the final timeline has its
 * person on call. Opsgenie applies an override to the rotations it names (none named: all of
 * them) and only while they have someone on call; Baton's cover holds its whole span, so it
 * is cut to the hours Opsgenie gives it.
 */
function overridesOf(
  ctx: MapContext,
  overrides: Override[],
  rendered: SourceShift[],
  subject: string,
  timeZone: string,
): SourceShift[] {
  const { from, to } = ctx.window;
  const out: SourceShift[] = [];
  for (const o of overrides) {
    const start = Math.max(Date.parse(o.startDate), from.getTime());
    const end = Math.min(Date.parse(o.endDate), to.getTime());
    if (end <= start) continue;
    const who = o.user.id;
    const label = `${subject} override ${o.alias ?? ''}`.trim();
    if (o.user.type !== 'user' || !who) {
      ctx.note('warning', label, 'It names no person: not imported');
      continue;
    }
    let held = 0;
    for (const s of rendered) {
      if (s.personSourceId !== who) continue;
      const a = Math.max(s.start.getTime(), start);
      const b = Math.min(s.end.getTime(), end);
      if (b <= a) continue;
      out.push({ start: new Date(a), end: new Date(b), personSourceId: who });
      held += b - a;
    }
    if (held < end - start) {
      const only = o.rotations?.length
        ? `applies only to ${o.rotations.map((r) => `“${r.name ?? r.id}”`).join(', ')}`
        : 'applies only while a rotation has someone on call';
      ctx.note(
        'info',
        label,
        `In Opsgenie it ${only}: its cover from ${day(new Date(start), timeZone)} holds those hours only`,
      );
    }
  }
  return merge(out);
}

const day = (d: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(d);

const rotationName = (r: Rotation) => r.name?.trim() || r.id;
const unitOf = (c: Cadence) => (c === 'hourly' ? 'hours' : c === 'daily' ? 'days' : 'weeks');

/** Whole hours (rounded up) where two renderings both have someone, different people. */
function overlapHours(a: readonly SourceShift[], b: readonly SourceShift[]): number {
  let ms = 0;
  for (const x of a) {
    for (const y of b) {
      if (x.personSourceId === y.personSourceId) continue;
      const s = Math.max(x.start.getTime(), y.start.getTime());
      const e = Math.min(x.end.getTime(), y.end.getTime());
      if (e > s) ms += e - s;
    }
  }
  return Math.ceil(ms / 3_600_000);
}
