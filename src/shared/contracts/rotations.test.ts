import { describe, expect, test } from 'vitest';
import type { Layer } from '../domain/layers';
import { type LayerInput, LayerInputSchema } from './rotations';

const london: LayerInput = {
  name: 'London',
  memberIds: [1, 2, 3],
  cadence: 'weekly',
  handoffTime: '07:00',
  handoffWeekday: 1,
  activeWindows: [{ days: [0, 1, 2, 3, 4, 5, 6], start: '07:00', end: '19:00' }],
};

/** The messages a layer is refused with, keyed by the field's path. */
function refusals(body: unknown): Record<string, string> {
  const result = LayerInputSchema.safeParse(body);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

describe('LayerInputSchema', () => {
  test('a follow-the-sun leg reads as written, N defaulting to 1, a layer but for its start', () => {
    const parsed: Omit<Layer, 'startsAt'> = LayerInputSchema.parse(london);
    expect(parsed).toEqual({ ...london, cadenceEvery: 1 });
  });

  test('no windows, a 12-hour shift and a window past midnight are all fine', () => {
    expect(
      LayerInputSchema.parse({
        name: 'Nights',
        memberIds: [4, 5],
        cadence: 'hourly',
        cadenceEvery: 12,
        handoffTime: '08:00',
      }),
    ).toEqual({
      name: 'Nights',
      memberIds: [4, 5],
      cadence: 'hourly',
      cadenceEvery: 12,
      handoffTime: '08:00',
      handoffWeekday: 1,
      activeWindows: [],
    });
    const weekends = { days: [6, 0], start: '00:00', end: '00:00' };
    const late = { days: [5], start: '22:00', end: '07:00' };
    expect(refusals({ ...london, activeWindows: [weekends, late] })).toEqual({});
  });

  test.each([
    ['hourly', 168, 169, 'Shift length must be at most 168 hours'],
    ['daily', 365, 366, 'Shift length must be at most 365 days'],
    ['weekly', 52, 53, 'Shift length must be at most 52 weeks'],
  ])('a %s layer takes N up to %i', (cadence, most, tooMany, message) => {
    expect(refusals({ ...london, cadence, cadenceEvery: most })).toEqual({});
    expect(refusals({ ...london, cadence, cadenceEvery: tooMany })).toEqual({
      cadenceEvery: message,
    });
  });

  test.each([
    [{ name: '  ' }, 'name', 'Enter a layer name'],
    [{ memberIds: [] }, 'memberIds', 'Add at least one member to the layer'],
    [{ memberIds: [0] }, 'memberIds.0', 'A member must be a whole number from 1 to 2147483647'],
    [
      { cadence: 'monthly' },
      'cadence',
      'Shift length must be counted in hours (hourly), days (daily) or weeks (weekly)',
    ],
    [{ cadenceEvery: 0 }, 'cadenceEvery', 'Shift length must be at least 1'],
    [
      { cadenceEvery: 1.5 },
      'cadenceEvery',
      'Shift length must be a whole number of hours, days or weeks',
    ],
    [{ handoffTime: '7:00' }, 'handoffTime', 'Handoff time must be HH:MM (24-hour)'],
    [{ handoffTime: undefined }, 'handoffTime', 'Enter the handoff time as HH:MM'],
    [
      { handoffWeekday: 7 },
      'handoffWeekday',
      'Handoff weekday must be a number from 0 (Sunday) to 6 (Saturday)',
    ],
    [
      { activeWindows: [{ days: [], start: '09:00', end: '17:00' }] },
      'activeWindows.0.days',
      'Choose at least one day',
    ],
    [
      { activeWindows: [{ days: [7], start: '09:00', end: '17:00' }] },
      'activeWindows.0.days.0',
      'A day must be a number from 0 (Sunday) to 6 (Saturday)',
    ],
    [
      { activeWindows: [{ days: [1, 1], start: '09:00', end: '17:00' }] },
      'activeWindows.0.days',
      'Each day may be chosen once',
    ],
    [
      { activeWindows: [{ days: [1], start: '24:00', end: '17:00' }] },
      'activeWindows.0.start',
      'Window start must be HH:MM (24-hour)',
    ],
    [
      { activeWindows: [{ days: [1], start: '09:00' }] },
      'activeWindows.0.end',
      'Enter the window end as HH:MM',
    ],
  ])('%j is refused at the field', (change, path, message) => {
    expect(refusals({ ...london, ...change })).toEqual({ [path]: message });
  });
});
