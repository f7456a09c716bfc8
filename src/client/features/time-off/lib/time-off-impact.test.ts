import type { ShiftMove } from '@shared/contracts/time-off';
import { expect, test } from 'vitest';
import { impactLines } from './time-off-impact';

const move = (start: string, to: string | null, rotationId = 1): ShiftMove => ({
  rotationId,
  rotationName: rotationId === 1 ? 'Payments' : 'Search',
  timeZone: 'UTC',
  start,
  end: start,
  from: { id: 2, name: 'Ben Baker' },
  to: to === null ? null : { id: to.length, name: to },
});

test('one sentence per rotation and person, the month named once', () => {
  expect(
    impactLines(
      [
        move('2026-12-01T09:00:00Z', 'Noah Novak'),
        move('2026-12-03T09:00:00Z', 'Noah Novak'),
        move('2026-12-06T09:00:00Z', 'Noah Novak'),
        move('2026-12-04T09:00:00Z', 'Ada', 2),
      ],
      'UTC',
    ).map((l) => l.text),
  ).toEqual([
    'Noah Novak covers 1, 3 and 6 December in Payments',
    'Ada covers 4 December in Search',
  ]);
});

test('across months each month is named after its days; nobody to cover is a gap', () => {
  const lines = impactLines(
    [move('2026-11-30T09:00:00Z', null), move('2026-12-01T09:00:00Z', null)],
    'UTC',
  );
  expect(lines).toEqual([
    {
      key: '1:gap',
      text: 'Nobody can cover 30 November, 1 December in Payments: a gap',
      gap: true,
    },
  ]);
});

test('the days are the viewer’s: a shift at 23:00 UTC is the next day in Tokyo', () => {
  expect(impactLines([move('2026-12-01T23:00:00Z', 'Noah')], 'Asia/Tokyo')[0].text).toBe(
    'Noah covers 2 December in Payments',
  );
});
