import type { CalendarShift } from '@shared/contracts/calendar';
import { describe, expect, test } from 'vitest';
import { personShiftsAhead, rotationShiftsAhead, weekAhead } from './shifts-ahead';

const names = new Map([
  [1, 'Noah Nakamura'],
  [2, 'Olivia Ortiz'],
  [3, 'Priya Patel'],
]);
const now = new Date('2026-12-01T12:00:00Z');
const to = new Date('2026-12-08T12:00:00Z');

/** shift: one calendar shift in December 2026, UTC, from 'DDTHH:MM' to 'DDTHH:MM'. */
const shift = (
  userId: number,
  from: string,
  until: string,
  source: CalendarShift['source'] = 'rotation',
  coveredUserId?: number,
): CalendarShift => ({
  userId,
  start: `2026-12-${from}:00.000Z`,
  end: `2026-12-${until}:00.000Z`,
  source,
  ...(coveredUserId === undefined ? {} : { coveredUserId }),
});

/** brief: each stretch as [who, start, end ('open' when none), now?]. */
const brief = (shifts: CalendarShift[], suspended = false) =>
  rotationShiftsAhead({ id: 7, name: 'Payments', shifts, suspended }, names, now, to).map((s) => [
    s.kind === 'cover' ? `${s.name} covering ${s.coveredName}` : s.name,
    s.start.toISOString().slice(5, 16),
    s.end?.toISOString().slice(5, 16) ?? 'open',
    s.now ? 'now' : '',
  ]);

describe('rotationShiftsAhead', () => {
  test.each([
    {
      name: 'the shift under way keeps its start; the ended one is gone; back-to-back turns of one person join (history then projection)',
      shifts: [
        shift(3, '01T00:00', '01T09:00', 'history'),
        shift(1, '01T09:00', '01T12:00', 'history'),
        shift(1, '01T12:00', '02T09:00'),
        shift(2, '02T09:00', '03T09:00'),
        shift(3, '03T09:00', '09T09:00'),
      ],
      want: [
        ['Noah Nakamura', '12-01T09:00', '12-02T09:00', 'now'],
        ['Olivia Ortiz', '12-02T09:00', '12-03T09:00', ''],
        ['Priya Patel', '12-03T09:00', '12-09T09:00', ''],
      ],
    },
    {
      name: 'a cover stays apart, naming whose shift it covers, and a hole is nobody',
      shifts: [
        shift(1, '01T09:00', '02T00:00'),
        shift(2, '02T00:00', '02T09:00', 'coverage', 1),
        shift(3, '02T12:00', '09T09:00', 'schedule'),
      ],
      want: [
        ['Noah Nakamura', '12-01T09:00', '12-02T00:00', 'now'],
        ['Olivia Ortiz covering Noah Nakamura', '12-02T00:00', '12-02T09:00', ''],
        ['Nobody on call', '12-02T09:00', '12-02T12:00', ''],
        ['Priya Patel', '12-02T12:00', '12-09T09:00', ''],
      ],
    },
    {
      name: 'nobody now until the first shift; nobody after the last, open-ended',
      shifts: [shift(2, '03T09:00', '04T09:00', 'schedule')],
      want: [
        ['Nobody on call', '12-01T12:00', '12-03T09:00', 'now'],
        ['Olivia Ortiz', '12-03T09:00', '12-04T09:00', ''],
        ['Nobody on call', '12-04T09:00', 'open', ''],
      ],
    },
    {
      name: 'no shifts from now: nobody, open-ended',
      shifts: [shift(1, '01T00:00', '01T12:00', 'history')],
      want: [['Nobody on call', '12-01T12:00', 'open', 'now']],
    },
    {
      name: 'a shift starting at or after the end of the read is left out',
      shifts: [shift(1, '01T09:00', '08T12:00'), shift(2, '08T12:00', '09T12:00')],
      want: [['Noah Nakamura', '12-01T09:00', '12-08T12:00', 'now']],
    },
    {
      name: 'two covers back to back for different people stay two',
      shifts: [
        shift(3, '01T09:00', '02T09:00', 'coverage', 1),
        shift(3, '02T09:00', '03T09:00', 'coverage', 2),
        shift(3, '03T09:00', '09T09:00'),
      ],
      want: [
        ['Priya Patel covering Noah Nakamura', '12-01T09:00', '12-02T09:00', 'now'],
        ['Priya Patel covering Olivia Ortiz', '12-02T09:00', '12-03T09:00', ''],
        ['Priya Patel', '12-03T09:00', '12-09T09:00', ''],
      ],
    },
  ])('$name', ({ shifts, want }) => {
    expect(brief(shifts)).toEqual(want);
  });

  test("a suspended rotation: nobody from now, though the read's history runs to its now", () => {
    expect(brief([shift(1, '01T09:00', '01T12:01', 'history')], true)).toEqual([
      ['Nobody on call', '12-01T12:00', 'open', 'now'],
    ]);
    expect(brief([shift(1, '01T09:00', '01T12:01', 'history')])[0][0]).toBe('Noah Nakamura');
  });

  test('someone no longer in the read is a former member', () => {
    expect(brief([shift(9, '01T09:00', '09T09:00')])[0][0]).toBe('A former member');
  });
});

describe('personShiftsAhead', () => {
  test("the person's own stretches and covers across rotations, earliest first, by rotation name at a tie", () => {
    const rotations = [
      {
        id: 1,
        name: 'Platform',
        shifts: [
          shift(1, '01T09:00', '02T09:00'),
          shift(2, '02T09:00', '03T09:00'),
          shift(1, '03T09:00', '04T09:00'),
        ],
      },
      {
        id: 2,
        name: 'Database',
        shifts: [shift(3, '01T00:00', '03T09:00'), shift(1, '03T09:00', '03T12:00', 'coverage', 3)],
      },
    ];
    const mine = personShiftsAhead(rotations, 1, names, now, to);
    expect(
      mine.map((s) => [s.rotationName, s.kind, s.start.toISOString().slice(5, 16), s.now]),
    ).toEqual([
      ['Platform', 'turn', '12-01T09:00', true],
      ['Database', 'cover', '12-03T09:00', false],
      ['Platform', 'turn', '12-03T09:00', false],
    ]);
    expect(personShiftsAhead(rotations, 2, names, new Date('2026-12-03T09:00:00Z'), to)).toEqual(
      [],
    );
  });
});

describe('weekAhead', () => {
  const rotation = (id: number, name: string, memberIds: number[], shifts: CalendarShift[]) => ({
    id,
    name,
    memberIds,
    suspended: false,
    shifts,
  });
  test("the viewer's rotations first, then the rest in the read's order; now, then the changes of seven days", () => {
    const weeks = weekAhead(
      [
        rotation(
          1,
          'Alpha',
          [2, 3],
          [shift(2, '01T09:00', '02T09:00'), shift(3, '02T09:00', '10T09:00')],
        ),
        rotation(
          2,
          'Beta',
          [1, 2],
          [
            shift(1, '01T09:00', '05T09:00'),
            shift(2, '05T09:00', '08T12:00'),
            shift(1, '08T12:00', '09T12:00'),
          ],
        ),
        rotation(3, 'Gamma', [3], []),
        rotation(4, 'Delta', [1], [shift(1, '01T00:00', '10T00:00')]),
      ],
      1,
      names,
      now,
    );
    expect(
      weeks.map((w) => [
        w.name,
        w.mine,
        w.current.name,
        w.changes.map((c) => `${c.name} ${c.start.toISOString().slice(8, 13)}`),
      ]),
    ).toEqual([
      // A change exactly seven days on is after the glance.
      ['Beta', true, 'Noah Nakamura', ['Olivia Ortiz 05T09']],
      ['Delta', true, 'Noah Nakamura', []],
      ['Alpha', false, 'Olivia Ortiz', ['Priya Patel 02T09']],
      ['Gamma', false, 'Nobody on call', []],
    ]);
  });

  test('a viewer in none of them sees them all in order', () => {
    const weeks = weekAhead(
      [rotation(1, 'Alpha', [2], []), rotation(2, 'Beta', [3], [])],
      5,
      names,
      now,
    );
    expect(weeks.map((w) => [w.name, w.mine])).toEqual([
      ['Alpha', false],
      ['Beta', false],
    ]);
  });
});
