import { describe, expect, test } from 'vitest';
import { isOnDuty, type OnDutyWindow, windowEdges } from './on-duty-windows';

const nights: OnDutyWindow[] = [{ days: [5], start: '22:00', end: '07:00' }];
const wholeWeekend: OnDutyWindow[] = [{ days: [6, 0], start: '00:00', end: '00:00' }];

describe('isOnDuty', () => {
  test.each([
    ['no windows: always', null, 'UTC', '2027-01-06T03:00:00Z', true],
    ['an empty list: always', [], 'UTC', '2027-01-06T03:00:00Z', true],
    ['Friday 22:00–07:00 at Friday 21:59', nights, 'UTC', '2027-01-08T21:59:00Z', false],
    ['Friday 22:00–07:00 at Friday 22:00', nights, 'UTC', '2027-01-08T22:00:00Z', true],
    ['Friday 22:00–07:00 at Saturday 06:59', nights, 'UTC', '2027-01-09T06:59:00Z', true],
    ['Friday 22:00–07:00 at Saturday 07:00', nights, 'UTC', '2027-01-09T07:00:00Z', false],
    [
      'Friday 22:00–07:00 at Friday 06:59 (the window belongs to Friday)',
      nights,
      'UTC',
      '2027-01-08T06:59:00Z',
      false,
    ],
    [
      '00:00–00:00 on Saturday and Sunday at Saturday 00:00',
      wholeWeekend,
      'UTC',
      '2027-01-09T00:00:00Z',
      true,
    ],
    [
      '00:00–00:00 on Saturday and Sunday at Sunday 23:59',
      wholeWeekend,
      'UTC',
      '2027-01-10T23:59:00Z',
      true,
    ],
    [
      '00:00–00:00 on Saturday and Sunday at Monday 00:00',
      wholeWeekend,
      'UTC',
      '2027-01-11T00:00:00Z',
      false,
    ],
    [
      '00:00–00:00 on Saturday and Sunday at Friday 23:59',
      wholeWeekend,
      'UTC',
      '2027-01-08T23:59:00Z',
      false,
    ],
    // Sydney, 3 April 2027 (AEDT, UTC+11): Friday 22:00 local is 11:00Z.
    ['Friday 22:00–07:00 in Sydney', nights, 'Australia/Sydney', '2027-04-02T11:00:00Z', true],
    // New York, spring forward Sunday 14 March 2027: a Saturday night window ends at 07:00 EDT.
    [
      'Saturday 22:00–07:00 in New York, 06:59 EDT the morning clocks go forward',
      [{ days: [6], start: '22:00', end: '07:00' }],
      'America/New_York',
      '2027-03-14T10:59:00Z',
      true,
    ],
    [
      'Saturday 22:00–07:00 in New York, 07:00 EDT the morning clocks go forward',
      [{ days: [6], start: '22:00', end: '07:00' }],
      'America/New_York',
      '2027-03-14T11:00:00Z',
      false,
    ],
  ])('%s: %s', (_, windows, zone, at, onDuty) => {
    expect(isOnDuty(windows, zone, new Date(at))).toBe(onDuty);
  });
});

describe('windowEdges', () => {
  const edges = (windows: OnDutyWindow[], zone: string, from: string, to: string) =>
    windowEdges(windows, zone, new Date(from), new Date(to)).map((e) => [
      e.at.toISOString(),
      e.onDuty,
    ]);

  test('a window past midnight opens one day and closes the next', () => {
    expect(edges(nights, 'UTC', '2027-01-04T00:00:00Z', '2027-01-18T00:00:00Z')).toEqual([
      ['2027-01-08T22:00:00.000Z', true],
      ['2027-01-09T07:00:00.000Z', false],
      ['2027-01-15T22:00:00.000Z', true],
      ['2027-01-16T07:00:00.000Z', false],
    ]);
  });

  test('00:00–00:00 on back-to-back days is one stretch, midnight to midnight local', () => {
    expect(
      edges(wholeWeekend, 'Europe/London', '2027-03-22T00:00:00Z', '2027-04-05T00:00:00Z'),
    ).toEqual([
      ['2027-03-27T00:00:00.000Z', true],
      // Monday 00:00 BST: the weekend of the change was 47 hours
      ['2027-03-28T23:00:00.000Z', false],
      ['2027-04-02T23:00:00.000Z', true],
      ['2027-04-04T23:00:00.000Z', false],
    ]);
  });

  test('windows meeting at one wall time, or overlapping, leave no edge between them', () => {
    const days: OnDutyWindow[] = [
      { days: [1, 2, 3, 4, 5, 6, 0], start: '07:00', end: '19:00' },
      { days: [1, 2, 3, 4, 5, 6, 0], start: '19:00', end: '07:00' },
    ];
    expect(edges(days, 'Europe/London', '2027-10-25T00:00:00Z', '2027-11-08T00:00:00Z')).toEqual(
      [],
    );
    const overlapping: OnDutyWindow[] = [
      { days: [1], start: '09:00', end: '17:00' },
      { days: [1], start: '12:00', end: '20:00' },
    ];
    expect(edges(overlapping, 'UTC', '2027-01-04T00:00:00Z', '2027-01-05T00:00:00Z')).toEqual([
      ['2027-01-04T09:00:00.000Z', true],
      ['2027-01-04T20:00:00.000Z', false],
    ]);
  });

  test('the window of the autumn change night lasts an hour longer', () => {
    const london = edges(
      [{ days: [6], start: '19:00', end: '07:00' }],
      'Europe/London',
      '2027-10-30T00:00:00Z',
      '2027-11-01T00:00:00Z',
    );
    expect(london).toEqual([
      ['2027-10-30T18:00:00.000Z', true],
      ['2027-10-31T07:00:00.000Z', false],
    ]);
  });
});
