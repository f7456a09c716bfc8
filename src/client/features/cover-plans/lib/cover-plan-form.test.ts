import { expect, test } from 'vitest';
import { coverPlanFormSchema, upcomingOf, windowOf } from './cover-plan-form';

const at = (iso: string) => new Date(iso);

test('windowOf reads the form’s window in the viewer’s zone, or null until it is one', () => {
  expect(windowOf('2026-11-10T09:00', '2026-11-10T17:00', 'Europe/Berlin')).toEqual({
    startTime: '2026-11-10T08:00:00.000Z',
    endTime: '2026-11-10T16:00:00.000Z',
  });
  expect(windowOf('2026-11-10T09:00', '', 'UTC')).toBeNull();
  expect(windowOf('2026-11-10T17:00', '2026-11-10T09:00', 'UTC')).toBeNull();
});

test('upcomingOf lists one person’s shifts still to come, the running one from now', () => {
  const shifts = [
    { userId: 2, start: at('2026-11-12T09:00:00Z'), end: at('2026-11-13T09:00:00Z') },
    { userId: 1, start: at('2026-11-09T09:00:00Z'), end: at('2026-11-10T09:00:00Z') },
    { userId: 1, start: at('2026-11-11T09:00:00Z'), end: at('2026-11-12T09:00:00Z') },
    { userId: 1, start: at('2026-11-13T09:00:00Z'), end: at('2026-11-14T09:00:00Z') },
  ];
  expect(
    upcomingOf(shifts, 1, at('2026-11-11T12:00:00Z')).map((s) => [
      s.start.toISOString(),
      s.end.toISOString(),
    ]),
  ).toEqual([
    ['2026-11-11T12:00:00.000Z', '2026-11-12T09:00:00.000Z'],
    ['2026-11-13T09:00:00.000Z', '2026-11-14T09:00:00.000Z'],
  ]);
});

test('the form asks for a covering member and an end after the start', () => {
  const parsed = coverPlanFormSchema('UTC').safeParse({
    requesterId: '4',
    window: 'custom',
    coveringUserId: '',
    startTime: '2026-11-10T17:00',
    endTime: '2026-11-10T09:00',
    notes: '',
  });
  const messages = Object.fromEntries(
    (parsed.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]),
  );
  expect(messages).toEqual({
    coveringUserId: 'Please select a team member to cover the window',
    endTime: 'End time must be after start time',
  });
});
