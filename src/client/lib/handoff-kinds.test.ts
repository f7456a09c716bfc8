import { expect, test } from 'vitest';
import { handoffKindLabel } from './handoff-kinds';

test('each kind of handoff has its own words, and an unknown kind reads "Handoff"', () => {
  const kinds = [
    'take',
    'start',
    'pass',
    'reassign',
    'auto',
    'schedule',
    'coverage',
    'coverage_end',
    'member_removed',
  ];
  const labels = kinds.map(handoffKindLabel);
  expect(labels).toEqual([
    'Took on-call',
    'First on call',
    'Passed by hand',
    'Reassigned',
    'Automatic handoff',
    'Scheduled handoff',
    'Coverage started',
    'Coverage ended',
    'Holder removed from rotation',
  ]);
  expect(new Set(labels).size).toBe(kinds.length);
  expect(handoffKindLabel('something_new')).toBe('Handoff');
});
