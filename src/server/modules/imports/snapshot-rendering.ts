import { type Layer, layeredSegments } from '../../../shared/domain/layers';
import type { SourceSchedule, SourceShift } from './source-snapshot';

/**
 * Pure renderings for an import (issue 34): who a snapshot's schedule puts on call as Baton would
 * render its layers and overrides, and where two renderings differ. Verify compares Baton's
 * rendering of what it imported with the source's own (`SourceSchedule.rendered`); readers' tests
 * compare `renderSchedule` of their snapshot with it, so a mapping that drifts from the source is
 * caught without a database.
 */

/**
 * renderSchedule is who the schedule's layers and overrides put on call over [from, to), as
 * back-to-back shifts of people (nobody: no shift): the layers through Baton's own layer engine,
 * then each override on top. A schedule without layers renders as its `rendered` shifts.
 */
export function renderSchedule(schedule: SourceSchedule, from: Date, to: Date): SourceShift[] {
  if (!schedule.layers) return clip(schedule.rendered, from, to);
  const ids: string[] = [];
  const number = (sourceId: string) => {
    const at = ids.indexOf(sourceId);
    if (at >= 0) return at;
    ids.push(sourceId);
    return ids.length - 1;
  };
  const layers: Layer[] = schedule.layers.map((l) => ({
    name: l.name,
    cadence: l.cadence,
    cadenceEvery: l.cadenceEvery,
    handoffTime: l.handoffTime,
    handoffWeekday: l.handoffWeekday,
    activeWindows: l.activeWindows,
    startsAt: l.startsAt,
    memberIds: l.memberSourceIds.map(number),
  }));
  const base: SourceShift[] = [];
  for (const s of layeredSegments(layers, schedule.timeZone, from, to)) {
    if (s.memberId !== null) {
      base.push({ start: s.start, end: s.end, personSourceId: ids[s.memberId] as string });
    }
  }
  return overlay(base, clip(schedule.overrides, from, to));
}

/** overlay lays `top` over `base`: where a top shift runs, its person is on call. */
export function overlay(base: readonly SourceShift[], top: readonly SourceShift[]): SourceShift[] {
  const out: SourceShift[] = [];
  for (const shift of base) {
    let pieces: SourceShift[] = [shift];
    for (const o of top) {
      pieces = pieces.flatMap((p) => cut(p, o.start, o.end));
    }
    out.push(...pieces);
  }
  out.push(...top);
  return merge(out);
}

function cut(shift: SourceShift, start: Date, end: Date): SourceShift[] {
  if (end <= shift.start || start >= shift.end) return [shift];
  const pieces: SourceShift[] = [];
  if (start > shift.start) pieces.push({ ...shift, end: start });
  if (end < shift.end) pieces.push({ ...shift, start: end });
  return pieces;
}

function clip(shifts: readonly SourceShift[], from: Date, to: Date): SourceShift[] {
  return shifts
    .filter((s) => s.end > from && s.start < to)
    .map((s) => ({
      personSourceId: s.personSourceId,
      start: s.start < from ? from : s.start,
      end: s.end > to ? to : s.end,
    }));
}

/** merge sorts shifts and joins back-to-back ones of the same person. */
export function merge(shifts: readonly SourceShift[]): SourceShift[] {
  const sorted = [...shifts]
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  const out: SourceShift[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && last.personSourceId === s.personSourceId && last.end >= s.start) {
      if (s.end > last.end) last.end = s.end;
    } else out.push({ ...s });
  }
  return out;
}

/** One stretch where two renderings name different people (null: nobody). */
export interface RenderingDifference {
  start: Date;
  end: Date;
  expected: string | null;
  actual: string | null;
}

/**
 * compareRenderings lists every stretch of [from, to) where `expected` (the source's rendering)
 * and `actual` (Baton's) name different people, to the minute: stretches shorter than a minute
 * are ignored, and adjacent stretches with the same pair are one. Where a rendering has two shifts
 * at once, the later-starting one is taken.
 */
export function compareRenderings(
  expected: readonly SourceShift[],
  actual: readonly SourceShift[],
  from: Date,
  to: Date,
): RenderingDifference[] {
  const a = clip(expected, from, to);
  const b = clip(actual, from, to);
  const instants = new Set<number>([from.getTime(), to.getTime()]);
  for (const s of [...a, ...b]) {
    instants.add(s.start.getTime());
    instants.add(s.end.getTime());
  }
  const points = [...instants].sort((x, y) => x - y);
  const whoAt = sweep(a);
  const actualAt = sweep(b);
  const out: RenderingDifference[] = [];
  for (let i = 0; i < points.length - 1; i++) {
    const start = points[i] as number;
    const end = points[i + 1] as number;
    const e = whoAt(start);
    const g = actualAt(start);
    if (e === g) continue;
    const last = out.at(-1);
    if (last && last.end.getTime() === start && last.expected === e && last.actual === g) {
      last.end = new Date(end);
    } else out.push({ start: new Date(start), end: new Date(end), expected: e, actual: g });
  }
  return out.filter((d) => d.end.getTime() - d.start.getTime() >= 60_000);
}

/** sweep answers who a rendering has on call, asked at increasing instants (linear overall). */
function sweep(shifts: readonly SourceShift[]): (at: number) => string | null {
  const sorted = [...shifts].sort((x, y) => x.start.getTime() - y.start.getTime());
  let next = 0;
  let started: SourceShift[] = [];
  return (at) => {
    while (next < sorted.length && (sorted[next] as SourceShift).start.getTime() <= at) {
      started.push(sorted[next] as SourceShift);
      next++;
    }
    started = started.filter((s) => s.end.getTime() > at);
    return started.at(-1)?.personSourceId ?? null;
  };
}
