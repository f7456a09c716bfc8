import type { CalendarShift, CalendarTimeOff } from '@shared/contracts/calendar';
import type { Rotation, RotationLayer } from '@shared/contracts/rotations';
import { describe, expect, test } from 'vitest';
import {
  buildTeamTimeline,
  buildTimeline,
  NOBODY_ON_CALL,
  type TimelineInput,
  type TimelineSegment,
  timelineSpan,
} from './timeline';

const names: Record<number, string> = {
  1: 'Lia London',
  2: 'Leo Lambeth',
  3: 'Lou Leeds',
  4: 'Sam Sydney',
  5: 'Sue Surry',
  6: 'Syd Sands',
  9: 'Omar Outside',
};
const member = (userId: number, order: number) => ({
  id: 100 + userId,
  userId,
  order,
  user: { id: userId, name: names[userId] ?? `User ${userId}`, email: `u${userId}@example.com` },
});

const everyDay = [0, 1, 2, 3, 4, 5, 6];
const layer = (over: Partial<RotationLayer>): RotationLayer => ({
  name: 'Layer 1',
  memberIds: [1, 2, 3],
  cadence: 'weekly',
  cadenceEvery: 1,
  handoffTime: '07:00',
  handoffWeekday: 1,
  activeWindows: [],
  startsAt: '2027-03-01T07:00:00.000Z',
  ...over,
});

/** The follow-the-sun rotation: London 07:00–19:00, Sydney 19:00–07:00, Mondays 07:00. */
const followTheSun: TimelineInput['rotation'] = {
  type: 'fixed',
  layered: true,
  timeZone: 'Europe/London',
  members: [1, 2, 3, 4, 5, 6].map((id, i) => member(id, i)),
  layers: [
    layer({
      name: 'London',
      memberIds: [1, 2, 3],
      activeWindows: [{ days: everyDay, start: '07:00', end: '19:00' }],
    }),
    layer({
      name: 'Sydney',
      memberIds: [4, 5, 6],
      activeWindows: [{ days: everyDay, start: '19:00', end: '07:00' }],
    }),
  ],
};

const shift = (
  userId: number,
  start: string,
  end: string,
  source: CalendarShift['source'] = 'rotation',
  coveredUserId?: number,
): CalendarShift => ({
  userId,
  start: `${start}:00.000Z`,
  end: `${end}:00.000Z`,
  source,
  ...(coveredUserId ? { coveredUserId } : {}),
});

const NOW = new Date('2027-03-03T12:00:00.000Z');

function timelineOf(
  rotation: TimelineInput['rotation'],
  over: Partial<TimelineInput> = {},
  viewerZone = 'Europe/London',
) {
  const span = timelineSpan(NOW, viewerZone);
  return buildTimeline({
    rotation,
    shifts: [],
    timeOff: [],
    people: [],
    ...span,
    now: NOW,
    viewerZone,
    ...over,
  });
}

const who = (segments: TimelineSegment[]) =>
  segments.map((s) => [
    s.name,
    s.start.toISOString().slice(5, 16),
    s.end.toISOString().slice(5, 16),
  ]);

describe('the span', () => {
  test('two weeks from the start of the viewer’s today, midnight to midnight in their zone', () => {
    expect(timelineSpan(NOW, 'Europe/London')).toEqual({
      from: new Date('2027-03-03T00:00:00.000Z'),
      to: new Date('2027-03-17T00:00:00.000Z'),
    });
    // Late evening in London is already tomorrow in Sydney.
    expect(timelineSpan(new Date('2027-03-03T20:00:00Z'), 'Australia/Sydney').from).toEqual(
      new Date('2027-03-03T13:00:00.000Z'),
    );
  });

  test('day ticks fall on the viewer’s midnights, across a change of the clocks too', () => {
    const march = new Date('2027-03-22T12:00:00Z');
    const span = timelineSpan(march, 'Europe/London');
    const timeline = buildTimeline({
      rotation: followTheSun,
      shifts: [],
      timeOff: [],
      people: [],
      ...span,
      now: march,
      viewerZone: 'Europe/London',
    });
    expect(timeline.days).toHaveLength(14);
    expect(timeline.days[0]).toMatchObject({ key: '2027-03-22', label: 'Mon 22', left: 0 });
    // London goes to summer time on 28 March: the day after is an hour shorter, so the 29th's
    // tick sits at (7 × 24 − 1) / (14 × 24 − 1) of the span.
    const ticks = new Map(timeline.days.map((d) => [d.key, d.left]));
    expect(ticks.get('2027-03-29')).toBeCloseTo((167 / 335) * 100, 6);
    expect(timeline.days.at(-1)?.label).toBe('Sun 4');
  });
});

describe('the layer rows', () => {
  test('each layer shows its own turns inside its on-duty windows', () => {
    const [london, sydney] = timelineOf(followTheSun).rows;
    expect(london).toMatchObject({ label: 'London', kind: 'layer' });
    expect(london.segments).toHaveLength(14);
    expect(who(london.segments).slice(0, 2)).toEqual([
      ['Lia London', '03-03T07:00', '03-03T19:00'],
      ['Lia London', '03-04T07:00', '03-04T19:00'],
    ]);
    // Weekly turns hand over on Monday 07:00: Leo's week, then Lou's.
    expect(who(london.segments).slice(5, 7)).toEqual([
      ['Leo Lambeth', '03-08T07:00', '03-08T19:00'],
      ['Leo Lambeth', '03-09T07:00', '03-09T19:00'],
    ]);
    expect(london.segments.at(-1)?.name).toBe('Lou Leeds');

    expect(sydney.label).toBe('Sydney');
    expect(who(sydney.segments).slice(0, 2)).toEqual([
      ['Sam Sydney', '03-03T00:00', '03-03T07:00'],
      ['Sam Sydney', '03-03T19:00', '03-04T07:00'],
    ]);
    // Sunday night's Sydney shift is still Sam's: the turn passes on Monday at 07:00.
    expect(who(sydney.segments).slice(5, 7)).toEqual([
      ['Sam Sydney', '03-07T19:00', '03-08T07:00'],
      ['Sue Surry', '03-08T19:00', '03-09T07:00'],
    ]);
  });

  test('a bar has its place in percent and an accessible name in the viewer’s zone', () => {
    const [london] = timelineOf(followTheSun).rows;
    const [first] = london.segments;
    const span = 14 * 24;
    expect(first.left).toBeCloseTo((7 / span) * 100, 6);
    expect(first.width).toBeCloseTo((12 / span) * 100, 6);
    expect(first.label).toBe('Lia London, Wed, Mar 3, 7:00 AM – Wed, Mar 3, 7:00 PM (now)');
    expect(first.now).toBe(true);
    expect(london.segments[1].label).toBe('Lia London, Thu, Mar 4, 7:00 AM – Thu, Mar 4, 7:00 PM');
    // A viewer in New York reads the same bar in their own zone.
    const [ny] = timelineOf(followTheSun, {}, 'America/New_York').rows;
    expect(ny.segments.find((s) => s.now)?.label).toBe(
      'Lia London, Wed, Mar 3, 2:00 AM – Wed, Mar 3, 2:00 PM (now)',
    );
  });

  test('a layer passes over people who are no longer members', () => {
    const rotation = {
      ...followTheSun,
      members: followTheSun.members.filter((m) => m.userId !== 2),
    };
    const [london] = timelineOf(rotation).rows;
    expect(london.segments[5].name).toBe('Lou Leeds');
  });

  test('a rotation of the specification’s fields: one layer of its turns, cover undone', () => {
    const rotation: TimelineInput['rotation'] = {
      type: 'fixed',
      layered: false,
      timeZone: 'Europe/London',
      members: [member(1, 0), member(2, 1)],
      layers: [
        layer({ name: 'Layer 1', cadence: 'daily', handoffTime: '09:00', memberIds: [1, 2] }),
      ],
    };
    const shifts = [
      shift(1, '2027-03-02T09:00', '2027-03-03T09:00', 'history'),
      shift(2, '2027-03-03T09:00', '2027-03-03T15:00'),
      shift(9, '2027-03-03T15:00', '2027-03-03T18:00', 'coverage', 2),
      shift(2, '2027-03-03T18:00', '2027-03-04T09:00'),
      shift(1, '2027-03-04T09:00', '2027-03-05T09:00'),
    ];
    const { rows } = timelineOf(rotation, { shifts });
    expect(rows.map((r) => r.label)).toEqual(['Layer 1', 'On call']);
    expect(who(rows[0].segments)).toEqual([
      ['Lia London', '03-03T00:00', '03-03T09:00'],
      ['Leo Lambeth', '03-03T09:00', '03-04T09:00'],
      ['Lia London', '03-04T09:00', '03-05T09:00'],
    ]);
  });

  test('a scheduled rotation has no layer rows: its entries are the result', () => {
    const rotation = { ...followTheSun, type: 'scheduled' as const, layered: false };
    expect(timelineOf(rotation).rows.map((r) => r.kind)).toEqual(['result']);
  });
});

describe('the result row', () => {
  test('the calendar’s shifts, cover marked, every gap "Nobody on call", the span covered', () => {
    const shifts = [
      shift(1, '2027-03-02T19:00', '2027-03-03T10:00', 'history'),
      shift(1, '2027-03-03T10:00', '2027-03-03T12:30'),
      shift(9, '2027-03-03T12:30', '2027-03-03T14:00', 'coverage', 1),
      shift(1, '2027-03-03T14:00', '2027-03-03T19:00'),
      shift(4, '2027-03-05T19:00', '2027-03-18T07:00'),
    ];
    const { rows } = timelineOf(followTheSun, {
      shifts,
      people: [{ id: 9, name: 'Omar Outside', email: 'o@example.com' }],
    });
    const result = rows.find((r) => r.kind === 'result');
    expect(result?.label).toBe('On call');
    const segments = result?.segments ?? [];
    expect(segments.map((s) => [s.kind, ...who([s])[0]])).toEqual([
      ['turn', 'Lia London', '03-03T00:00', '03-03T12:30'],
      ['cover', 'Omar Outside', '03-03T12:30', '03-03T14:00'],
      ['turn', 'Lia London', '03-03T14:00', '03-03T19:00'],
      ['nobody', NOBODY_ON_CALL, '03-03T19:00', '03-05T19:00'],
      ['turn', 'Sam Sydney', '03-05T19:00', '03-17T00:00'],
    ]);
    expect(segments[0].label).toBe('Lia London, Wed, Mar 3, 12:00 AM – Wed, Mar 3, 12:30 PM (now)');
    expect(segments[1].label).toBe(
      'Omar Outside covering for Lia London, Wed, Mar 3, 12:30 PM – Wed, Mar 3, 2:00 PM',
    );
    expect(segments[1].coveredName).toBe('Lia London');
    expect(segments.map((s) => s.short)).toEqual(['Lia', 'Omar (cover)', 'Lia', 'Nobody', 'Sam']);
    expect(segments[3].label).toBe('Nobody on call, Wed, Mar 3, 7:00 PM – Fri, Mar 5, 7:00 PM');
    const total = segments.reduce((sum, s) => sum + s.width, 0);
    expect(total).toBeCloseTo(100, 6);
    expect(segments[0].left).toBe(0);
  });

  test('before the calendar answers the result is one "Nobody on call" bar', () => {
    const result = timelineOf(followTheSun).rows.find((r) => r.kind === 'result');
    expect(result?.segments.map((s) => s.kind)).toEqual(['nobody']);
  });

  test('now is marked where it falls, and not outside the span', () => {
    expect(timelineOf(followTheSun).now).toBeCloseTo((12 / (14 * 24)) * 100, 6);
    const later = buildTimeline({
      rotation: followTheSun,
      shifts: [],
      timeOff: [],
      people: [],
      ...timelineSpan(NOW, 'Europe/London'),
      now: new Date('2027-04-01T00:00:00Z'),
      viewerZone: 'Europe/London',
    });
    expect(later.now).toBeNull();
    expect(later.rows.flatMap((r) => r.segments).some((s) => s.now)).toBe(false);
  });
});

describe('time off', () => {
  test('a row for each member away in the span, in member order; others left out', () => {
    const timeOff: CalendarTimeOff[] = [
      { id: 1, userId: 5, start: '2027-03-10T00:00:00.000Z', end: '2027-03-20T00:00:00.000Z' },
      { id: 2, userId: 1, start: '2027-03-01T00:00:00.000Z', end: '2027-03-04T00:00:00.000Z' },
      { id: 3, userId: 77, start: '2027-03-05T00:00:00.000Z', end: '2027-03-06T00:00:00.000Z' },
      { id: 4, userId: 2, start: '2027-04-01T00:00:00.000Z', end: '2027-04-02T00:00:00.000Z' },
    ];
    const rows = timelineOf(followTheSun, { timeOff }).rows.filter((r) => r.kind === 'time-off');
    expect(rows.map((r) => r.label)).toEqual(['Time off: Lia London', 'Time off: Sue Surry']);
    expect(who(rows[0].segments)).toEqual([['Lia London', '03-03T00:00', '03-04T00:00']]);
    expect(rows[0].segments[0]).toMatchObject({ kind: 'away' });
    expect(rows[1].segments[0].label).toBe(
      'Sue Surry away, Wed, Mar 10, 12:00 AM – Wed, Mar 17, 12:00 AM',
    );
  });
});

describe('the rotation answer', () => {
  test('takes a whole Rotation', () => {
    const rotation = { ...followTheSun } as Rotation;
    expect(timelineOf(rotation).rows).toHaveLength(3);
  });
});

describe('a change of the clocks', () => {
  test('a 12-hour turn across it is said to last 11 hours; no change, nothing said', () => {
    const twelve: TimelineInput['rotation'] = {
      type: 'fixed',
      layered: true,
      timeZone: 'America/New_York',
      members: [member(1, 0), member(2, 1)],
      layers: [
        layer({
          name: 'Shifts',
          memberIds: [1, 2],
          cadence: 'hourly',
          cadenceEvery: 12,
          handoffTime: '08:00',
        }),
      ],
    };
    expect(timelineOf(twelve, {}, 'America/New_York').clockChanges).toEqual([
      'The turn from Sat, Mar 13, 8:00 PM lasts 11 hours, not 12: the clocks change.',
    ]);
    expect(timelineOf(followTheSun).clockChanges).toEqual([]);
  });
});

describe('the calendar’s timeline: a row per rotation, then the people away', () => {
  const span = timelineSpan(NOW, 'Europe/London');
  const people = Object.entries(names).map(([id, name]) => ({
    id: Number(id),
    name,
    email: `u${id}@example.com`,
  }));
  const build = (timeOff: CalendarTimeOff[] = []) =>
    buildTeamTimeline({
      rotations: [
        {
          id: 10,
          name: 'Payments',
          shifts: [
            shift(1, '2027-03-03T09:00', '2027-03-04T09:00'),
            shift(4, '2027-03-04T09:00', '2027-03-05T09:00', 'coverage', 2),
          ],
        },
        { id: 11, name: 'Search', shifts: [] },
      ],
      timeOff,
      people,
      from: span.from,
      to: span.to,
      now: NOW,
      viewerZone: 'Europe/London',
    });

  test('each rotation is one row of who is on call, cover hatched, the rest nobody', () => {
    const timeline = build();
    expect(timeline.rows.map((r) => [r.key, r.label, r.kind])).toEqual([
      ['rotation-10', 'Payments', 'result'],
      ['rotation-11', 'Search', 'result'],
    ]);
    const [payments, search] = timeline.rows;
    expect(payments.segments.map((s) => [s.kind, s.name])).toEqual([
      ['nobody', NOBODY_ON_CALL],
      ['turn', 'Lia London'],
      ['cover', 'Sam Sydney'],
      ['nobody', NOBODY_ON_CALL],
    ]);
    expect(payments.segments[1].now).toBe(true);
    expect(payments.segments[2].label).toMatch(/^Sam Sydney covering for Leo Lambeth, /);
    expect(search.segments.map((s) => s.kind)).toEqual(['nobody']);
    expect(timeline.days).toHaveLength(14);
    expect(timeline.now).not.toBeNull();
  });

  test('a row per person away in the span, by name; time off outside it is left out', () => {
    const timeline = build([
      { id: 1, userId: 4, start: '2027-03-08T00:00:00.000Z', end: '2027-03-10T00:00:00.000Z' },
      { id: 2, userId: 1, start: '2027-03-05T00:00:00.000Z', end: '2027-03-06T00:00:00.000Z' },
      { id: 3, userId: 2, start: '2027-05-01T00:00:00.000Z', end: '2027-05-02T00:00:00.000Z' },
    ]);
    expect(timeline.rows.slice(2).map((r) => r.label)).toEqual([
      'Time off: Lia London',
      'Time off: Sam Sydney',
    ]);
    expect(timeline.rows[3].segments[0].label).toMatch(/^Sam Sydney away, /);
  });
});
