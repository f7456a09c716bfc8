import { describe, expect, test } from 'vitest';
import {
  changedShifts,
  type PersonShift,
  projectionSpan,
  SHIFT_CHANGE_HORIZON_MS,
  type ShiftChange,
  shiftChangeSentence,
  shiftChangeSentences,
  shiftDate,
} from './shift-changes';
import { upcomingShifts } from './shifts';

const at = (iso: string) => new Date(iso);
const MINUTE = 60_000;
const DAY = 86_400_000;
const WEEK = 7 * DAY;

const shift = (userId: number, start: string, end: string): PersonShift => ({
  userId,
  start: at(start),
  end: at(end),
});

/** A weekly rotation's projection (Mondays 09:00 in the zone) from `from`, as the calendar lays it out. */
function weekly(memberIds: number[], holderId: number, from: Date, timeZone = 'Europe/Berlin') {
  const span = projectionSpan(from);
  const pattern = { cadence: 'weekly', timeZone, handoffTime: '09:00', handoffWeekday: 1 } as const;
  // The tests start on Friday 27 November 2026: the next boundary is Monday 30 November, 09:00.
  return upcomingShifts(
    {
      pattern,
      memberIds,
      holderId,
      nextBoundary: at('2026-11-30T08:00:00Z'),
      boundaryHandled: false,
    },
    span.from,
    span.to,
  );
}

describe('changedShifts', () => {
  const takenAt = at('2026-11-27T21:00:00Z');
  const now = new Date(takenAt.getTime() + 2 * MINUTE);

  test('reordering three members: only the people whose shifts changed are in the answer', () => {
    // Ana holds the baton; order Ana, Ben, Cal → Ana, Cal, Ben: Ana's turns stay, Ben's and
    // Cal's swap.
    const before = weekly([1, 2, 3], 1, takenAt);
    const after = weekly([1, 3, 2], 1, now);
    const changes = changedShifts(before, takenAt, after, now);
    expect([...changes.keys()]).toEqual([2, 3]);
    const ben = changes.get(2) as ShiftChange[];
    expect(ben[0]).toEqual({
      kind: 'moved',
      before: { start: at('2026-11-30T08:00:00Z'), end: at('2026-12-07T08:00:00Z') },
      after: { start: at('2026-12-07T08:00:00Z'), end: at('2026-12-14T08:00:00Z') },
    });
    expect(ben.every((c) => c.kind === 'moved')).toBe(true);
  });

  test('the same projection two minutes later is no change (the shift under way counts from now)', () => {
    const before = weekly([1, 2, 3], 1, takenAt);
    const after = weekly([1, 2, 3], 1, now);
    expect(changedShifts(before, takenAt, after, now).size).toBe(0);
  });

  test('a shift that simply passed between the baseline and now is no change', () => {
    const before = [
      shift(1, '2026-11-27T20:00:00Z', '2026-11-27T21:30:00Z'),
      shift(2, '2026-11-27T21:30:00Z', '2026-12-04T21:30:00Z'),
    ];
    const later = at('2026-11-27T22:00:00Z');
    const after = [shift(2, '2026-11-27T22:00:00Z', '2026-12-04T21:30:00Z')];
    expect(changedShifts(before, takenAt, after, later).size).toBe(0);
  });

  test.each<[string, PersonShift[], PersonShift[], ShiftChange[]]>([
    [
      'a removed shift',
      [shift(1, '2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z')],
      [],
      [
        {
          kind: 'removed',
          before: { start: at('2026-12-07T08:00:00Z'), end: at('2026-12-14T08:00:00Z') },
        },
      ],
    ],
    [
      'a new shift',
      [],
      [shift(1, '2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z')],
      [
        {
          kind: 'added',
          after: { start: at('2026-12-07T08:00:00Z'), end: at('2026-12-14T08:00:00Z') },
        },
      ],
    ],
    [
      'a shift under way that ends now (suspension): counted from now',
      [shift(1, '2026-11-27T08:00:00Z', '2026-11-30T08:00:00Z')],
      [],
      [
        {
          kind: 'removed',
          before: { start: at('2026-11-27T21:02:00Z'), end: at('2026-11-30T08:00:00Z') },
        },
      ],
    ],
    [
      'a shift pushed past the horizon moved (it did not vanish)',
      [shift(1, '2027-01-18T08:00:00Z', '2027-01-21T08:00:00Z')],
      [shift(1, '2027-01-25T08:00:00Z', '2027-01-28T08:00:00Z')],
      [
        {
          kind: 'moved',
          before: { start: at('2027-01-18T08:00:00Z'), end: at('2027-01-21T08:00:00Z') },
          after: { start: at('2027-01-25T08:00:00Z'), end: at('2027-01-28T08:00:00Z') },
        },
      ],
    ],
    [
      'a weekly shift pushed into the tail is told whole, to its end',
      [shift(1, '2027-01-18T08:00:00Z', '2027-01-25T08:00:00Z')],
      [shift(1, '2027-01-25T08:00:00Z', '2027-02-01T08:00:00Z')],
      [
        {
          kind: 'moved',
          before: { start: at('2027-01-18T08:00:00Z'), end: at('2027-01-25T08:00:00Z') },
          after: { start: at('2027-01-25T08:00:00Z'), end: at('2027-02-01T08:00:00Z') },
        },
      ],
    ],
    [
      'a shift beyond the horizon alone is not compared',
      [shift(1, '2027-01-25T08:00:00Z', '2027-01-28T08:00:00Z')],
      [],
      [],
    ],
  ])('%s', (_name, before, after, expected) => {
    const changes = changedShifts(before, takenAt, after, now);
    expect(changes.get(1) ?? []).toEqual(expected);
  });

  test('the edge of the baseline’s projection is no change (a long shift is cut the same on both sides)', () => {
    const whole = (a: Date) => ({ userId: 1, start: a, end: projectionSpan(a).to });
    const before = [whole(takenAt)];
    const after = [whole(now)];
    expect(changedShifts(before, takenAt, after, now).size).toBe(0);
  });

  test('after the horizon has passed (the engine was down for 8 weeks) nothing is compared', () => {
    const late = new Date(takenAt.getTime() + SHIFT_CHANGE_HORIZON_MS);
    const before = [shift(1, '2027-01-20T08:00:00Z', '2027-01-30T08:00:00Z')];
    expect(changedShifts(before, takenAt, [], late).size).toBe(0);
  });
});

describe('shiftChangeSentence', () => {
  const now = at('2026-11-27T21:00:00Z');
  const berlin = (a: string, b: string) => ({ start: at(a), end: at(b) });

  test('the issue’s example, word for word', () => {
    expect(
      shiftChangeSentence(
        {
          kind: 'moved',
          before: berlin('2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z'),
          after: berlin('2026-12-14T08:00:00Z', '2026-12-21T08:00:00Z'),
        },
        'Payments primary',
        'Europe/Berlin',
        now,
      ),
    ).toBe(
      'Your shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary moved to Mon Dec 14 – Mon Dec 21.',
    );
  });

  test.each<[string, ShiftChange, string, string]>([
    [
      'a move to other times of day shows the times',
      {
        kind: 'moved',
        before: berlin('2026-12-07T08:00:00Z', '2026-12-08T08:00:00Z'),
        after: berlin('2026-12-09T17:00:00Z', '2026-12-10T17:00:00Z'),
      },
      'Europe/Berlin',
      'Your shift Mon Dec 7, 9:00 AM – Tue Dec 8, 9:00 AM (Europe/Berlin) in Payments primary moved to Wed Dec 9, 6:00 PM – Thu Dec 10, 6:00 PM.',
    ],
    [
      'the same instants read in the reader’s own zone',
      {
        kind: 'moved',
        before: berlin('2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z'),
        after: berlin('2026-12-14T08:00:00Z', '2026-12-21T08:00:00Z'),
      },
      'Asia/Tokyo',
      'Your shift Mon Dec 7, 5:00 PM – Mon Dec 14, 5:00 PM (Asia/Tokyo) in Payments primary moved to Mon Dec 14 – Mon Dec 21.',
    ],
    [
      'across the end of daylight saving time a weekly 9:00 AM stays 9:00 AM: dates only',
      {
        kind: 'moved',
        // New York: Mon Oct 26 09:00 EDT (13:00Z) – Mon Nov 2 09:00 EST (14:00Z), a week of 169 hours.
        before: berlin('2026-10-26T13:00:00Z', '2026-11-02T14:00:00Z'),
        after: berlin('2026-11-02T14:00:00Z', '2026-11-09T14:00:00Z'),
      },
      'America/New_York',
      'Your shift Mon Oct 26, 9:00 AM – Mon Nov 2, 9:00 AM (America/New_York) in Payments primary moved to Mon Nov 2 – Mon Nov 9.',
    ],
    [
      'across the change a fixed UTC hour reads an hour apart: the times are shown',
      {
        kind: 'moved',
        before: berlin('2026-10-19T13:00:00Z', '2026-10-26T13:00:00Z'),
        after: berlin('2026-11-02T13:00:00Z', '2026-11-09T13:00:00Z'),
      },
      'America/New_York',
      'Your shift Mon Oct 19, 9:00 AM – Mon Oct 26, 9:00 AM (America/New_York) in Payments primary moved to Mon Nov 2, 8:00 AM – Mon Nov 9, 8:00 AM.',
    ],
    [
      'a removed shift',
      { kind: 'removed', before: berlin('2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z') },
      'Europe/Berlin',
      'Your shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary was removed: you are not on call then.',
    ],
    [
      'a new shift, into next year (the year is named)',
      { kind: 'added', after: berlin('2026-12-28T08:00:00Z', '2027-01-04T08:00:00Z') },
      'Europe/Berlin',
      'You have a new shift Mon Dec 28, 9:00 AM – Mon Jan 4, 2027, 9:00 AM (Europe/Berlin) in Payments primary.',
    ],
  ])('%s', (_name, change, zone, expected) => {
    expect(shiftChangeSentence(change, 'Payments primary', zone, now)).toBe(expected);
  });

  test('shiftDate names the year by the reader’s zone: New Year’s Eve in UTC is already 2027 in Tokyo', () => {
    const eve = at('2026-12-31T16:00:00Z');
    expect(shiftDate(eve, 'UTC', eve)).toBe('Thu Dec 31, 4:00 PM');
    expect(shiftDate(at('2027-01-01T01:00:00Z'), 'Asia/Tokyo', eve)).toBe('Fri Jan 1, 10:00 AM');
    expect(shiftDate(at('2027-01-01T01:00:00Z'), 'UTC', eve)).toBe('Fri Jan 1, 2027, 1:00 AM');
  });

  test('shiftChangeSentences writes out ten changes and counts the rest', () => {
    const changes: ShiftChange[] = Array.from({ length: 13 }, (_, i) => ({
      kind: 'added',
      after: {
        start: new Date(at('2026-12-01T08:00:00Z').getTime() + i * DAY),
        end: new Date(at('2026-12-01T08:00:00Z').getTime() + i * DAY + WEEK / 7),
      },
    }));
    const { sentences, more } = shiftChangeSentences(changes, 'Payments', 'UTC', now);
    expect(sentences).toHaveLength(10);
    expect(sentences[0]).toBe(
      'You have a new shift Tue Dec 1, 8:00 AM – Wed Dec 2, 8:00 AM (UTC) in Payments.',
    );
    expect(more).toBe(3);
  });
});
