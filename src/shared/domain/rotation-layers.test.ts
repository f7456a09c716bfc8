import { describe, expect, test } from 'vitest';
import { LayerInputSchema, type RotationLayer } from '../contracts/rotations';
import {
  followsWindows,
  isLayered,
  layeredHolderAt,
  layerReadsOf,
  layerWindowsOf,
  patternInWords,
  projectionLayersOf,
  rowFieldsOfLayers,
  storedLayersOf,
  withoutMember,
} from './rotation-layers';

const NOW = new Date('2027-05-03T11:00:00Z');
const spec = {
  type: 'fixed',
  layers: null,
  cadence: 'weekly',
  cadenceEvery: 1,
  handoffTime: '09:00',
  handoffWeekday: 1,
  createdAt: new Date('2027-01-04T09:00:00Z'),
};
const day: RotationLayer = {
  name: 'Day',
  memberIds: [1, 2],
  cadence: 'daily',
  cadenceEvery: 1,
  handoffTime: '09:00',
  handoffWeekday: 1,
  activeWindows: [],
  startsAt: '2027-05-01T09:00:00.000Z',
};
const input = (over: object) => LayerInputSchema.parse({ ...day, startsAt: undefined, ...over });

describe('a rotation’s layers', () => {
  test('a fixed rotation with layers follows them; with an empty list it does not', () => {
    expect(isLayered({ ...spec, layers: [day] })).toBe(true);
    expect(followsWindows({ ...spec, layers: [day] })).toBe(true);
    expect(isLayered({ ...spec, layers: [] })).toBe(false);
    expect(layerReadsOf({ ...spec, layers: [day] }, [3, 1])).toEqual([day]);
    expect(layerReadsOf({ ...spec, layers: [] }, [3, 1])[0].name).toBe('Layer 1');
  });

  test('the first layer’s shift is the rotation’s fields', () => {
    const weekly: RotationLayer = { ...day, cadence: 'weekly', cadenceEvery: 2, handoffWeekday: 5 };
    expect(rowFieldsOfLayers([weekly, day])).toEqual({
      cadence: 'weekly',
      cadenceEvery: 2,
      handoffTime: '09:00',
      handoffWeekday: 5,
    });
  });

  test('who the layers name at an instant, among those who may hold the baton', () => {
    const row = { layers: [day], timeZone: 'UTC' };
    // turns from 1 May 09:00: 1, then 2 on 2 May, 1 on 3 May
    expect(layeredHolderAt(row, new Set([1, 2]), new Date('2027-05-02T12:00:00Z'))).toBe(2);
    expect(layeredHolderAt(row, new Set([1]), new Date('2027-05-02T12:00:00Z'))).toBe(1);
    expect(layeredHolderAt(row, new Set(), new Date('2027-05-02T12:00:00Z'))).toBeNull();
    expect(layeredHolderAt({ layers: null, timeZone: 'UTC' }, new Set([1]), NOW)).toBeNull();
  });

  test('a layer keeps its old start only when its shift is the same: length, time and, weekly, weekday', () => {
    const weekly: RotationLayer = { ...day, cadence: 'weekly', handoffWeekday: 1 };
    const kept = (over: object, before: RotationLayer = day) =>
      storedLayersOf([input(over)], [before], NOW)[0].startsAt === before.startsAt;
    expect(kept({})).toBe(true);
    expect(kept({ cadence: 'weekly' })).toBe(false);
    expect(kept({ cadenceEvery: 2 })).toBe(false);
    expect(kept({ handoffWeekday: 3 })).toBe(true);
    expect(kept({ cadence: 'weekly', handoffWeekday: 1 }, weekly)).toBe(true);
    expect(kept({ cadence: 'weekly', handoffWeekday: 3 }, weekly)).toBe(false);
  });

  test('stored layers are copies: changing the request after does not change them', () => {
    const request = input({
      memberIds: [1, 2],
      activeWindows: [{ days: [1, 2], start: '09:00', end: '17:00' }],
    });
    const [stored] = storedLayersOf([request], null, NOW);
    expect(stored.memberIds).toEqual([1, 2]);
    expect(stored.activeWindows).toEqual([{ days: [1, 2], start: '09:00', end: '17:00' }]);
    request.memberIds.push(3);
    request.activeWindows[0].days.push(3);
    expect(stored.memberIds).toEqual([1, 2]);
    expect(stored.activeWindows[0].days).toEqual([1, 2]);
  });

  test('a rotation of the specification’s fields reads as one layer of them, always on duty', () => {
    expect(isLayered(spec)).toBe(false);
    expect(followsWindows(spec)).toBe(false);
    expect(layerReadsOf(spec, [3, 1])).toEqual([
      {
        name: 'Layer 1',
        memberIds: [3, 1],
        cadence: 'weekly',
        cadenceEvery: 1,
        handoffTime: '09:00',
        handoffWeekday: 1,
        activeWindows: [],
        startsAt: '2027-01-04T09:00:00.000Z',
      },
    ]);
    expect(patternInWords(spec, [3, 1])).toBe('Weekly shifts from Monday 09:00');
  });

  test('a scheduled rotation follows windows and says so in words, never "Daily"', () => {
    const scheduled = { ...spec, type: 'scheduled', cadence: 'daily' };
    expect(followsWindows(scheduled)).toBe(true);
    expect(isLayered({ ...scheduled, layers: [day] })).toBe(false);
    expect(patternInWords(scheduled, [])).toBe('Scheduled entries');
  });

  test('a layer keeps the start it is given, or its old start when its shift is the same, or starts now', () => {
    const stored = storedLayersOf(
      [
        input({ memberIds: [1, 2, 3] }),
        input({ name: 'Night', startsAt: '2027-04-30T21:00:00Z' }),
        input({ name: 'New', handoffTime: '10:00' }),
      ],
      [day, day, day],
      NOW,
    );
    expect(stored.map((l) => l.startsAt)).toEqual([
      '2027-05-01T09:00:00.000Z',
      '2027-04-30T21:00:00.000Z',
      NOW.toISOString(),
    ]);
    expect(storedLayersOf([input({})], null, NOW)[0].startsAt).toBe(NOW.toISOString());
  });

  test('the projection keeps turn orders to who may hold the baton; someone who leaves goes', () => {
    const layers = projectionLayersOf(
      { layers: [{ ...day, memberIds: [1, 2, 3] }] },
      new Set([1, 3]),
    );
    expect(layers[0].memberIds).toEqual([1, 3]);
    expect(layers[0].startsAt).toEqual(new Date(day.startsAt));
    expect(withoutMember([{ ...day, memberIds: [1, 2, 1] }], 1)[0].memberIds).toEqual([2]);
  });

  test('the layers’ stretches leave out nobody, as a scheduled rotation’s entries do', () => {
    const weekdays: RotationLayer = {
      ...day,
      activeWindows: [{ days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00' }],
    };
    const windows = layerWindowsOf(
      projectionLayersOf({ layers: [weekdays] }, new Set([1, 2])),
      'UTC',
      new Date('2027-05-03T00:00:00Z'),
      new Date('2027-05-05T00:00:00Z'),
    );
    expect(windows.map((w) => [w.userId, w.start.toISOString(), w.end.toISOString()])).toEqual([
      [1, '2027-05-03T09:00:00.000Z', '2027-05-03T17:00:00.000Z'],
      [2, '2027-05-04T09:00:00.000Z', '2027-05-04T17:00:00.000Z'],
    ]);
  });
});
