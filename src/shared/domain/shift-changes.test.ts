import { describe, expect, test } from 'vitest';
import {
  changedShifts,
  currentChanges,
  digestDueAt,
  mergeShiftChanges,
  type PersonShift,
  projectionSpan,
  SHIFT_CHANGE_HORIZON_MS,
  type ShiftChange,
  shiftChangeSentence,
  shiftChangeSentences,
  shiftDate,
  withCover,
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
      'a removed shift someone else holds now names them',
      {
        kind: 'removed',
        before: berlin('2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z'),
        coveredBy: [7],
      },
      'Europe/Berlin',
      'Your shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary was removed: Noah Novak is on call then.',
    ],
    [
      'a removed shift split between three people names them all',
      {
        kind: 'removed',
        before: berlin('2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z'),
        coveredBy: [7, 8, 9],
      },
      'Europe/Berlin',
      'Your shift Mon Dec 7, 9:00 AM – Mon Dec 14, 9:00 AM (Europe/Berlin) in Payments primary was removed: Noah Novak, Mia Moss and Lee Lam are on call then.',
    ],
    [
      'a removed shift whose cover is not known (a deleted user) says what it always did',
      {
        kind: 'removed',
        before: berlin('2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z'),
        coveredBy: [99],
      },
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
    const names = new Map([
      [7, 'Noah Novak'],
      [8, 'Mia Moss'],
      [9, 'Lee Lam'],
    ]);
    expect(shiftChangeSentence(change, 'Payments primary', zone, now, names)).toBe(expected);
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

describe('digestDueAt: a quiet window after the latest change, ten minutes after the first at most', () => {
  const first = at('2026-11-27T21:00:00Z');
  const minutesIn = (minutes: number) => new Date(first.getTime() + minutes * MINUTE);
  test.each<[string, number, number]>([
    ['the first change: two minutes later', 0, 2],
    ['a change a minute later moves it to two minutes after that one', 1, 3],
    ['a change at 7:30 gives 9:30', 7.5, 9.5],
    ['a change at 8:30 would give 10:30: ten minutes after the first is the latest', 8.5, 10],
    ['a change after the cap (the engine not yet there) is told at the next tick', 12, 10],
  ])('%s', (_name, changeAt, dueAt) => {
    expect(digestDueAt(first, minutesIn(changeAt), 2 * MINUTE)).toEqual(minutesIn(dueAt));
  });
});

describe('mergeShiftChanges: a newer notice replaces the older, saying where the shifts are now', () => {
  const now = at('2026-11-27T21:00:00Z');
  const span = (a: string, b: string) => ({ start: at(a), end: at(b) });
  const nov30 = span('2026-11-30T08:00:00Z', '2026-12-07T08:00:00Z');
  const dec7 = span('2026-12-07T08:00:00Z', '2026-12-14T08:00:00Z');
  const dec14 = span('2026-12-14T08:00:00Z', '2026-12-21T08:00:00Z');
  const dec21 = span('2026-12-21T08:00:00Z', '2026-12-28T08:00:00Z');
  /** the same week, handed over at 13:30 rather than 09:00 */
  const later = (s: { start: Date; end: Date }) => ({
    start: new Date(s.start.getTime() + 4.5 * 3_600_000),
    end: new Date(s.end.getTime() + 4.5 * 3_600_000),
  });
  test.each<[string, ShiftChange[], ShiftChange[], ShiftChange[]]>([
    [
      'the issue’s pair: a new shift on 30 November, then moved to 7 December, is a new shift on 7 December',
      [{ kind: 'added', after: nov30 }],
      [{ kind: 'moved', before: nov30, after: dec7 }],
      [{ kind: 'added', after: dec7 }],
    ],
    [
      'moved and moved again is one move, from where it was to where it is',
      [{ kind: 'moved', before: nov30, after: dec7 }],
      [{ kind: 'moved', before: dec7, after: dec21 }],
      [{ kind: 'moved', before: nov30, after: dec21 }],
    ],
    [
      'moved there and back is no change',
      [{ kind: 'moved', before: nov30, after: dec7 }],
      [{ kind: 'moved', before: dec7, after: nov30 }],
      [],
    ],
    [
      'a new shift taken away again is no change',
      [{ kind: 'added', after: dec14 }],
      [{ kind: 'removed', before: dec14 }],
      [],
    ],
    [
      'changes to different shifts are kept side by side, in order',
      [{ kind: 'removed', before: dec21 }],
      [{ kind: 'added', after: nov30 }],
      [{ kind: 'moved', before: dec21, after: nov30 }],
    ],
    [
      'a shift removed after another came pairs with it as a move (as within one batch)',
      [{ kind: 'added', after: dec7 }],
      [
        { kind: 'removed', before: nov30 },
        { kind: 'added', after: dec21 },
      ],
      [
        { kind: 'moved', before: nov30, after: dec7 },
        { kind: 'added', after: dec21 },
      ],
    ],
    [
      'later hours, then time off over the first shift: the others moved by hours, the first removed',
      [
        { kind: 'moved', before: nov30, after: later(nov30) },
        { kind: 'moved', before: dec21, after: later(dec21) },
      ],
      [{ kind: 'removed', before: later(nov30) }],
      [
        { kind: 'removed', before: nov30 },
        { kind: 'moved', before: dec21, after: later(dec21) },
      ],
    ],
  ])('%s', (_name, older, newer, expected) => {
    expect(mergeShiftChanges(older, newer, now)).toEqual(expected);
  });

  test('shifts that ended by now are left out; one under way counts from now', () => {
    const later = at('2026-12-08T08:00:00Z');
    expect(
      mergeShiftChanges([{ kind: 'added', after: nov30 }], [{ kind: 'added', after: dec7 }], later),
    ).toEqual([{ kind: 'added', after: { start: later, end: dec7.end } }]);
  });
});

describe('currentChanges: a notice shows what has not ended', () => {
  const now = at('2026-12-08T00:00:00Z');
  const span = (a: string, b: string) => ({ start: at(a), end: at(b) });
  test.each<[string, ShiftChange, boolean]>([
    [
      'a new shift that ended',
      { kind: 'added', after: span('2026-12-01T08:00:00Z', '2026-12-02T08:00:00Z') },
      false,
    ],
    [
      'a removed shift that would have ended',
      { kind: 'removed', before: span('2026-12-01T08:00:00Z', '2026-12-02T08:00:00Z') },
      false,
    ],
    [
      'a new shift under way',
      { kind: 'added', after: span('2026-12-07T08:00:00Z', '2026-12-09T08:00:00Z') },
      true,
    ],
    [
      'a move from the past to the future',
      {
        kind: 'moved',
        before: span('2026-12-01T08:00:00Z', '2026-12-02T08:00:00Z'),
        after: span('2026-12-10T08:00:00Z', '2026-12-11T08:00:00Z'),
      },
      true,
    ],
    [
      'a move whose both shifts ended',
      {
        kind: 'moved',
        before: span('2026-12-01T08:00:00Z', '2026-12-02T08:00:00Z'),
        after: span('2026-12-03T08:00:00Z', '2026-12-04T08:00:00Z'),
      },
      false,
    ],
    [
      'a shift that ends right now has ended',
      { kind: 'added', after: span('2026-12-07T00:00:00Z', '2026-12-08T00:00:00Z') },
      false,
    ],
  ])('%s', (_name, change, current) => {
    expect(currentChanges([change], now)).toEqual(current ? [change] : []);
  });
});

describe('withCover: who is on call in a removed shift’s time now', () => {
  test('the other people whose shifts overlap it, in order, once each; moves and new shifts untouched', () => {
    const removed: ShiftChange = {
      kind: 'removed',
      before: { start: at('2026-12-07T08:00:00Z'), end: at('2026-12-14T08:00:00Z') },
    };
    const added: ShiftChange = {
      kind: 'added',
      after: { start: at('2026-12-21T08:00:00Z'), end: at('2026-12-28T08:00:00Z') },
    };
    const after = [
      shift(3, '2026-12-10T08:00:00Z', '2026-12-14T08:00:00Z'),
      shift(2, '2026-12-07T08:00:00Z', '2026-12-10T08:00:00Z'),
      shift(2, '2026-12-11T08:00:00Z', '2026-12-12T08:00:00Z'),
      shift(1, '2026-12-21T08:00:00Z', '2026-12-28T08:00:00Z'),
      // Ends as the removed shift starts: not on call in it.
      shift(4, '2026-11-30T08:00:00Z', '2026-12-07T08:00:00Z'),
    ];
    expect(withCover([removed, added], after, 1)).toEqual([
      { ...removed, coveredBy: [2, 3] },
      added,
    ]);
    expect(withCover([removed], [], 1)).toEqual([{ ...removed, coveredBy: [] }]);
  });
});
