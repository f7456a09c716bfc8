import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type Cadence, type Layer, type LayeredSegment, layeredSegments, onCallAt } from './layers';
import type { OnDutyWindow } from './on-duty-windows';

/*
 * The projection against a brute force (issue 32, decision 246): random layers near a
 * daylight-saving change, evaluated minute by minute straight from the wall-clock rules. The brute
 * force shares no code with layers.ts or shifts.ts: it reads the zone's wall clock through Intl
 * and counts in wall minutes (a wall time read as if it were UTC). "A wall time happens" at the
 * first minute the clock has shown it or a later one, so it keeps the running maximum of the wall
 * clock: a time skipped by the change happens just after the gap, a repeated one the first time.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY_MINUTES = 24 * 60;
const WEEK_MINUTES = 7 * DAY_MINUTES;
const STEP: Record<Cadence, number> = { hourly: 60, daily: DAY_MINUTES, weekly: WEEK_MINUTES };
const SPAN_MINUTES = 3 * DAY_MINUTES;

/** Daylight-saving changes of 2027 in each zone, as UTC instants. */
const CHANGES: Record<string, string[]> = {
  'Europe/London': ['2027-03-28T01:00:00Z', '2027-10-31T01:00:00Z'],
  'America/New_York': ['2027-03-14T07:00:00Z', '2027-11-07T06:00:00Z'],
  'Australia/Sydney': ['2027-04-03T16:00:00Z', '2027-10-02T16:00:00Z'],
};

const formats = new Map<string, Intl.DateTimeFormat>();
const offsets = new Map<string, number>();

/** offsetAt returns how far a zone's wall clock runs ahead of UTC at an instant, read through Intl. */
function offsetAt(timeZone: string, t: number): number {
  const key = `${timeZone}|${t}`;
  const known = offsets.get(key);
  if (known !== undefined) return known;
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(t));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'));
  offsets.set(key, wall - t);
  return wall - t;
}

/** wallClock returns the wall minute shown in a zone at each minute of [from, to). */
function wallClock(timeZone: string, from: number, to: number): number[] {
  const walls: number[] = [];
  // These zones change offset only on the hour: read it each hour, add the minutes.
  let offset = 0;
  for (let t = from; t < to; t += MINUTE) {
    if (t % HOUR === 0 || t === from) offset = offsetAt(timeZone, t - (t % HOUR));
    walls.push((t + offset) / MINUTE);
  }
  return walls;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
const weekdayOf = (wallMinute: number) => new Date(wallMinute * MINUTE).getUTCDay();
const midnightOf = (wallMinute: number) => wallMinute - (wallMinute % DAY_MINUTES);

/** onDutyAt tells whether a window, opened on some day at its start, has not yet closed at `seen`. */
function onDutyAt(windows: readonly OnDutyWindow[] | null | undefined, seen: number): boolean {
  if (!windows || windows.length === 0) return true;
  const today = midnightOf(seen);
  for (const day of [today - DAY_MINUTES, today]) {
    for (const w of windows) {
      if (!w.days.includes(weekdayOf(day))) continue;
      const open = day + minutesOf(w.start);
      const length = (minutesOf(w.end) - minutesOf(w.start) + DAY_MINUTES) % DAY_MINUTES;
      if (open <= seen && seen < open + (length === 0 ? DAY_MINUTES : length)) return true;
    }
  }
  return false;
}

/** bruteForce returns who is on call over [from, to), minute by minute, merged into segments. */
function bruteForce(layers: readonly Layer[], timeZone: string, from: number, to: number) {
  const walkFrom =
    Math.min(from, ...layers.map((l) => l.startsAt.getTime())) - DAY_MINUTES * MINUTE;
  const walls = wallClock(timeZone, walkFrom, to);
  const seen: number[] = [];
  for (const w of walls) seen.push(Math.max(w, seen.at(-1) ?? w));
  const indexOf = (t: number) => (t - walkFrom) / MINUTE;
  const grids = layers.map((l) => {
    const startWall = walls[indexOf(l.startsAt.getTime())];
    let day = midnightOf(startWall);
    if (l.cadence === 'weekly') day -= ((weekdayOf(day) - l.handoffWeekday + 7) % 7) * DAY_MINUTES;
    const anchor = day + minutesOf(l.handoffTime);
    const step = STEP[l.cadence] * (l.cadenceEvery ?? 1);
    const turnOf = (s: number) => Math.floor((s - anchor) / step);
    return { turnOf, first: turnOf(seen[indexOf(l.startsAt.getTime())]) };
  });
  const runs: { start: number; end: number; memberId: number | null; layerIndex: number | null }[] =
    [];
  for (let t = from; t < to; t += MINUTE) {
    const s = seen[indexOf(t)];
    let memberId: number | null = null;
    let layerIndex: number | null = null;
    for (let i = layers.length - 1; i >= 0 && memberId === null; i--) {
      const l = layers[i];
      if (t < l.startsAt.getTime() || l.memberIds.length === 0 || !onDutyAt(l.activeWindows, s)) {
        continue;
      }
      const turns = grids[i].turnOf(s) - grids[i].first;
      memberId = l.memberIds[turns % l.memberIds.length];
      layerIndex = i;
    }
    const last = runs.at(-1);
    if (last && last.memberId === memberId && last.layerIndex === layerIndex) last.end = t + MINUTE;
    else runs.push({ start: t, end: t + MINUTE, memberId, layerIndex });
  }
  return runs.map(
    (r): LayeredSegment => ({ ...r, start: new Date(r.start), end: new Date(r.end) }),
  );
}

const hhmm = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);

const windowArb: fc.Arbitrary<OnDutyWindow> = fc.record({
  days: fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 }),
  start: hhmm,
  end: hhmm,
});

const cadenceArb = fc.oneof(
  fc.record({
    cadence: fc.constant<Cadence>('hourly'),
    cadenceEvery: fc.integer({ min: 1, max: 36 }),
  }),
  fc.record({
    cadence: fc.constant<Cadence>('daily'),
    cadenceEvery: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({
    cadence: fc.constant<Cadence>('weekly'),
    cadenceEvery: fc.integer({ min: 1, max: 3 }),
  }),
);

/** A layer starting up to four days before `from` or a day after it, on any minute. */
const layerArb = (index: number, from: number) =>
  fc
    .record({
      shape: cadenceArb,
      handoffTime: hhmm,
      handoffWeekday: fc.integer({ min: 0, max: 6 }),
      members: fc.integer({ min: 1, max: 4 }),
      activeWindows: fc.oneof(fc.constant([]), fc.array(windowArb, { minLength: 1, maxLength: 3 })),
      startMinutes: fc.integer({ min: -4 * DAY_MINUTES, max: DAY_MINUTES }),
    })
    .map(
      (l): Layer => ({
        name: `Layer ${index + 1}`,
        ...l.shape,
        handoffTime: l.handoffTime,
        handoffWeekday: l.handoffWeekday,
        memberIds: Array.from({ length: l.members }, (_, m) => 10 * (index + 1) + m),
        activeWindows: l.activeWindows,
        startsAt: new Date(from + l.startMinutes * MINUTE),
      }),
    );

const scenario = fc
  .record({
    zone: fc.constantFrom(...Object.keys(CHANGES)),
    change: fc.integer({ min: 0, max: 1 }),
    // the change falls somewhere in the three days walked
    lead: fc.integer({ min: 180, max: SPAN_MINUTES - 180 }),
    count: fc.integer({ min: 1, max: 3 }),
  })
  .chain(({ zone, change, lead, count }) => {
    const from = Date.parse(CHANGES[zone][change]) - lead * MINUTE;
    return fc.record({
      zone: fc.constant(zone),
      change: fc.constant(Date.parse(CHANGES[zone][change])),
      from: fc.constant(from),
      layers: fc.tuple(...Array.from({ length: count }, (_, i) => layerArb(i, from))),
    });
  });

const shown = (segments: readonly LayeredSegment[]) =>
  segments.map(
    (s) => `${s.start.toISOString()}–${s.end.toISOString()} ${s.memberId}@${s.layerIndex}`,
  );

describe('layeredSegments against a minute-by-minute brute force', () => {
  test('they agree on random layers around the daylight-saving changes of three zones', () => {
    fc.assert(
      fc.property(scenario, ({ zone, change, from, layers }) => {
        const to = from + SPAN_MINUTES * MINUTE;
        const projected = layeredSegments(layers, zone, new Date(from), new Date(to));
        const expected = bruteForce(layers, zone, from, to);
        expect(shown(projected)).toEqual(shown(expected));
        // Segments are read at their starts only; onCallAt also at instants inside the change
        // (a repeated hour's second time round), every seventh minute of the two hours about it.
        for (let t = change - 2 * HOUR; t < change + 2 * HOUR; t += 7 * MINUTE) {
          const at = expected.find((s) => s.start.getTime() <= t && t < s.end.getTime());
          const who =
            at?.memberId == null ? null : { memberId: at.memberId, layerIndex: at.layerIndex };
          expect([new Date(t), onCallAt(layers, zone, new Date(t))]).toEqual([new Date(t), who]);
        }
      }),
      { numRuns: 60 },
    );
  });

  test('the brute force reads the wall clock on its own: a London spring night', () => {
    const from = Date.parse('2027-03-28T00:00:00Z');
    const walls = wallClock('Europe/London', from, from + 3 * 60 * MINUTE);
    const hhmmOf = (w: number) => new Date(w * MINUTE).toISOString().slice(11, 16);
    expect([walls[0], walls[59], walls[60], walls[179]].map(hhmmOf)).toEqual([
      '00:00',
      '00:59',
      '02:00',
      '03:59',
    ]);
  });
});
