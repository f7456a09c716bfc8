import { describe, expect, it } from 'vitest';
import { compareRenderings, overlay, renderSchedule } from './snapshot-rendering';
import type { SourceSchedule } from './source-snapshot';

const at = (iso: string) => new Date(iso);

describe('renderSchedule', () => {
  it('renders daily turns in the schedule zone and lays overrides on top', () => {
    const schedule: SourceSchedule = {
      sourceId: 'S1',
      name: 'Platform',
      timeZone: 'Europe/London',
      layers: [
        {
          name: 'Layer 1',
          memberSourceIds: ['a', 'b'],
          cadence: 'daily',
          cadenceEvery: 1,
          handoffTime: '09:00',
          handoffWeekday: 1,
          activeWindows: [],
          startsAt: at('2026-03-27T09:00:00Z'),
        },
      ],
      overrides: [
        { start: at('2026-03-28T12:00:00Z'), end: at('2026-03-28T13:00:00Z'), personSourceId: 'c' },
      ],
      rendered: [],
    };
    const shifts = renderSchedule(schedule, at('2026-03-27T09:00:00Z'), at('2026-03-30T08:00:00Z'));
    expect(shifts.map((s) => [s.start.toISOString(), s.personSourceId])).toEqual([
      ['2026-03-27T09:00:00.000Z', 'a'],
      ['2026-03-28T09:00:00.000Z', 'b'],
      ['2026-03-28T12:00:00.000Z', 'c'],
      ['2026-03-28T13:00:00.000Z', 'b'],
      // the clocks went forward on 29 March: 09:00 London is 08:00 UTC
      ['2026-03-29T08:00:00.000Z', 'a'],
    ]);
  });
});

describe('compareRenderings', () => {
  it('finds no difference between equal renderings cut differently', () => {
    const one = [
      { start: at('2026-01-01T00:00:00Z'), end: at('2026-01-03T00:00:00Z'), personSourceId: 'a' },
    ];
    const two = overlay(
      [{ start: at('2026-01-01T00:00:00Z'), end: at('2026-01-02T00:00:00Z'), personSourceId: 'a' }],
      [{ start: at('2026-01-02T00:00:00Z'), end: at('2026-01-03T00:00:00Z'), personSourceId: 'a' }],
    );
    expect(
      compareRenderings(one, two, at('2026-01-01T00:00:00Z'), at('2026-01-03T00:00:00Z')),
    ).toEqual([]);
  });

  it('names each differing stretch with both people, and a gap as nobody', () => {
    const expected = [
      { start: at('2026-01-01T00:00:00Z'), end: at('2026-01-02T00:00:00Z'), personSourceId: 'a' },
      { start: at('2026-01-02T00:00:00Z'), end: at('2026-01-03T00:00:00Z'), personSourceId: 'b' },
    ];
    const actual = [
      { start: at('2026-01-01T00:00:00Z'), end: at('2026-01-02T06:00:00Z'), personSourceId: 'a' },
      { start: at('2026-01-02T08:00:00Z'), end: at('2026-01-03T00:00:00Z'), personSourceId: 'b' },
    ];
    expect(
      compareRenderings(expected, actual, at('2026-01-01T00:00:00Z'), at('2026-01-03T00:00:00Z')),
    ).toEqual([
      {
        start: at('2026-01-02T00:00:00Z'),
        end: at('2026-01-02T06:00:00Z'),
        expected: 'b',
        actual: 'a',
      },
      {
        start: at('2026-01-02T06:00:00Z'),
        end: at('2026-01-02T08:00:00Z'),
        expected: 'b',
        actual: null,
      },
    ]);
  });

  it('ignores a stretch shorter than a minute', () => {
    const expected = [
      { start: at('2026-01-01T00:00:00Z'), end: at('2026-01-02T00:00:00Z'), personSourceId: 'a' },
    ];
    const actual = [
      { start: at('2026-01-01T00:00:30Z'), end: at('2026-01-02T00:00:00Z'), personSourceId: 'a' },
    ];
    expect(
      compareRenderings(expected, actual, at('2026-01-01T00:00:00Z'), at('2026-01-02T00:00:00Z')),
    ).toEqual([]);
  });
});
