import type { CalendarRotation, CalendarShift, CalendarTimeOff } from '@shared/contracts/calendar';
import type { Person, Rotation } from '@shared/contracts/rotations';
import { dayBounds, dayKeyOf } from '@shared/domain/calendar';
import { layeredSegments, turnsAcrossClockChanges } from '@shared/domain/layers';
import { projectionLayersOf } from '@shared/domain/rotation-layers';
import { formatWeekdayDateTime, formatWeekdayDay } from '@/lib/format-time';

/*
 * The timelines of who is on call when: the rotation page's two weeks (decision 249) and the
 * calendar's, a row per rotation (decision 257). The rotation page's, as rows of bars: one row per layer (its
 * own turns inside its on-duty windows, from the shared projection of layers.ts), one for the
 * result (who is actually on call: the calendar read's shifts, cover included, gaps named
 * "Nobody on call") and one for each member's time off in the span. Pure: the instants, the zones and the
 * calendar's answer come in; each bar carries its place in percent and its accessible name.
 */

/** How many days the timeline shows, from the start of the viewer's today. */
export const TIMELINE_DAYS = 14;
export const NOBODY_ON_CALL = 'Nobody on call';
/** The result row's name. */
export const RESULT_ROW_LABEL = 'On call';
export const TIME_OFF_ROW_LABEL = 'Time off';

/** turn: a layer's or the result's holder; cover: someone covering; nobody: a gap; away: time off. */
export type SegmentKind = 'turn' | 'cover' | 'nobody' | 'away';

export interface TimelineSegment {
  start: Date;
  end: Date;
  userId: number | null;
  /** the person's name, or 'Nobody on call' */
  name: string;
  /** what the bar says where it is narrow: a first name ('Lia', 'Lia (cover)'), or 'Nobody' */
  short: string;
  kind: SegmentKind;
  /** cover ahead: the name of whose shift it covers, when the calendar says */
  coveredName: string | null;
  /** the bar's place and length, in percent of the span */
  left: number;
  width: number;
  /** the bar's accessible name: who, and from when to when in the viewer's zone; '(now)' under now */
  label: string;
  /** now falls in this bar */
  now: boolean;
}

export interface TimelineRow {
  key: string;
  label: string;
  kind: 'layer' | 'result' | 'time-off';
  segments: TimelineSegment[];
}

export interface DayTick {
  key: string;
  /** 'Mon 1' in the viewer's zone */
  label: string;
  /** where the day starts, in percent of the span */
  left: number;
}

export interface Timeline {
  from: Date;
  to: Date;
  /** where now falls, in percent of the span; null outside it */
  now: number | null;
  days: DayTick[];
  rows: TimelineRow[];
  /**
   * the turns in the span a change of the clocks makes longer or shorter, in words: "London’s
   * turn from Sun, Mar 28, 7:00 AM lasts 167 hours, not 168: the clocks change." (issue 32)
   */
  clockChanges: string[];
}

export interface TimelineInput {
  rotation: Pick<Rotation, 'type' | 'layered' | 'layers' | 'timeZone' | 'members'>;
  /** the calendar read's shifts of this rotation over the span */
  shifts: readonly CalendarShift[];
  /** the calendar read's time off (any member of any rotation: this rotation's are kept) */
  timeOff: readonly CalendarTimeOff[];
  /** the calendar read's people, for names the members list lacks (a cover from outside) */
  people: readonly Person[];
  from: Date;
  to: Date;
  now: Date;
  /** the zone the viewer reads times in (day ticks and labels) */
  viewerZone: string;
}

const DAY = 86_400_000;

/**
 * timelineSpan returns the span the timeline shows: from the start of the viewer's today to the
 * start of the day `days` later, midnight to midnight in the viewer's zone.
 */
export function timelineSpan(
  now: Date,
  viewerZone: string,
  days = TIMELINE_DAYS,
): { from: Date; to: Date } {
  const [year, month, day] = dayKeyOf(now, viewerZone).split('-').map(Number);
  const later = new Date(Date.UTC(year, month - 1, day) + days * DAY);
  return {
    from: dayBounds({ year, month, day }, viewerZone).start,
    to: dayBounds(
      { year: later.getUTCFullYear(), month: later.getUTCMonth() + 1, day: later.getUTCDate() },
      viewerZone,
    ).start,
  };
}

interface Stretch {
  start: Date;
  end: Date;
  userId: number | null;
  kind: SegmentKind;
  coveredUserId?: number | null;
}

/** clip returns the stretches cut to [from, to), those outside it left out, oldest first. */
function clip(stretches: readonly Stretch[], from: Date, to: Date): Stretch[] {
  return stretches
    .filter((s) => s.end.getTime() > from.getTime() && s.start.getTime() < to.getTime())
    .map((s) => ({
      ...s,
      start: new Date(Math.max(s.start.getTime(), from.getTime())),
      end: new Date(Math.min(s.end.getTime(), to.getTime())),
    }))
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}

/** withGaps returns the stretches with every hole in [from, to) filled by a nobody stretch. */
function withGaps(stretches: readonly Stretch[], from: Date, to: Date): Stretch[] {
  const out: Stretch[] = [];
  let at = from.getTime();
  for (const s of stretches) {
    if (s.start.getTime() > at) {
      out.push({ start: new Date(at), end: s.start, userId: null, kind: 'nobody' });
    }
    out.push(s);
    at = Math.max(at, s.end.getTime());
  }
  if (at < to.getTime()) out.push({ start: new Date(at), end: to, userId: null, kind: 'nobody' });
  return out;
}

/** mergeTurns joins back-to-back turns of the same person (a cover stays apart). */
function mergeTurns(stretches: readonly Stretch[]): Stretch[] {
  const out: Stretch[] = [];
  for (const s of stretches) {
    const last = out.at(-1);
    if (
      last &&
      last.kind === s.kind &&
      last.userId === s.userId &&
      last.end.getTime() === s.start.getTime()
    ) {
      last.end = s.end;
    } else out.push({ ...s });
  }
  return out;
}

/**
 * layerRows returns one row per layer. A layered rotation's come from its layers (each projected
 * alone, its turn order kept to the members); a rotation of the specification's fields passes its
 * baton from the holder, so its one layer's turns are the calendar's projection with cover
 * undone (a cover ahead shows whose turn it is); a scheduled rotation's entries are its result.
 */
function layerRows(input: TimelineInput): { key: string; label: string; stretches: Stretch[] }[] {
  const { rotation, from, to } = input;
  if (rotation.type === 'scheduled') return [];
  if (rotation.layered) {
    const members = new Set(rotation.members.map((m) => m.userId));
    return projectionLayersOf(rotation, members).map((layer, i) => ({
      key: `layer-${i}`,
      label: layer.name,
      stretches: layeredSegments([layer], rotation.timeZone, from, to).flatMap((s) =>
        s.memberId === null
          ? []
          : [{ start: s.start, end: s.end, userId: s.memberId, kind: 'turn' as const }],
      ),
    }));
  }
  const turns = input.shifts.flatMap((s): Stretch[] => {
    const userId = s.source === 'coverage' ? s.coveredUserId : s.userId;
    if (userId === undefined) return [];
    return [{ start: new Date(s.start), end: new Date(s.end), userId, kind: 'turn' }];
  });
  return [
    {
      key: 'layer-0',
      label: rotation.layers[0]?.name ?? 'Layer 1',
      stretches: mergeTurns(clip(turns, from, to)),
    },
  ];
}

/** What draws stretches on a timeline: the span, now, the viewer's zone and the names known. */
interface Frame {
  from: Date;
  to: Date;
  now: Date;
  viewerZone: string;
  names: ReadonlyMap<number, string>;
}

/** painter returns the function turning a stretch into a bar of the frame. */
function painter({ from, to, now, viewerZone, names }: Frame) {
  const span = to.getTime() - from.getTime();
  const percent = (at: Date) => ((at.getTime() - from.getTime()) / span) * 100;
  const nameOf = (id: number | null | undefined) =>
    id === null || id === undefined ? null : (names.get(id) ?? 'A former member');
  const when = (s: Stretch) =>
    `${formatWeekdayDateTime(s.start, viewerZone)} – ${formatWeekdayDateTime(s.end, viewerZone)}`;
  const holdsNow = (s: Stretch) =>
    s.start.getTime() <= now.getTime() && now.getTime() < s.end.getTime();
  return (s: Stretch): TimelineSegment => {
    const name = nameOf(s.userId) ?? NOBODY_ON_CALL;
    const coveredName = s.kind === 'cover' ? nameOf(s.coveredUserId) : null;
    const who =
      s.kind === 'cover'
        ? `${name} covering${coveredName ? ` for ${coveredName}` : ''}`
        : s.kind === 'away'
          ? `${name} away`
          : name;
    const first = s.userId === null ? 'Nobody' : (name.split(/\s+/)[0] ?? name);
    return {
      start: s.start,
      end: s.end,
      userId: s.userId,
      name,
      short: s.kind === 'cover' ? `${first} (cover)` : s.kind === 'away' ? '' : first,
      kind: s.kind,
      coveredName,
      left: percent(s.start),
      width: percent(s.end) - percent(s.start),
      label: `${who}, ${when(s)}${holdsNow(s) ? ' (now)' : ''}`,
      now: holdsNow(s),
    };
  };
}

/** onCallRow is who is actually on call over the span: shifts, cover hatched, gaps as nobody. */
function onCallRow(
  shifts: readonly CalendarShift[],
  frame: Frame,
  paint: (s: Stretch) => TimelineSegment,
): TimelineSegment[] {
  const onCall = shifts.map(
    (s): Stretch => ({
      start: new Date(s.start),
      end: new Date(s.end),
      userId: s.userId,
      kind: s.source === 'coverage' ? 'cover' : 'turn',
      coveredUserId: s.coveredUserId ?? null,
    }),
  );
  return withGaps(mergeTurns(clip(onCall, frame.from, frame.to)), frame.from, frame.to).map(paint);
}

/** timeOffRows: one row per person away in the span, in the order given. */
function timeOffRows(
  people: readonly { userId: number; name: string }[],
  timeOff: readonly CalendarTimeOff[],
  frame: Frame,
  paint: (s: Stretch) => TimelineSegment,
): TimelineRow[] {
  const rows: TimelineRow[] = [];
  for (const person of people) {
    const away = timeOff
      .filter((t) => t.userId === person.userId)
      .map(
        (t): Stretch => ({
          start: new Date(t.start),
          end: new Date(t.end),
          userId: t.userId,
          kind: 'away',
        }),
      );
    const shown = clip(away, frame.from, frame.to);
    if (shown.length === 0) continue;
    rows.push({
      key: `time-off-${person.userId}`,
      label: `${TIME_OFF_ROW_LABEL}: ${person.name}`,
      kind: 'time-off',
      segments: shown.map(paint),
    });
  }
  return rows;
}

/** daysAndNow returns the frame's day ticks and where now falls (null outside the span). */
function daysAndNow({ from, to, now, viewerZone }: Frame): Pick<Timeline, 'days' | 'now'> {
  const span = to.getTime() - from.getTime();
  const percent = (at: Date) => ((at.getTime() - from.getTime()) / span) * 100;
  const days: DayTick[] = [];
  for (let t = from.getTime(); t < to.getTime(); ) {
    const start = new Date(t);
    days.push({
      key: dayKeyOf(start, viewerZone),
      label: formatWeekdayDay(start, viewerZone),
      left: percent(start),
    });
    t = timelineSpan(start, viewerZone, 1).to.getTime();
  }
  const nowAt = now.getTime() >= from.getTime() && now.getTime() < to.getTime();
  return { days, now: nowAt ? percent(now) : null };
}

/** buildTimeline returns the timeline's rows, day ticks and now over [from, to). */
export function buildTimeline(input: TimelineInput): Timeline {
  const { rotation, from, to, now, viewerZone } = input;
  const names = new Map<number, string>(input.people.map((p) => [p.id, p.name]));
  for (const m of rotation.members) names.set(m.userId, m.user.name);
  const frame: Frame = { from, to, now, viewerZone, names };
  const paint = painter(frame);

  const rows: TimelineRow[] = layerRows(input).map((row) => ({
    key: row.key,
    label: row.label,
    kind: 'layer',
    segments: row.stretches.map(paint),
  }));
  rows.push({
    key: 'result',
    label: RESULT_ROW_LABEL,
    kind: 'result',
    segments: onCallRow(input.shifts, frame, paint),
  });
  // One row per member away in the span (their stretches may overlap another's), in member order.
  rows.push(
    ...timeOffRows(
      rotation.members.map((m) => ({ userId: m.userId, name: m.user.name })),
      input.timeOff,
      frame,
      paint,
    ),
  );
  return { from, to, ...daysAndNow(frame), rows, clockChanges: clockChangesOf(input) };
}

export interface TeamTimelineInput {
  /** the calendar read's rotations over the span, in the order to show them */
  rotations: readonly Pick<CalendarRotation, 'id' | 'name' | 'shifts'>[];
  /** the calendar read's time off: a row for each person away in the span */
  timeOff: readonly CalendarTimeOff[];
  people: readonly Person[];
  from: Date;
  to: Date;
  now: Date;
  viewerZone: string;
}

/**
 * buildTeamTimeline returns the calendar's timeline (issue 35): one row per rotation, who is on
 * call in it over the span (cover hatched, nobody named), then one per person away, by name.
 */
export function buildTeamTimeline(input: TeamTimelineInput): Timeline {
  const { from, to, now, viewerZone } = input;
  const names = new Map<number, string>(input.people.map((p) => [p.id, p.name]));
  const frame: Frame = { from, to, now, viewerZone, names };
  const paint = painter(frame);
  const rows: TimelineRow[] = input.rotations.map((rotation) => ({
    key: `rotation-${rotation.id}`,
    label: rotation.name,
    kind: 'result',
    segments: onCallRow(rotation.shifts, frame, paint),
  }));
  const away = [...new Set(input.timeOff.map((t) => t.userId))]
    .map((userId) => ({ userId, name: names.get(userId) ?? 'A former member' }))
    .sort((a, b) => a.name.localeCompare(b.name));
  rows.push(...timeOffRows(away, input.timeOff, frame, paint));
  return { from, to, ...daysAndNow(frame), rows, clockChanges: [] };
}

/** clockChangesOf says which of a fixed rotation's turns in the span the clocks lengthen or shorten. */
function clockChangesOf({ rotation, from, to, viewerZone }: TimelineInput): string[] {
  if (rotation.type !== 'fixed') return [];
  const layers = rotation.layers.map((l) => ({ ...l, startsAt: new Date(l.startsAt) }));
  return turnsAcrossClockChanges(layers, rotation.timeZone, from, to).map((turn) => {
    const whose = layers.length > 1 ? `${layers[turn.layerIndex].name}’s turn` : 'The turn';
    return `${whose} from ${formatWeekdayDateTime(turn.start, viewerZone)} lasts ${turn.hours} hours, not ${turn.nominalHours}: the clocks change.`;
  });
}
