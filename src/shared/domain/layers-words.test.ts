import { describe, expect, test } from 'vitest';
import { describePattern, type Layer, layerBoundaries, turnsAcrossClockChanges } from './layers';

// The edges of layers.ts that layers.test.ts leaves open (issue 36, mutation testing): a layer's
// pattern in words for every weekday, cadence and list length, what is and is not follow the sun,
// an invalid cadenceEvery, and the turns a change of the clocks lengthens at the span's edges.

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
const words = (overrides: Partial<Layer>) => describePattern([layer(overrides)]);

describe('describePattern in words', () => {
  test('no layer: nobody on call', () => {
    expect(describePattern([])).toBe('Nobody on call');
  });

  test('weekly shifts name each weekday in full', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((d) => words({ handoffWeekday: d }))).toEqual([
      'Weekly shifts from Sunday 09:00',
      'Weekly shifts from Monday 09:00',
      'Weekly shifts from Tuesday 09:00',
      'Weekly shifts from Wednesday 09:00',
      'Weekly shifts from Thursday 09:00',
      'Weekly shifts from Friday 09:00',
      'Weekly shifts from Saturday 09:00',
    ]);
  });

  test('days apart are listed short, from Monday', () => {
    const window = (days: number[]) => [{ days, start: '09:00', end: '17:00' }];
    expect(words({ activeWindows: window([0, 2, 4, 6]) })).toBe(
      'Tue, Thu, Sat, Sun 09:00–17:00, weekly turns',
    );
    expect(words({ activeWindows: window([1, 3, 5]) })).toBe(
      'Mon, Wed, Fri 09:00–17:00, weekly turns',
    );
  });

  test('turns of a windowed layer: hours, days, weeks', () => {
    const activeWindows = [{ days: EVERY_DAY, start: '08:00', end: '20:00' }];
    expect(words({ cadence: 'hourly', cadenceEvery: 6, activeWindows })).toBe(
      'Every day 08:00–20:00, 6-hour turns',
    );
    expect(words({ cadence: 'daily', cadenceEvery: 2, activeWindows })).toBe(
      'Every day 08:00–20:00, 2-day turns',
    );
    expect(words({ cadence: 'weekly', cadenceEvery: 3, activeWindows })).toBe(
      'Every day 08:00–20:00, 3-week turns',
    );
    expect(words({ cadence: 'daily', cadenceEvery: 1, activeWindows })).toBe(
      'Every day 08:00–20:00, daily turns',
    );
  });

  test('two windows on one layer, one after the other', () => {
    expect(
      words({
        activeWindows: [
          { days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' },
          { days: [6, 0], start: '00:00', end: '00:00' },
        ],
      }),
    ).toBe('Weekdays 09:00–17:00; Weekends all day, weekly turns');
  });

  test('hourly shifts: up to four a day listed in order from midnight, more by their length', () => {
    expect(words({ cadence: 'hourly', cadenceEvery: 24, handoffTime: '06:00' })).toBe(
      '24-hour shifts at 06:00',
    );
    expect(words({ cadence: 'hourly', cadenceEvery: 6, handoffTime: '06:00' })).toBe(
      '6-hour shifts at 00:00, 06:00, 12:00 and 18:00',
    );
    expect(words({ cadence: 'hourly', cadenceEvery: 3, handoffTime: '06:00' })).toBe(
      '3-hour shifts from 06:00',
    );
    expect(words({ cadence: 'hourly', cadenceEvery: 5, handoffTime: '06:00' })).toBe(
      '5-hour shifts from 06:00',
    );
    // Not dividing the day, though fewer than four a day: by their length too.
    expect(words({ cadence: 'hourly', cadenceEvery: 7, handoffTime: '06:00' })).toBe(
      '7-hour shifts from 06:00',
    );
  });

  test('daily and weekly shifts of several days or weeks', () => {
    expect(words({ cadence: 'daily', cadenceEvery: 2 })).toBe('2-day shifts at 09:00');
    expect(words({ cadence: 'daily', cadenceEvery: 1 })).toBe('Daily shifts at 09:00');
    expect(words({ cadence: 'weekly', cadenceEvery: 2, handoffWeekday: 5 })).toBe(
      '2-week shifts from Friday 09:00',
    );
  });
});

describe('describePattern: follow the sun or not', () => {
  const leg = (name: string, start: string, end: string) =>
    layer({ name, activeWindows: [{ days: EVERY_DAY, start, end }] });

  test('windows sharing the day between them', () => {
    expect(
      describePattern([leg('London', '07:00', '19:00'), leg('Sydney', '19:00', '07:00')]),
    ).toBe('Follow the sun: London 07:00–19:00, Sydney 19:00–07:00');
  });
  test('windows overlapping: each layer by name', () => {
    expect(
      describePattern([leg('London', '07:00', '19:00'), leg('Sydney', '18:00', '07:00')]),
    ).toBe(
      'London: Every day 07:00–19:00, weekly turns; Sydney: Every day 18:00–07:00, weekly turns',
    );
  });
  test('windows all day: each layer by name', () => {
    expect(describePattern([leg('A', '00:00', '00:00'), leg('B', '00:00', '00:00')])).toBe(
      'A: Every day all day, weekly turns; B: Every day all day, weekly turns',
    );
  });
  test('an all-day layer beside two that share the day: each layer by name', () => {
    expect(
      describePattern([
        leg('A', '00:00', '00:00'),
        leg('B', '07:00', '19:00'),
        leg('C', '19:00', '07:00'),
      ]),
    ).toBe(
      'A: Every day all day, weekly turns; B: Every day 07:00–19:00, weekly turns; C: Every day 19:00–07:00, weekly turns',
    );
  });
  test('layers without windows, or not every day: each layer by name', () => {
    expect(describePattern([layer({ name: 'A' }), layer({ name: 'B', handoffWeekday: 3 })])).toBe(
      'A: Weekly shifts from Monday 09:00; B: Weekly shifts from Wednesday 09:00',
    );
    expect(
      describePattern([
        layer({
          name: 'A',
          activeWindows: [{ days: [1, 2, 3, 4, 5], start: '07:00', end: '19:00' }],
        }),
        leg('B', '19:00', '07:00'),
      ]),
    ).toBe('A: Weekdays 07:00–19:00, weekly turns; B: Every day 19:00–07:00, weekly turns');
  });
});

describe('cadenceEvery', () => {
  test.each([0, -1, 1.5])('cadenceEvery %s is refused', (every) => {
    expect(() =>
      layerBoundaries(
        layer({ cadenceEvery: every }),
        'UTC',
        new Date('2027-01-04T00:00:00Z'),
        new Date('2027-02-04T00:00:00Z'),
      ),
    ).toThrow(`Invalid cadenceEvery ${every}`);
  });
});

describe('turnsAcrossClockChanges at the span’s edges', () => {
  const NY = 'America/New_York';
  const twelve = layer({
    name: 'Shifts',
    memberIds: [1, 2],
    cadence: 'hourly',
    cadenceEvery: 12,
    handoffTime: '08:00',
    startsAt: new Date('2027-03-01T13:00:00Z'),
  });
  const daily = layer({
    cadence: 'daily',
    handoffTime: '09:00',
    startsAt: new Date('2027-03-01T14:00:00Z'),
  });
  const at = (iso: string) => new Date(iso);
  // The autumn change makes the turn 2027-11-07T00:00Z–13:00Z 13 hours long.
  const autumn = (from: string, to: string) =>
    turnsAcrossClockChanges([twelve], NY, at(from), at(to)).map((t) => [
      t.start.toISOString(),
      t.end.toISOString(),
      t.hours,
    ]);
  const longTurn = ['2027-11-07T00:00:00.000Z', '2027-11-07T13:00:00.000Z', 13];

  test('a span near the long turn’s end or its start still finds the whole turn', () => {
    expect(autumn('2027-11-07T12:30:00Z', '2027-11-07T12:45:00Z')).toEqual([longTurn]);
    expect(autumn('2027-11-07T00:00:00Z', '2027-11-07T00:15:00Z')).toEqual([longTurn]);
  });
  test('a span ending at the turn’s start, or starting at its end, does not hold it', () => {
    expect(autumn('2027-11-06T23:00:00Z', '2027-11-07T00:00:00Z')).toEqual([]);
    expect(autumn('2027-11-07T13:00:00Z', '2027-11-07T14:00:00Z')).toEqual([]);
  });
  test('several layers: earliest first', () => {
    const turns = turnsAcrossClockChanges(
      [twelve, daily],
      NY,
      at('2027-03-13T00:00:00Z'),
      at('2027-03-15T00:00:00Z'),
    );
    expect(turns.map((t) => [t.layerIndex, t.start.toISOString(), t.hours])).toEqual([
      [1, '2027-03-13T14:00:00.000Z', 23],
      [0, '2027-03-14T01:00:00.000Z', 11],
    ]);
  });
});
