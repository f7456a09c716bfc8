import { describe, expect, test } from 'vitest';
import { validateScheduleForm } from './schedule-form';

const valid = {
  userId: '3',
  startTime: '2026-03-10T12:00:00.000Z',
  endTime: '2026-03-11T12:00:00.000Z',
};

describe('validateScheduleForm', () => {
  test('a complete entry passes', () => {
    expect(validateScheduleForm(valid)).toEqual({});
  });
  test.each([
    [{ userId: '' }, { userId: 'Please select a team member' }],
    [{ startTime: '' }, { startTime: 'Start time must be a valid date and time' }],
    [{ endTime: 'soon' }, { endTime: 'End time must be a valid date and time' }],
    [{ endTime: valid.startTime }, { endTime: 'End time must be after start time' }],
    [{ endTime: '2026-03-09T12:00:00.000Z' }, { endTime: 'End time must be after start time' }],
  ])('%j gives %j', (change, errors) => {
    expect(validateScheduleForm({ ...valid, ...change })).toEqual(errors);
  });
});
