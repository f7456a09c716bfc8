import { describe, expect, test } from 'vitest';
import { fromLocalInput } from '@/lib/format-time';
import { validateCoverage } from './coverage-form';

const valid = {
  coveringUserId: '4',
  startTime: '2026-03-10T09:00',
  endTime: '2026-03-10T17:00',
  requesterIsHolder: true,
};

describe('validateCoverage', () => {
  test('a complete request by the holder passes', () => {
    expect(validateCoverage(valid)).toEqual({});
  });

  test.each([
    [{ coveringUserId: '' }, { coveringUserId: 'Please select a team member to cover you' }],
    [{ startTime: '' }, { startTime: 'Please select a start time' }],
    [{ endTime: '' }, { endTime: 'Please select an end time' }],
    [{ endTime: '2026-03-10T09:00' }, { endTime: 'End time must be after start time' }],
    [{ endTime: '2026-03-09T09:00' }, { endTime: 'End time must be after start time' }],
    [{ requesterIsHolder: false }, { form: 'You must be on-call to request coverage' }],
  ])('%j gives %j', (change, errors) => {
    expect(validateCoverage({ ...valid, ...change })).toEqual(errors);
  });
});

test('fromLocalInput reads a datetime-local value in the zone asked for', () => {
  expect(fromLocalInput('2026-03-05T08:09', 'Europe/Berlin')?.toISOString()).toBe(
    '2026-03-05T07:09:00.000Z',
  );
  // After Berlin's change to summer time the offset is two hours.
  expect(fromLocalInput('2026-03-30T09:00', 'Europe/Berlin')?.toISOString()).toBe(
    '2026-03-30T07:00:00.000Z',
  );
  expect(fromLocalInput('', 'UTC')).toBeNull();
  expect(fromLocalInput('yesterday', 'UTC')).toBeNull();
});
