import { describe, expect, test } from 'vitest';
import {
  describePattern,
  type Layer,
  layerBoundaries,
  layeredSegments,
  layerHolderAt,
  nextChangeAfter,
  onCallAt,
  turnsAcrossClockChanges,
} from './layers';
import { wallTimeOf } from './shifts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

const layer = (overrides: Partial<Layer>): Layer => ({
  name: 'Primary',
  memberIds: [1, 2, 3],
  cadence: 'weekly',
  cadenceEvery: 1,
  handoffTime: '09:00',
  handoffWeekday: 1,
  activeWindows: [],
  startsAt: new Date('2027-01-04T09:00:00Z'),
  ...overrides,
});

/** localOf returns 'YYYY-MM-DD HH:MM' of an instant in a zone, as a person there reads it. */
function localOf(at: Date, timeZone: string): string {
  const w = wallTimeOf(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)} ${two(w.hour)}:${two(w.minute)}`;
}

/** everyHour lists each whole UTC hour in [from, to): every local hour of a zone, either side of a change. */
function everyHour(from: string, to: string): Date[] {
  const out: Date[] = [];
  for (let t = Date.parse(from); t < Date.parse(to); t += HOUR) out.push(new Date(t));
  return out;
}

// The follow-the-sun rotation, in Europe/London: 2027-01-04 is a Monday (GMT).
const LONDON = 'Europe/London';
const london = layer({
  name: 'London',
  memberIds: [1, 2, 3],
  handoffTime: '07:00',
  activeWindows: [{ days: EVERY_DAY, start: '07:00', end: '19:00' }],
  startsAt: new Date('2027-01-04T07:00:00Z'),
});
const sydney = layer({
  name: 'Sydney',
  memberIds: [4, 5, 6],
  handoffTime: '19:00',
  activeWindows: [{ days: EVERY_DAY, start: '19:00', end: '07:00' }],
  startsAt: new Date('2027-01-04T19:00:00Z'),
});
const followTheSun = [london, sydney];

describe('follow the sun (London 07:00–19:00, Sydney 19:00–07:00, weekly turns)', () => {
  // Weeks since each layer began, counted on the London wall clock (a week of wall time is
  // 7 × 24 hours whatever daylight saving does; neither boundary falls in a repeated hour).
  const weeksSince = (at: Date, startWall: number) => {
    const w = wallTimeOf(at, LONDON);
    const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute);
    return Math.floor((wall - startWall) / WEEK);
  };
  const londonStart = Date.UTC(2027, 0, 4, 7);
  const sydneyStart = Date.UTC(2027, 0, 4, 19);

  const expectedAt = (at: Date) => {
    const hour = wallTimeOf(at, LONDON).hour;
    return hour >= 7 && hour < 19
      ? { memberId: [1, 2, 3][weeksSince(at, londonStart) % 3], layerIndex: 0 }
      : { memberId: [4, 5, 6][weeksSince(at, sydneyStart) % 3], layerIndex: 1 };
  };

  test('every hour of 2027 names a London member 07:00–19:00 and a Sydney member otherwise, in order', () => {
    const from = new Date('2027-01-04T19:00:00Z');
    const to = new Date('2028-01-03T00:00:00Z');
    const segments = layeredSegments(followTheSun, LONDON, from, to);
    const wrong: string[] = [];
    let i = 0;
    for (const at of everyHour(from.toISOString(), to.toISOString())) {
      while (segments[i].end.getTime() <= at.getTime()) i += 1;
      const { memberId, layerIndex } = segments[i];
      if (JSON.stringify({ memberId, layerIndex }) !== JSON.stringify(expectedAt(at))) {
        wrong.push(`${localOf(at, LONDON)}: ${memberId} of layer ${layerIndex}`);
      }
    }
    expect(segments).toHaveLength(1 + 2 * 363);
    expect(wrong).toEqual([]);
  });

  test.each([
    ['spring', '2027-03-22T00:00:00Z'],
    ['autumn', '2027-10-25T00:00:00Z'],
  ])('onCallAt agrees at every hour of the %s change fortnight', (_, from) => {
    const hours = everyHour(from, new Date(Date.parse(from) + 2 * WEEK).toISOString());
    expect(hours.map((at) => onCallAt(followTheSun, LONDON, at))).toEqual(hours.map(expectedAt));
  });

  test.each([
    [
      'spring (clocks go forward on Sunday 28 March)',
      '2027-03-22T00:00:00Z',
      '2027-04-05T12:00:00Z',
    ],
    [
      'autumn (clocks go back on Sunday 31 October)',
      '2027-10-25T00:00:00Z',
      '2027-11-08T12:00:00Z',
    ],
  ])('across the %s the baton moves at 07:00 and 19:00 London time only', (_, from, to) => {
    const segments = layeredSegments(followTheSun, LONDON, new Date(from), new Date(to));
    const starts = segments.slice(1).map((s) => localOf(s.start, LONDON).slice(11));
    expect(new Set(starts)).toEqual(new Set(['07:00', '19:00']));
    expect(segments.every((s) => s.memberId !== null)).toBe(true);
    // London days are 12 hours; the night of the change is 11 or 13.
    const nights = segments
      .filter((s) => s.layerIndex === 1 && s.start.getTime() > Date.parse(from))
      .map((s) => (s.end.getTime() - s.start.getTime()) / HOUR);
    expect(nights.filter((h) => h !== 12)).toHaveLength(1);
    expect(
      segments
        .filter((s) => s.layerIndex === 0 && s.end.getTime() < Date.parse(to))
        .map((s) => (s.end.getTime() - s.start.getTime()) / HOUR),
    ).toEqual(Array(14).fill(12));
  });

  test("each layer's turns change only on Monday at its handoff time, cycling through its three", () => {
    const from = new Date('2027-01-01T00:00:00Z');
    const to = new Date('2027-12-31T00:00:00Z');
    const londonBoundaries = layerBoundaries(london, LONDON, from, to);
    expect(londonBoundaries).toHaveLength(51);
    for (const b of londonBoundaries) {
      expect(wallTimeOf(b, LONDON)).toMatchObject({ weekday: 1, hour: 7, minute: 0 });
    }
    const holders = londonBoundaries.map((b) => layerHolderAt(london, LONDON, b));
    expect(holders.slice(0, 6)).toEqual([2, 3, 1, 2, 3, 1]);
    const nightHolders = layerBoundaries(sydney, LONDON, from, to).map((b) =>
      layerHolderAt(sydney, LONDON, b),
    );
    expect(nightHolders.slice(0, 4)).toEqual([5, 6, 4, 5]);
  });

  test('a layer off duty has nobody, though its turns run on', () => {
    const mondayNight = new Date('2027-01-04T22:00:00Z');
    expect(layerHolderAt(london, LONDON, mondayNight)).toBeNull();
    expect(layerHolderAt(sydney, LONDON, mondayNight)).toBe(4);
    expect(layerHolderAt(london, LONDON, new Date('2027-01-11T08:00:00Z'))).toBe(2);
  });

  test('reads in words', () => {
    expect(describePattern(followTheSun)).toBe(
      'Follow the sun: London 07:00–19:00, Sydney 19:00–07:00',
    );
  });

  test('the next change is the next window edge', () => {
    const mondayMorning = new Date('2027-03-29T08:30:00Z'); // 09:30 BST
    expect(nextChangeAfter(followTheSun, LONDON, mondayMorning)?.toISOString()).toBe(
      '2027-03-29T18:00:00.000Z',
    );
  });
});

describe('a weekend-only layer (Saturday and Sunday, 00:00–00:00) in New York', () => {
  const NEW_YORK = 'America/New_York';
  const weekends = layer({
    name: 'Weekends',
    memberIds: [7, 8],
    cadence: 'weekly',
    handoffWeekday: 6,
    handoffTime: '00:00',
    activeWindows: [{ days: [6, 0], start: '00:00', end: '00:00' }],
    startsAt: new Date('2027-01-02T05:00:00Z'), // Saturday 00:00 EST
  });

  test.each([
    ['a winter Wednesday', '2027-01-13T05:00:00Z'],
    ['the Wednesday after clocks go forward', '2027-03-17T04:00:00Z'],
    ['the Wednesday after clocks go back', '2027-11-10T05:00:00Z'],
  ])('has nobody on %s, at any hour', (_, midnight) => {
    const hours = everyHour(midnight, new Date(Date.parse(midnight) + DAY).toISOString());
    expect(hours.map((at) => onCallAt([weekends], NEW_YORK, at))).toEqual(Array(24).fill(null));
  });

  test('has somebody every hour of every weekend, alternating week by week', () => {
    const from = new Date('2027-01-02T05:00:00Z');
    const segments = layeredSegments([weekends], NEW_YORK, from, new Date('2027-12-31T05:00:00Z'));
    const onDuty = segments.filter((s) => s.memberId !== null);
    expect(onDuty).toHaveLength(52);
    expect(onDuty.map((s) => s.memberId)).toEqual(onDuty.map((_, i) => [7, 8][i % 2]));
    for (const s of onDuty) {
      expect([localOf(s.start, NEW_YORK).slice(11), wallTimeOf(s.start, NEW_YORK).weekday]).toEqual(
        ['00:00', 6],
      );
      expect([localOf(s.end, NEW_YORK).slice(11), wallTimeOf(s.end, NEW_YORK).weekday]).toEqual([
        '00:00',
        1,
      ]);
    }
    expect(segments.filter((s) => s.memberId === null)).toHaveLength(52);
  });

  test('stacked on an always-on layer, it wins at the weekend only', () => {
    const everyone = layer({ name: 'Primary', memberIds: [1], activeWindows: null });
    const layers = [everyone, weekends];
    expect(onCallAt(layers, NEW_YORK, new Date('2027-01-13T17:00:00Z'))).toEqual({
      memberId: 1,
      layerIndex: 0,
    });
    expect(onCallAt(layers, NEW_YORK, new Date('2027-01-09T17:00:00Z'))).toEqual({
      memberId: 8,
      layerIndex: 1,
    });
    const wednesday = new Date('2027-03-10T17:00:00Z');
    expect(nextChangeAfter(layers, NEW_YORK, wednesday)?.toISOString()).toBe(
      '2027-03-13T05:00:00.000Z',
    );
    expect(describePattern(layers)).toBe(
      'Primary: Weekly shifts from Monday 09:00; Weekends: Weekends all day, weekly turns',
    );
  });
});

describe('a 12-hour layer handing off at 08:00 and 20:00', () => {
  const twelve = (startsAt: string) =>
    layer({
      cadence: 'hourly',
      cadenceEvery: 12,
      handoffTime: '08:00',
      memberIds: [1, 2],
      startsAt: new Date(startsAt),
    });

  test.each([
    [
      'Europe/London',
      '2027-01-04T08:00:00Z',
      [
        ['2027-03-27 20:00', 11],
        ['2027-10-30 20:00', 13],
      ],
    ],
    [
      'America/New_York',
      '2027-01-04T13:00:00Z',
      [
        ['2027-03-13 20:00', 11],
        ['2027-11-06 20:00', 13],
      ],
    ],
    [
      'Australia/Sydney',
      '2026-12-31T21:00:00Z',
      [
        ['2027-04-03 20:00', 13],
        ['2027-10-02 20:00', 11],
      ],
    ],
  ])('in %s changes hands at 08:00 and 20:00 only, for a year', (zone, startsAt, changeNights) => {
    const rotation = twelve(startsAt);
    const from = new Date(startsAt);
    const to = new Date(from.getTime() + 365 * DAY);
    const segments = layeredSegments([rotation], zone, from, to);
    const times = new Set(segments.map((s) => localOf(s.start, zone).slice(11)));
    expect(times).toEqual(new Set(['08:00', '20:00']));
    expect(segments.map((s) => s.memberId)).toEqual(segments.map((_, i) => [1, 2][i % 2]));
    // Every shift is 12 hours but the night of each change: 11 hours in spring, 13 in autumn.
    const odd = segments
      .slice(0, -1)
      .filter((s) => s.end.getTime() - s.start.getTime() !== 12 * HOUR)
      .map((s) => [localOf(s.start, zone), (s.end.getTime() - s.start.getTime()) / HOUR]);
    expect(odd).toEqual(changeNights);
    expect(describePattern([rotation])).toBe('12-hour shifts at 08:00 and 20:00');
  });
});

describe('shift lengths of N days and N weeks', () => {
  test('daily N = 3 in New York hands over every third day at 09:00, across the spring change', () => {
    const every3 = layer({
      cadence: 'daily',
      cadenceEvery: 3,
      handoffTime: '09:00',
      startsAt: new Date('2027-03-01T14:00:00Z'), // Monday 09:00 EST
    });
    const zone = 'America/New_York';
    const boundaries = layerBoundaries(
      every3,
      zone,
      new Date('2027-03-01T00:00:00Z'),
      new Date('2027-03-31T00:00:00Z'),
    );
    expect(boundaries.map((b) => localOf(b, zone))).toEqual(
      [4, 7, 10, 13, 16, 19, 22, 25, 28].map((d) => `2027-03-${String(d).padStart(2, '0')} 09:00`),
    );
    expect(boundaries.map((b) => layerHolderAt(every3, zone, b))).toEqual([
      2, 3, 1, 2, 3, 1, 2, 3, 1,
    ]);
    // The turn across Sunday 14 March's change is an hour short.
    expect((boundaries[4].getTime() - boundaries[3].getTime()) / HOUR).toBe(71);
    expect(describePattern([every3])).toBe('3-day shifts at 09:00');
  });

  test('weekly N = 2 in Sydney hands over every other Wednesday at 10:00, across both changes', () => {
    const fortnightly = layer({
      cadenceEvery: 2,
      handoffWeekday: 3,
      handoffTime: '10:00',
      memberIds: [1, 2],
      startsAt: new Date('2027-01-05T23:00:00Z'), // Wednesday 6 January 10:00 AEDT
    });
    const zone = 'Australia/Sydney';
    const boundaries = layerBoundaries(
      fortnightly,
      zone,
      fortnightly.startsAt,
      new Date('2027-12-31T00:00:00Z'),
    );
    expect(boundaries).toHaveLength(25);
    for (const [i, b] of boundaries.entries()) {
      expect(wallTimeOf(b, zone)).toMatchObject({ weekday: 3, hour: 10, minute: 0 });
      const since = Date.UTC(2027, 0, 6) + (i + 1) * 2 * WEEK;
      expect(localOf(b, zone).slice(0, 10)).toBe(new Date(since).toISOString().slice(0, 10));
      expect(layerHolderAt(fortnightly, zone, b)).toBe([2, 1][i % 2]);
    }
    expect(describePattern([fortnightly])).toBe('2-week shifts from Wednesday 10:00');
  });

  test('the first turn runs from the start to the first boundary after it', () => {
    const wednesday = new Date('2027-01-06T15:00:00Z');
    const weekly = layer({ startsAt: wednesday, handoffTime: '09:00', handoffWeekday: 1 });
    expect(layerHolderAt(weekly, 'UTC', new Date('2027-01-06T14:59:00Z'))).toBeNull();
    expect(layerHolderAt(weekly, 'UTC', wednesday)).toBe(1);
    expect(layerBoundaries(weekly, 'UTC', wednesday, new Date('2027-01-20T00:00:00Z'))).toEqual([
      new Date('2027-01-11T09:00:00Z'),
      new Date('2027-01-18T09:00:00Z'),
    ]);
    expect(layerHolderAt(weekly, 'UTC', new Date('2027-01-11T09:00:00Z'))).toBe(2);
  });

  test('a one-hour turn whose hour daylight saving skips is empty', () => {
    const hourly = layer({
      cadence: 'hourly',
      cadenceEvery: 1,
      handoffTime: '00:00',
      memberIds: [1, 2, 3],
      startsAt: new Date('2027-03-28T00:00:00Z'), // 00:00 GMT; 01:00 is skipped
    });
    const segments = layeredSegments(
      [hourly],
      LONDON,
      hourly.startsAt,
      new Date('2027-03-28T04:00:00Z'),
    );
    expect(segments.map((s) => [localOf(s.start, LONDON), s.memberId])).toEqual([
      ['2027-03-28 00:00', 1],
      ['2027-03-28 02:00', 3],
      ['2027-03-28 03:00', 1],
      ['2027-03-28 04:00', 2],
    ]);
  });
  test('in the hour the autumn change repeats, the turn that began the first time round holds', () => {
    const half = layer({
      cadence: 'hourly',
      cadenceEvery: 1,
      handoffTime: '00:30',
      memberIds: [1, 2, 3],
      startsAt: new Date('2027-10-30T23:30:00Z'), // 00:30 BST, Sunday 31 October
    });
    // 01:30 BST (00:30Z) passed the turn on; 01:10 GMT (01:10Z) is after it, though its wall
    // clock reads earlier, and 01:30 GMT does not pass it again: that turn lasts two hours.
    expect(layerHolderAt(half, LONDON, new Date('2027-10-31T00:30:00Z'))).toBe(2);
    expect(layerHolderAt(half, LONDON, new Date('2027-10-31T01:10:00Z'))).toBe(2);
    expect(layerHolderAt(half, LONDON, new Date('2027-10-31T01:30:00Z'))).toBe(2);
    expect(layerHolderAt(half, LONDON, new Date('2027-10-31T02:30:00Z'))).toBe(3);
  });
});

describe('stacking', () => {
  const zone = 'UTC';
  const primary = layer({ name: 'Primary', memberIds: [1, 2] });
  const business = layer({
    name: 'Business hours',
    memberIds: [3],
    activeWindows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }],
  });

  test('the last layer listed with somebody on duty wins; nobody when none has anyone', () => {
    const monday10 = new Date('2027-01-04T10:00:00Z');
    expect(onCallAt([primary, business], zone, monday10)).toEqual({ memberId: 3, layerIndex: 1 });
    expect(onCallAt([business, primary], zone, monday10)).toEqual({ memberId: 1, layerIndex: 1 });
    expect(onCallAt([business], zone, new Date('2027-01-04T18:00:00Z'))).toBeNull();
    expect(onCallAt([], zone, monday10)).toBeNull();
    expect(onCallAt([layer({ memberIds: [] })], zone, monday10)).toBeNull();
    expect(onCallAt([primary], zone, new Date('2027-01-04T08:59:00Z'))).toBeNull();
  });

  test('segments cover the span back to back, nobody included, equal neighbours merged', () => {
    const segments = layeredSegments(
      [business],
      zone,
      new Date('2027-01-08T00:00:00Z'),
      new Date('2027-01-12T00:00:00Z'),
    );
    expect(segments.map((s) => [s.start.toISOString(), s.memberId, s.layerIndex])).toEqual([
      ['2027-01-08T00:00:00.000Z', null, null],
      ['2027-01-08T09:00:00.000Z', 3, 0],
      ['2027-01-08T17:00:00.000Z', null, null],
      ['2027-01-11T09:00:00.000Z', 3, 0],
      ['2027-01-11T17:00:00.000Z', null, null],
    ]);
    expect(segments.at(-1)?.end).toEqual(new Date('2027-01-12T00:00:00Z'));
    expect(layeredSegments([business], zone, new Date(0), new Date(0))).toEqual([]);
  });

  test('the next change: a boundary of the layer on duty, or never within the horizon', () => {
    const monday10 = new Date('2027-01-04T10:00:00Z');
    expect(nextChangeAfter([primary, business], zone, monday10)).toEqual(
      new Date('2027-01-04T17:00:00Z'),
    );
    expect(nextChangeAfter([primary], zone, monday10)).toEqual(new Date('2027-01-11T09:00:00Z'));
    expect(nextChangeAfter([layer({ memberIds: [5] })], zone, monday10)).toBeNull();
  });

  test('reads in words', () => {
    expect(describePattern([business])).toBe('Weekdays 09:00–17:00, weekly turns');
    expect(describePattern([primary, business])).toBe(
      'Primary: Weekly shifts from Monday 09:00; Business hours: Weekdays 09:00–17:00, weekly turns',
    );
  });
});

describe('describePattern', () => {
  test.each([
    [{ cadence: 'daily' as const, handoffTime: '08:30' }, 'Daily shifts at 08:30'],
    [
      { cadence: 'hourly' as const, cadenceEvery: 8, handoffTime: '06:00' },
      '8-hour shifts at 06:00, 14:00 and 22:00',
    ],
    [
      { cadence: 'hourly' as const, cadenceEvery: 5, handoffTime: '06:00' },
      '5-hour shifts from 06:00',
    ],
    [
      {
        cadence: 'daily' as const,
        activeWindows: [{ days: [1, 2, 3, 5, 6], start: '22:00', end: '06:00' }],
      },
      'Mon–Wed, Fri, Sat 22:00–06:00, daily turns',
    ],
    [
      { cadenceEvery: 2, activeWindows: [{ days: [0, 6], start: '00:00', end: '00:00' }] },
      'Weekends all day, 2-week turns',
    ],
    [
      { activeWindows: [{ days: EVERY_DAY, start: '00:00', end: '00:00' }] },
      'Every day all day, weekly turns',
    ],
  ])('%j reads "%s"', (overrides, words) => {
    expect(describePattern([layer(overrides)])).toBe(words);
  });
});

describe('turns across a change of the clocks', () => {
  const twelve: Layer = {
    name: 'Shifts',
    memberIds: [1, 2],
    cadence: 'hourly',
    cadenceEvery: 12,
    handoffTime: '08:00',
    handoffWeekday: 1,
    startsAt: new Date('2027-03-01T13:00:00Z'),
  };

  test('a 12-hour turn across the spring change lasts 11 hours, across the autumn one 13', () => {
    const spring = turnsAcrossClockChanges(
      [twelve],
      'America/New_York',
      new Date('2027-03-10T00:00:00Z'),
      new Date('2027-03-20T00:00:00Z'),
    );
    expect(spring.map((t) => [t.start.toISOString(), t.hours, t.nominalHours])).toEqual([
      ['2027-03-14T01:00:00.000Z', 11, 12],
    ]);
    const autumn = turnsAcrossClockChanges(
      [twelve],
      'America/New_York',
      new Date('2027-11-01T00:00:00Z'),
      new Date('2027-11-14T00:00:00Z'),
    );
    expect(autumn.map((t) => [t.start.toISOString(), t.hours])).toEqual([
      ['2027-11-07T00:00:00.000Z', 13],
    ]);
  });

  test('no change in the span, or a zone without daylight saving: none', () => {
    const span = [new Date('2027-06-01T00:00:00Z'), new Date('2027-06-15T00:00:00Z')] as const;
    expect(turnsAcrossClockChanges([twelve], 'America/New_York', ...span)).toEqual([]);
    expect(
      turnsAcrossClockChanges(
        [twelve],
        'UTC',
        new Date('2027-03-10T00:00:00Z'),
        new Date('2027-03-20T00:00:00Z'),
      ),
    ).toEqual([]);
  });
});
