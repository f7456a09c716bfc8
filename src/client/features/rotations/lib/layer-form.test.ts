import type { RotationLayer } from '@shared/contracts/rotations';
import { describe, expect, test } from 'vitest';
import {
  formFieldOf,
  type LayerFormValues,
  layerFormValuesOf,
  moved,
  newLayer,
  newWindow,
  previewPattern,
  RotationFormSchema,
  type RotationFormValues,
  rotationRequestOf,
  updateRequestOf,
} from './layer-form';

const EVERY_DAY = [0, 1, 2, 3, 4, 5, 6];

const layer = (fields: Partial<LayerFormValues>): LayerFormValues => ({
  ...newLayer(1, { cadence: 'weekly', cadenceEvery: 1, handoffTime: '07:00', handoffWeekday: 1 }),
  ...fields,
});

// The issue's follow-the-sun rotation as a manager fills the form in.
const london = layer({
  name: 'London',
  memberIds: [3, 4],
  activeWindows: [{ days: [6, 0, 1, 2, 3, 4, 5], start: '07:00', end: '19:00' }],
  startsAt: '2027-03-29T07:00',
});
const sydney = layer({
  name: 'Sydney',
  memberIds: [5],
  handoffTime: '19:00',
  activeWindows: [{ days: EVERY_DAY, start: '19:00', end: '07:00' }],
});

const form = (fields: Partial<RotationFormValues>): RotationFormValues => ({
  name: 'Follow the sun',
  description: '',
  type: 'fixed',
  cadence: 'weekly',
  timeZone: 'Europe/London',
  handoffTime: '09:00',
  handoffWeekday: 1,
  pattern: 'layers',
  layers: [london, sydney],
  ...fields,
});

const refusals = (values: RotationFormValues) => {
  const result = RotationFormSchema.safeParse(values);
  expect(result.success).toBe(false);
  return Object.fromEntries(
    (result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]),
  );
};

describe('the rotation form as a request', () => {
  test('layers become the request: windows, days in week order, the start in the zone', () => {
    const request = rotationRequestOf(form({}));
    expect(request).toEqual({
      name: 'Follow the sun',
      description: '',
      type: 'fixed',
      timeZone: 'Europe/London',
      layers: [
        {
          name: 'London',
          memberIds: [3, 4],
          cadence: 'weekly',
          cadenceEvery: 1,
          handoffTime: '07:00',
          handoffWeekday: 1,
          activeWindows: [{ days: EVERY_DAY, start: '07:00', end: '19:00' }],
          // 07:00 British Summer Time
          startsAt: '2027-03-29T06:00:00.000Z',
        },
        {
          name: 'Sydney',
          memberIds: [5],
          cadence: 'weekly',
          cadenceEvery: 1,
          handoffTime: '19:00',
          handoffWeekday: 1,
          activeWindows: [{ days: EVERY_DAY, start: '19:00', end: '07:00' }],
        },
      ],
    });
    // The cadence and handoff of the specification's form are not sent beside layers.
    expect(request).not.toHaveProperty('cadence');
    expect(request).not.toHaveProperty('handoffTime');
    const parsed = RotationFormSchema.safeParse(form({}));
    expect(parsed.success).toBe(true);
    expect(parsed.data?.layers?.[1].startsAt).toBeUndefined();
  });

  test("the specification's cadence sends no layers, nor does a scheduled rotation", () => {
    for (const values of [form({ pattern: 'cadence' }), form({ type: 'scheduled' })]) {
      const request = rotationRequestOf(values);
      expect(request).not.toHaveProperty('layers');
      expect(request).toMatchObject({ cadence: 'weekly', handoffTime: '09:00', handoffWeekday: 1 });
    }
  });

  test('the shared contract refuses, each refusal on the form field it belongs to', () => {
    expect(
      refusals(
        form({
          layers: [
            { ...london, memberIds: [], cadence: 'hourly', cadenceEvery: 200 },
            {
              ...sydney,
              name: ' ',
              cadenceEvery: Number.NaN,
              activeWindows: [{ days: [], start: '19:00', end: '7pm' }],
              startsAt: 'next Monday',
            },
          ],
        }),
      ),
    ).toEqual({
      'layers.0.memberIds': 'Add at least one member to the layer',
      'layers.0.cadenceEvery': 'Shift length must be at most 168 hours',
      'layers.1.name': 'Enter a layer name',
      'layers.1.cadenceEvery': 'Shift length must be a whole number of hours, days or weeks',
      'layers.1.activeWindows.0.days': 'Choose at least one day',
      'layers.1.activeWindows.0.end': 'Window end must be HH:MM (24-hour)',
      'layers.1.startsAt': 'Layer start must be a valid date and time',
    });
    expect(refusals(form({ layers: [] }))).toEqual({
      layers: 'Give the rotation at least one layer',
    });
    // Days up to a year are fine; a week more is not.
    const daily = { ...london, cadence: 'daily' as const };
    expect(
      RotationFormSchema.safeParse(form({ layers: [{ ...daily, cadenceEvery: 365 }] })).success,
    ).toBe(true);
    expect(refusals(form({ layers: [{ ...daily, cadenceEvery: 366 }] }))).toEqual({
      'layers.0.cadenceEvery': 'Shift length must be at most 365 days',
    });
  });
});

describe('a new rotation made with its members (decision 255)', () => {
  const simple = (fields: Partial<RotationFormValues>) =>
    form({ pattern: 'cadence', layers: [], cadence: 'daily', ...fields });

  test('members go in turn order, with who is on call first', () => {
    expect(rotationRequestOf(simple({ memberIds: [4, 3, 5], firstOnCallId: 3 }))).toMatchObject({
      memberIds: [4, 3, 5],
      firstOnCallId: 3,
    });
  });

  test('the first on call left unchosen, or taken out of the members, is left to the server (the first member)', () => {
    const request = rotationRequestOf(simple({ memberIds: [4, 3], firstOnCallId: 9 }));
    expect(request.memberIds).toEqual([4, 3]);
    expect(request).not.toHaveProperty('firstOnCallId');
    expect(rotationRequestOf(simple({ memberIds: [4, 3] }))).not.toHaveProperty('firstOnCallId');
  });

  test('no members, a scheduled rotation and layers each send what the server takes', () => {
    const none = rotationRequestOf(simple({ memberIds: [] }));
    expect(none).not.toHaveProperty('memberIds');
    const scheduled = rotationRequestOf(
      simple({ type: 'scheduled', memberIds: [4, 3], firstOnCallId: 3 }),
    );
    expect(scheduled).toMatchObject({ memberIds: [4, 3] });
    expect(scheduled).not.toHaveProperty('firstOnCallId');
    const layered = rotationRequestOf(form({ memberIds: [4], firstOnCallId: 4 }));
    expect(layered).not.toHaveProperty('memberIds');
    expect(layered).not.toHaveProperty('firstOnCallId');
  });

  test('the edit form never sends members: they change on the rotation page', () => {
    const request = RotationFormSchema.parse(simple({ memberIds: [4, 3], firstOnCallId: 3 }));
    const { input } = updateRequestOf(request, { layered: false, canChangeType: true });
    expect(input).not.toHaveProperty('memberIds');
    expect(input).not.toHaveProperty('firstOnCallId');
  });
});

describe('a layer read back', () => {
  const read: RotationLayer = {
    name: 'London',
    memberIds: [3, 4],
    cadence: 'weekly',
    cadenceEvery: 1,
    handoffTime: '07:00',
    handoffWeekday: 1,
    activeWindows: [{ days: EVERY_DAY, start: '07:00', end: '19:00' }],
    startsAt: '2027-03-29T06:00:41.512Z',
  };

  test('shows its start in the zone and sends it back to the millisecond while unchanged', () => {
    const values = layerFormValuesOf(read, 'Europe/London');
    expect(values.startsAt).toBe('2027-03-29T07:00');
    const [sent] = rotationRequestOf(form({ layers: [values] })).layers ?? [];
    expect(sent).toEqual({ ...read, startsAt: '2027-03-29T06:00:41.512Z' });
    const [changed] =
      rotationRequestOf(form({ layers: [{ ...values, startsAt: '2027-04-05T07:00' }] })).layers ??
      [];
    expect(changed.startsAt).toBe('2027-04-05T06:00:00.000Z');
    const [cleared] =
      rotationRequestOf(form({ layers: [{ ...values, startsAt: '' }] })).layers ?? [];
    expect(cleared).not.toHaveProperty('startsAt');
  });

  test('the form edits copies, not the read', () => {
    const values = layerFormValuesOf(read, 'UTC');
    values.memberIds.push(9);
    values.activeWindows[0].days.pop();
    expect(read.memberIds).toEqual([3, 4]);
    expect(read.activeWindows[0].days).toEqual(EVERY_DAY);
  });
});

describe('the pattern in words while it is typed', () => {
  test("the issue's follow-the-sun rotation, whoever its members", () => {
    expect(previewPattern([london, { ...sydney, memberIds: [] }])).toEqual({
      words: 'Follow the sun: London 07:00–19:00, Sydney 19:00–07:00',
      incomplete: false,
    });
  });

  test('12-hour shifts, weekends, and business hours with after hours', () => {
    const twelve = layer({
      name: 'Shifts',
      cadence: 'hourly',
      cadenceEvery: 12,
      handoffTime: '08:00',
    });
    expect(previewPattern([twelve])?.words).toBe('12-hour shifts at 08:00 and 20:00');
    const weekend = layer({
      name: 'Weekend',
      activeWindows: [{ days: [6, 0], start: '00:00', end: '00:00' }],
    });
    expect(previewPattern([weekend])?.words).toBe('Weekends all day, weekly turns');
    const afterHours = layer({ name: 'After hours', cadence: 'daily' });
    const business = layer({ name: 'Business hours', activeWindows: [newWindow()] });
    expect(previewPattern([afterHours, business])?.words).toBe(
      'After hours: Daily shifts at 07:00; Business hours: Weekdays 09:00–17:00, weekly turns',
    );
  });

  test('a layer with a field to fix is left out; none left: no words', () => {
    const broken = { ...sydney, activeWindows: [{ days: EVERY_DAY, start: '19:00', end: '' }] };
    expect(previewPattern([london, broken])).toEqual({
      words: 'Every day 07:00–19:00, weekly turns',
      incomplete: true,
    });
    expect(previewPattern([{ ...london, cadenceEvery: 500 }])).toBeNull();
    expect(previewPattern([{ ...london, handoffTime: '' }])).toBeNull();
    expect(previewPattern([])).toBeNull();
  });
});

describe('refusals from the server beside their fields', () => {
  test.each([
    ['name', 'name'],
    ['handoffTime', 'handoffTime'],
    ['layers', 'layers'],
    ['layers.0.memberIds', 'layers.0.memberIds'],
    ['layers.2.memberIds.1', 'layers.2.memberIds'],
    ['layers.1.activeWindows.0.start', 'layers.1.activeWindows.0.start'],
    ['layers.1.activeWindows.3.days.2', 'layers.1.activeWindows.3.days'],
    ['layers.1.activeWindows', 'layers.1.activeWindows'],
    ['layers.0.startsAt', 'layers.0.startsAt'],
    ['layers.0', 'layers.0.name'],
    ['memberIds', 'memberIds'],
    ['memberIds.2', 'memberIds'],
    ['firstOnCallId', 'firstOnCallId'],
    ['escalationPolicyId', null],
    ['name.first', null],
  ])('%s shows beside %s', (key, field) => {
    expect(formFieldOf(key)).toBe(field);
  });
});

describe('the edit form as a PATCH', () => {
  const parsed = (values: RotationFormValues) => {
    const result = RotationFormSchema.safeParse(values);
    if (!result.success) throw result.error;
    return result.data;
  };

  test('a layered rotation sends its layers, not the cadence and handoff', () => {
    const { input, unlayers } = updateRequestOf(parsed(form({})), {
      layered: true,
      canChangeType: false,
    });
    expect(unlayers).toBe(false);
    expect(input.layers).toHaveLength(2);
    expect(input).not.toHaveProperty('cadence');
    expect(input).not.toHaveProperty('handoffTime');
    expect(input).not.toHaveProperty('type');
  });

  test('returning to the cadence sends layers: null with the shift, to be confirmed', () => {
    const { input, unlayers } = updateRequestOf(
      parsed(form({ pattern: 'cadence', cadence: 'daily' })),
      { layered: true, canChangeType: true },
    );
    expect(unlayers).toBe(true);
    expect(input).toMatchObject({
      layers: null,
      cadence: 'daily',
      handoffTime: '09:00',
      handoffWeekday: 1,
      type: 'fixed',
    });
  });

  test('a simple rotation stays simple; a layered one made scheduled keeps its layers', () => {
    const simple = updateRequestOf(parsed(form({ pattern: 'cadence' })), {
      layered: false,
      canChangeType: false,
    });
    expect(simple).toEqual({
      input: {
        name: 'Follow the sun',
        description: null,
        timeZone: 'Europe/London',
        cadence: 'weekly',
        handoffTime: '09:00',
        handoffWeekday: 1,
      },
      unlayers: false,
    });
    const scheduled = updateRequestOf(parsed(form({ type: 'scheduled' })), {
      layered: true,
      canChangeType: true,
    });
    expect(scheduled.unlayers).toBe(false);
    expect(scheduled.input).not.toHaveProperty('layers');
    expect(scheduled.input).not.toHaveProperty('cadence');
    expect(scheduled.input.type).toBe('scheduled');
  });
});

test('moved moves one item within the list', () => {
  expect(moved([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
  expect(moved([1, 2, 3], 2, 1)).toEqual([1, 3, 2]);
  expect(moved([1, 2, 2], 1, 2)).toEqual([1, 2, 2]);
});
