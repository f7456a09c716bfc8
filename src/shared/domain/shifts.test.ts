import { tzOffset } from '@date-fns/tz';
import { describe, expect, test } from 'vitest';
import {
  handoffsBetween,
  instantOfWallMinute,
  instantOfWallTime,
  nextHandoffAt,
  nextScheduleTransition,
  previousHandoffAt,
  type ShiftPattern,
  scheduledShifts,
  scheduleTransitions,
  upcomingShifts,
  wallMinuteOf,
  wallTimeOf,
  windowAt,
  zoneOffset,
} from './shifts';

const weekly = (timeZone: string, handoffTime = '09:00', handoffWeekday = 1): ShiftPattern => ({
  cadence: 'weekly',
  timeZone,
  handoffTime,
  handoffWeekday,
});
const daily = (timeZone: string, handoffTime = '09:00'): ShiftPattern => ({
  cadence: 'daily',
  timeZone,
  handoffTime,
  handoffWeekday: 1,
});

describe('nextHandoffAt', () => {
  test.each([
    ['daily UTC before the time', daily('UTC'), '2026-01-05T08:00:00Z', '2026-01-05T09:00:00.000Z'],
    [
      'daily UTC at the time moves on',
      daily('UTC'),
      '2026-01-05T09:00:00Z',
      '2026-01-06T09:00:00.000Z',
    ],
    [
      'weekly Monday from Wednesday',
      weekly('UTC'),
      '2026-01-07T10:00:00Z',
      '2026-01-12T09:00:00.000Z',
    ],
    [
      'weekly New York in winter (EST)',
      weekly('America/New_York'),
      '2026-01-06T00:00:00Z',
      '2026-01-12T14:00:00.000Z',
    ],
    [
      'weekly New York in summer (EDT)',
      weekly('America/New_York'),
      '2026-07-01T00:00:00Z',
      '2026-07-06T13:00:00.000Z',
    ],
    [
      'daily Sydney in January (AEDT)',
      daily('Australia/Sydney'),
      '2026-01-05T00:00:00Z',
      '2026-01-05T22:00:00.000Z',
    ],
  ])('%s', (_name, pattern, now, expected) => {
    expect(nextHandoffAt(pattern, new Date(now)).toISOString()).toBe(expected);
  });

  test('a daily 09:00 handoff stays at 09:00 local across the New York spring change', () => {
    const boundaries = handoffsBetween(
      daily('America/New_York'),
      new Date('2026-03-06T00:00:00Z'),
      new Date('2026-03-11T00:00:00Z'),
    ).map((d) => d.toISOString());
    expect(boundaries).toEqual([
      '2026-03-06T14:00:00.000Z',
      '2026-03-07T14:00:00.000Z',
      '2026-03-08T13:00:00.000Z',
      '2026-03-09T13:00:00.000Z',
      '2026-03-10T13:00:00.000Z',
    ]);
  });

  test('a local time skipped by the change moves to the end of the gap', () => {
    // 2026-03-08 02:30 does not exist in New York: clocks jump from 02:00 EST to 03:00 EDT.
    const t = instantOfWallTime(
      { year: 2026, month: 3, day: 8, hour: 2, minute: 30 },
      'America/New_York',
    );
    expect(t.toISOString()).toBe('2026-03-08T07:00:00.000Z');
  });

  test('a local time that happens twice takes the first', () => {
    // 2026-11-01 01:30 happens twice in New York (EDT, then EST).
    const t = instantOfWallTime(
      { year: 2026, month: 11, day: 1, hour: 1, minute: 30 },
      'America/New_York',
    );
    expect(t.toISOString()).toBe('2026-11-01T05:30:00.000Z');
  });

  test('previousHandoffAt is the boundary before the next one', () => {
    const now = new Date('2026-01-07T10:00:00Z');
    expect(previousHandoffAt(weekly('UTC'), now).toISOString()).toBe('2026-01-05T09:00:00.000Z');
  });
});

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());
const at = (value: string) => new Date(value);

describe('boundaries across daylight-saving changes', () => {
  test.each([
    // [name, pattern, from, to, expected boundaries (UTC)]
    [
      'New York daily 09:00 across the autumn change (EDT → EST)',
      daily('America/New_York'),
      '2026-10-30T00:00:00Z',
      '2026-11-03T00:00:00Z',
      [
        '2026-10-30T13:00:00.000Z',
        '2026-10-31T13:00:00.000Z',
        '2026-11-01T14:00:00.000Z',
        '2026-11-02T14:00:00.000Z',
      ],
    ],
    [
      'New York weekly Monday 09:00 across both changes',
      weekly('America/New_York'),
      '2026-02-28T00:00:00Z',
      '2026-03-17T00:00:00Z',
      ['2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z', '2026-03-16T13:00:00.000Z'],
    ],
    [
      'New York weekly Sunday 01:30, twice on the autumn change day: the first',
      weekly('America/New_York', '01:30', 0),
      '2026-10-20T00:00:00Z',
      '2026-11-10T00:00:00Z',
      ['2026-10-25T05:30:00.000Z', '2026-11-01T05:30:00.000Z', '2026-11-08T06:30:00.000Z'],
    ],
    [
      'London weekly Monday 09:00 across the spring change (GMT → BST)',
      weekly('Europe/London'),
      '2026-03-15T00:00:00Z',
      '2026-04-07T00:00:00Z',
      [
        '2026-03-16T09:00:00.000Z',
        '2026-03-23T09:00:00.000Z',
        '2026-03-30T08:00:00.000Z',
        '2026-04-06T08:00:00.000Z',
      ],
    ],
    [
      'London weekly Monday 09:00 across the autumn change (BST → GMT)',
      weekly('Europe/London'),
      '2026-10-18T00:00:00Z',
      '2026-11-03T00:00:00Z',
      ['2026-10-19T08:00:00.000Z', '2026-10-26T09:00:00.000Z', '2026-11-02T09:00:00.000Z'],
    ],
    [
      'London daily 01:30, skipped on the spring change day: the end of the gap',
      daily('Europe/London', '01:30'),
      '2026-03-28T00:00:00Z',
      '2026-03-31T00:00:00Z',
      ['2026-03-28T01:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z'],
    ],
    [
      'Sydney daily 09:00 across the April change (AEDT → AEST)',
      daily('Australia/Sydney'),
      '2026-04-02T12:00:00Z',
      '2026-04-06T00:00:00Z',
      [
        '2026-04-02T22:00:00.000Z',
        '2026-04-03T22:00:00.000Z',
        '2026-04-04T23:00:00.000Z',
        '2026-04-05T23:00:00.000Z',
      ],
    ],
    [
      'Sydney daily 09:00 across the October change (AEST → AEDT)',
      daily('Australia/Sydney'),
      '2026-10-02T12:00:00Z',
      '2026-10-05T00:00:00Z',
      ['2026-10-02T23:00:00.000Z', '2026-10-03T22:00:00.000Z', '2026-10-04T22:00:00.000Z'],
    ],
    [
      'Sydney weekly Sunday 02:30, skipped on the October change day: the end of the gap',
      weekly('Australia/Sydney', '02:30', 0),
      '2026-09-20T00:00:00Z',
      '2026-10-12T00:00:00Z',
      ['2026-09-26T16:30:00.000Z', '2026-10-03T16:00:00.000Z', '2026-10-10T15:30:00.000Z'],
    ],
  ])('%s', (_name, pattern, from, to, expected) => {
    expect(iso(handoffsBetween(pattern, at(from), at(to)))).toEqual(expected);
  });

  // A walk of several weeks through each change: every boundary falls on the handoff weekday at
  // 09:00 local time, boundaries never repeat, and consecutive ones are 7 days ± the shift apart.
  const zones = [
    ['America/New_York', '2026-02-20T00:00:00Z', '2026-04-10T00:00:00Z'],
    ['America/New_York', '2026-10-10T00:00:00Z', '2026-12-01T00:00:00Z'],
    ['Europe/London', '2026-03-01T00:00:00Z', '2026-04-20T00:00:00Z'],
    ['Europe/London', '2026-10-01T00:00:00Z', '2026-11-20T00:00:00Z'],
    ['Australia/Sydney', '2026-03-15T00:00:00Z', '2026-05-01T00:00:00Z'],
    ['Australia/Sydney', '2026-09-10T00:00:00Z', '2026-10-31T00:00:00Z'],
  ] as const;
  test.each(zones)('weekly walk in %s from %s', (zone, from, to) => {
    const boundaries = handoffsBetween(weekly(zone, '09:00', 3), at(from), at(to));
    expect(boundaries.length).toBeGreaterThanOrEqual(6);
    const gaps = new Set<number>();
    boundaries.forEach((b, i) => {
      expect(wallTimeOf(b, zone)).toMatchObject({ hour: 9, minute: 0, weekday: 3 });
      if (i > 0) gaps.add((b.getTime() - boundaries[i - 1].getTime()) / 3_600_000);
    });
    // Most weeks are 168 hours; the week with the change is one hour shorter or longer.
    expect([...gaps].every((h) => h === 168 || h === 167 || h === 169)).toBe(true);
    expect(gaps.size).toBe(2);
  });
  test.each(zones)('daily walk in %s from %s', (zone, from, to) => {
    const boundaries = handoffsBetween(daily(zone, '09:00'), at(from), at(to));
    expect(boundaries.length).toBeGreaterThan(40);
    const hours = boundaries
      .slice(1)
      .map((b, i) => (b.getTime() - boundaries[i].getTime()) / 3_600_000);
    for (const b of boundaries) expect(wallTimeOf(b, zone)).toMatchObject({ hour: 9, minute: 0 });
    expect(hours.filter((h) => h !== 24)).toHaveLength(1);
    // nextHandoffAt from any instant between two boundaries names the later one.
    for (let i = 1; i < boundaries.length; i++) {
      const mid = new Date((boundaries[i - 1].getTime() + boundaries[i].getTime()) / 2);
      expect(nextHandoffAt(daily(zone), mid)).toEqual(boundaries[i]);
      expect(previousHandoffAt(daily(zone), mid)).toEqual(boundaries[i - 1]);
    }
  });
});

describe('upcomingShifts', () => {
  const pattern = weekly('America/New_York');
  const base = {
    pattern,
    memberIds: [1, 2, 3],
    holderId: 2,
    nextBoundary: at('2026-03-02T14:00:00Z'),
  };

  test('the holder until the pending boundary, then each member in order, across the DST change', () => {
    const shifts = upcomingShifts(base, at('2026-02-26T12:00:00Z'), at('2026-03-20T00:00:00Z'));
    expect(shifts.map((s) => [s.userId, s.start.toISOString(), s.end.toISOString()])).toEqual([
      [2, '2026-02-26T12:00:00.000Z', '2026-03-02T14:00:00.000Z'],
      [3, '2026-03-02T14:00:00.000Z', '2026-03-09T13:00:00.000Z'],
      [1, '2026-03-09T13:00:00.000Z', '2026-03-16T13:00:00.000Z'],
      [2, '2026-03-16T13:00:00.000Z', '2026-03-23T13:00:00.000Z'],
    ]);
  });

  test('a boundary already handled by hand passes without a change', () => {
    const shifts = upcomingShifts(
      { ...base, boundaryHandled: true },
      at('2026-03-02T13:50:00Z'),
      at('2026-03-10T00:00:00Z'),
    );
    expect(shifts.map((s) => [s.userId, s.end.toISOString()])).toEqual([
      [2, '2026-03-09T13:00:00.000Z'],
      [3, '2026-03-16T13:00:00.000Z'],
    ]);
  });

  test('nobody holding: no shift until the boundary gives the baton to the first member', () => {
    const shifts = upcomingShifts(
      { ...base, holderId: null },
      at('2026-03-01T00:00:00Z'),
      at('2026-03-05T00:00:00Z'),
    );
    expect(shifts).toEqual([
      { userId: 1, start: base.nextBoundary, end: at('2026-03-09T13:00:00.000Z') },
    ]);
  });

  test('a sole member keeps the baton in one long shift; no members, no shifts', () => {
    const alone = upcomingShifts(
      { ...base, memberIds: [2] },
      at('2026-03-01T00:00:00Z'),
      at('2026-03-20T00:00:00Z'),
    );
    expect(alone).toHaveLength(1);
    expect(alone[0]).toMatchObject({ userId: 2, end: at('2026-03-23T13:00:00.000Z') });
    // A sole member who does not hold the baton is never handed it: no shifts at all.
    expect(
      upcomingShifts(
        { ...base, memberIds: [2], holderId: null },
        at('2026-03-01T00:00:00Z'),
        at('2026-03-20T00:00:00Z'),
      ),
    ).toEqual([]);
    expect(
      upcomingShifts(
        { ...base, memberIds: [], holderId: null },
        at('2026-03-01T00:00:00Z'),
        at('2026-03-20T00:00:00Z'),
      ),
    ).toEqual([]);
  });

  test('agrees with handoffsBetween: one change per boundary', () => {
    const from = at('2026-01-01T00:00:00Z');
    const to = at('2026-07-01T00:00:00Z');
    const shifts = upcomingShifts(
      {
        ...base,
        pattern: daily('Australia/Sydney'),
        nextBoundary: nextHandoffAt(daily('Australia/Sydney'), from),
      },
      from,
      to,
    );
    const changes = shifts.slice(1).map((s) => s.start.toISOString());
    expect(changes).toEqual(iso(handoffsBetween(daily('Australia/Sydney'), from, to)));
  });
});

describe('schedule windows', () => {
  const entries = [
    { userId: 1, start: at('2026-03-02T09:00:00Z'), end: at('2026-03-02T17:00:00Z') },
    { userId: 2, start: at('2026-03-02T17:00:00Z'), end: at('2026-03-03T09:00:00Z') },
    { userId: 1, start: at('2026-03-04T09:00:00Z'), end: at('2026-03-04T17:00:00Z') },
  ];

  test('windowAt is half-open', () => {
    expect(windowAt(entries, at('2026-03-02T09:00:00Z'))?.userId).toBe(1);
    expect(windowAt(entries, at('2026-03-02T17:00:00Z'))?.userId).toBe(2);
    expect(windowAt(entries, at('2026-03-03T09:00:00Z'))).toBeNull();
  });

  test('transitions name who holds from each change on; a gap names nobody', () => {
    expect(
      scheduleTransitions(entries, at('2026-03-01T00:00:00Z'), at('2026-03-05T00:00:00Z')).map(
        (t) => [t.at.toISOString(), t.userId],
      ),
    ).toEqual([
      ['2026-03-02T09:00:00.000Z', 1],
      ['2026-03-02T17:00:00.000Z', 2],
      ['2026-03-03T09:00:00.000Z', null],
      ['2026-03-04T09:00:00.000Z', 1],
      ['2026-03-04T17:00:00.000Z', null],
    ]);
  });

  test('the next transition after an instant, and the entries as shifts', () => {
    expect(nextScheduleTransition(entries, at('2026-03-02T10:00:00Z'))).toEqual(
      at('2026-03-02T17:00:00Z'),
    );
    expect(nextScheduleTransition(entries, at('2026-03-04T17:00:00Z'))).toBeNull();
    expect(
      scheduledShifts(entries, at('2026-03-02T18:00:00Z'), at('2026-03-04T10:00:00Z')),
    ).toHaveLength(2);
  });
});

describe('wall minutes', () => {
  test.each([
    ['a plain time', 'Europe/London', '2027-01-04T07:00:00Z', '2027-01-04T07:00:00.000Z', true],
    ['a skipped time', 'Europe/London', '2027-03-28T01:30:00Z', '2027-03-28T01:00:00.000Z', false],
    ['a repeated time', 'Europe/London', '2027-10-31T01:30:00Z', '2027-10-31T00:30:00.000Z', true],
    [
      'Sydney in summer',
      'Australia/Sydney',
      '2027-01-01T08:00:00Z',
      '2026-12-31T21:00:00.000Z',
      true,
    ],
  ])(
    'instantOfWallMinute reads %s as instantOfWallTime does, twice alike',
    (_, zone, wall, instant, shown) => {
      const minute = Date.parse(wall) / 60_000;
      expect(instantOfWallMinute(minute, zone).toISOString()).toBe(instant);
      expect(instantOfWallMinute(minute, zone).toISOString()).toBe(instant);
      // The clock shows the wall minute at that instant, unless the change skipped it.
      expect(wallMinuteOf(wallTimeOf(new Date(instant), zone)) === minute).toBe(shown);
    },
  );
});

describe('zoneOffset (remembered by the hour) answers what Intl does', () => {
  // Each minute of the three hours around a change, in zones that move by an hour, by half an
  // hour (Lord Howe) and that change at a half hour of UTC (Adelaide), both ways.
  test.each([
    ['Europe/London', '2026-03-29T00:00:00Z'],
    ['Europe/London', '2026-10-25T00:00:00Z'],
    ['America/New_York', '2026-03-08T06:00:00Z'],
    ['America/New_York', '2026-11-01T05:00:00Z'],
    ['Australia/Lord_Howe', '2026-04-04T14:00:00Z'],
    ['Australia/Lord_Howe', '2026-10-03T15:00:00Z'],
    ['Australia/Adelaide', '2026-04-04T15:00:00Z'],
    ['Asia/Kathmandu', '2026-06-01T00:00:00Z'],
  ])('%s from %s', (zone, from) => {
    const start = Date.parse(from);
    const answers: number[] = [];
    const expected: number[] = [];
    for (let t = start; t < start + 3 * 3_600_000; t += 60_000) {
      answers.push(zoneOffset(zone, t));
      expected.push(tzOffset(zone, new Date(t)));
    }
    expect(answers).toEqual(expected);
    expect(new Set(expected).size).toBe(zone === 'Asia/Kathmandu' ? 1 : 2);
  });
});
