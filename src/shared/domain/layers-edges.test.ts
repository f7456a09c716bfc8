import { describe, expect, test } from 'vitest';
import { type Layer, layerBoundaries, layeredSegments, nextChangeAfter } from './layers';

// The edges of layers.ts' projection that layers.test.ts leaves open (issue 36, mutation
// testing): boundaries at `to`, a skipped hour's two boundaries listed once, the ten-year bound,
// a layer without members, one member from two layers, and the next change seen from nobody.

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
const iso = (dates: readonly Date[]) => dates.map((d) => d.toISOString());
const layer = (overrides: Partial<Layer>): Layer => ({
  name: 'Primary',
  memberIds: [1, 2, 3],
  cadence: 'weekly',
  cadenceEvery: 1,
  handoffTime: '09:00',
  handoffWeekday: 1,
  activeWindows: [],
  startsAt: at('2027-01-04T09:00:00Z'),
  ...overrides,
});
const hourly = layer({
  cadence: 'hourly',
  handoffTime: '00:00',
  startsAt: at('2027-03-01T05:00:00Z'),
});

describe('layerBoundaries at its edges', () => {
  test('a boundary at `to` is in (from, to]', () => {
    expect(
      iso(
        layerBoundaries(
          layer({ cadence: 'daily' }),
          'UTC',
          at('2027-01-05T12:00:00Z'),
          at('2027-01-07T09:00:00Z'),
        ),
      ),
    ).toEqual(['2027-01-06T09:00:00.000Z', '2027-01-07T09:00:00.000Z']);
  });

  test('the hour New York skips in spring: its two boundaries are one instant, listed once', () => {
    expect(
      iso(
        layerBoundaries(
          hourly,
          'America/New_York',
          at('2027-03-14T03:30:00Z'),
          at('2027-03-14T09:30:00Z'),
        ),
      ),
    ).toEqual([
      '2027-03-14T04:00:00.000Z',
      '2027-03-14T05:00:00.000Z',
      '2027-03-14T06:00:00.000Z',
      '2027-03-14T07:00:00.000Z',
      '2027-03-14T08:00:00.000Z',
      '2027-03-14T09:00:00.000Z',
    ]);
  });

  test('bounded at ten years of hourly boundaries', () => {
    const utcHourly = layer({
      cadence: 'hourly',
      handoffTime: '00:00',
      startsAt: at('2027-01-01T00:00:00Z'),
    });
    const boundaries = layerBoundaries(
      utcHourly,
      'UTC',
      at('2027-01-01T00:00:00Z'),
      at('2038-01-01T00:00:00Z'),
    );
    expect(boundaries).toHaveLength(87_700);
    expect(boundaries.at(-1)).toEqual(new Date(Date.parse('2027-01-01T00:00:00Z') + 87_700 * HOUR));
  });
});

describe('layeredSegments at its edges', () => {
  test('a layer without members: nobody', () => {
    expect(
      layeredSegments(
        [layer({ memberIds: [] })],
        'UTC',
        at('2027-01-05T00:00:00Z'),
        at('2027-01-06T00:00:00Z'),
      ),
    ).toEqual([
      {
        start: at('2027-01-05T00:00:00Z'),
        end: at('2027-01-06T00:00:00Z'),
        memberId: null,
        layerIndex: null,
      },
    ]);
  });

  test('one member from two layers, one after the other: two segments', () => {
    const base = layer({ memberIds: [1] });
    const business = layer({
      memberIds: [1],
      activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '09:00', end: '17:00' }],
    });
    expect(
      layeredSegments(
        [base, business],
        'UTC',
        at('2027-01-05T00:00:00Z'),
        at('2027-01-06T00:00:00Z'),
      ).map((s) => [s.start.toISOString(), s.memberId, s.layerIndex]),
    ).toEqual([
      ['2027-01-05T00:00:00.000Z', 1, 0],
      ['2027-01-05T09:00:00.000Z', 1, 1],
      ['2027-01-05T17:00:00.000Z', 1, 0],
    ]);
  });
});

describe('nextChangeAfter from nobody on call', () => {
  test('the next window start', () => {
    const business = layer({
      activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '09:00', end: '17:00' }],
    });
    expect(nextChangeAfter([business], 'UTC', at('2027-01-05T20:00:00Z'))).toEqual(
      at('2027-01-06T09:00:00Z'),
    );
  });
});
