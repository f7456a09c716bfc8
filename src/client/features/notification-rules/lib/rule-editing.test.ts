import { expect, test } from 'vitest';
import { moved, nextRule, problemsOf } from './rule-editing';

test('moving a rule up and down, never out of the list', () => {
  expect(moved(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
  expect(moved(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
  expect(moved(['a', 'b'], 0, -1)).toEqual(['a', 'b']);
  expect(moved(['a', 'b'], 1, 1)).toEqual(['a', 'b']);
});

test('a new rule is email a minute after the last, at most an hour', () => {
  expect(nextRule([])).toEqual({ method: 'email', delayMinutes: 0 });
  expect(nextRule([{ method: 'sms', delayMinutes: 4 }])).toEqual({
    method: 'email',
    delayMinutes: 5,
  });
  expect(nextRule([{ method: 'sms', delayMinutes: 60 }]).delayMinutes).toBe(60);
});

test('the problems name their fields', () => {
  expect(
    problemsOf({
      high: [{ method: 'sms', delayMinutes: 61 }],
      low: [],
    }),
  ).toEqual({
    'high.0.delayMinutes': 'The delay is a whole number of minutes from 0 to 60',
    low: 'Add at least one rule for low urgency',
  });
  expect(
    problemsOf({
      high: [{ method: 'sms', delayMinutes: 0 }],
      low: [{ method: 'email', delayMinutes: 0 }],
    }),
  ).toEqual({});
});
