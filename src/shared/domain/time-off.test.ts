import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { planHandoffFlow, DEFAULT_HANDOFF_TIMINGS as t } from './handoff-flow';
import { memberIdAfter, nextOnCall, nextTurn, turnAfterHandChange, turnOwnerOf } from './rotation';
import {
  gapsOf,
  handoffsBetween,
  nextHandoffAt,
  projectFixedTurns,
  type ShiftPattern,
  turnSpansAt,
  upcomingShifts,
} from './shifts';
import { type AwayWindow, isAwayDuring } from './time-off';

const at = (iso: string) => new Date(iso);
const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;
const weeklyUtc: ShiftPattern = {
  cadence: 'weekly',
  timeZone: 'UTC',
  handoffTime: '09:00',
  handoffWeekday: 1,
};
const away = (userId: number, start: string, end: string): AwayWindow => ({
  userId,
  start: at(start),
  end: at(end),
});

// Ana 1, Ben 2, Cal 3, Dee 4. Ana holds since Monday 5 January 2026, her own turn; the
// weeks then start on Mondays 12, 19 and 26 January, 2 and 9 February, at 09:00 UTC.
const NOW = at('2026-01-05T10:00:00Z');
const fourOf = (timeOff: AwayWindow[], memberIds = [1, 2, 3, 4]) =>
  projectFixedTurns(
    {
      pattern: weeklyUtc,
      memberIds,
      holderId: 1,
      turnUserId: 1,
      nextBoundary: at('2026-01-12T09:00:00Z'),
      timeOff,
    },
    NOW,
    at('2026-02-16T09:00:00Z'),
  );
const holders = (shifts: { userId: number }[]) => shifts.map((s) => s.userId);
const kinds = (shifts: { kind: string }[]) => shifts.map((s) => s.kind);

describe('isAwayDuring', () => {
  const off = [away(2, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')];
  test.each([
    ['inside', '2026-01-13T00:00:00Z', '2026-01-14T00:00:00Z', true],
    ['the same week', '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z', true],
    ['one minute of it', '2026-01-19T08:59:00Z', '2026-01-26T09:00:00Z', true],
    ['ending where it starts', '2026-01-05T09:00:00Z', '2026-01-12T09:00:00Z', false],
    ['starting where it ends', '2026-01-19T09:00:00Z', '2026-01-26T09:00:00Z', false],
  ])('%s', (_name, start, end, expected) => {
    expect(isAwayDuring(off, 2, { start: at(start), end: at(end) })).toBe(expected);
    expect(isAwayDuring(off, 3, { start: at(start), end: at(end) })).toBe(false);
  });
});

describe('the turns of a fixed rotation around time off (decision 256)', () => {
  test('without time off, each member in order: memberIdAfter', () => {
    const shifts = fourOf([]);
    expect(holders(shifts)).toEqual([1, 2, 3, 4, 1, 2]);
    expect(kinds(shifts).every((k) => k === 'turn')).toBe(true);
  });

  test('away for their week: the next member covers that week alone; every other week stays', () => {
    const shifts = fourOf([away(2, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')]);
    expect(holders(shifts)).toEqual([1, 3, 3, 4, 1, 2]);
    expect(kinds(shifts)).toEqual(['turn', 'cover', 'turn', 'turn', 'turn', 'turn']);
    expect(shifts[1].ownerId).toBe(2);
    expect(shifts[2].ownerId).toBe(3);
  });

  test('one day away is a week away: any overlap with the shift counts', () => {
    const shifts = fourOf([away(2, '2026-01-15T00:00:00Z', '2026-01-16T00:00:00Z')]);
    expect(holders(shifts)).toEqual([1, 3, 3, 4, 1, 2]);
  });

  test('away into the next member’s week: only the away member’s own week moves', () => {
    const shifts = fourOf([away(2, '2026-01-12T09:00:00Z', '2026-01-26T09:00:00Z')]);
    expect(holders(shifts)).toEqual([1, 3, 3, 4, 1, 2]);
    expect(kinds(shifts)).toEqual(['turn', 'cover', 'turn', 'turn', 'turn', 'turn']);
  });

  test('two members in a row away: the next available covers each of their weeks', () => {
    const shifts = fourOf([
      away(2, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z'),
      away(3, '2026-01-10T00:00:00Z', '2026-01-20T00:00:00Z'),
    ]);
    expect(holders(shifts)).toEqual([1, 4, 4, 4, 1, 2]);
    expect(kinds(shifts)).toEqual(['turn', 'cover', 'cover', 'turn', 'turn', 'turn']);
  });

  test('the issue’s example: A B C D daily, B away on days 2 and 6', () => {
    const daily: ShiftPattern = { ...weeklyUtc, cadence: 'daily' };
    const day = (n: number) => new Date(at('2026-12-01T09:00:00Z').getTime() + (n - 1) * 24 * HOUR);
    const shifts = projectFixedTurns(
      {
        pattern: daily,
        memberIds: [1, 2, 3, 4],
        holderId: 1,
        turnUserId: 1,
        nextBoundary: day(2),
        timeOff: [
          { userId: 2, start: day(2), end: day(3) },
          { userId: 2, start: day(6), end: day(7) },
        ],
      },
      day(1),
      day(10),
    );
    const names = ['', 'A', 'B', 'C', 'D'];
    expect(shifts.map((x) => names[x.userId]).join(' ')).toBe('A C C D A C C D A');
  });

  test('away after their own week (not skipped): nobody owes them anything', () => {
    const shifts = fourOf([away(1, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')]);
    expect(holders(shifts)).toEqual([1, 2, 3, 4, 1, 2]);
  });

  test('away for three weeks and into their own turn: only their own turn moves', () => {
    const shifts = fourOf([away(1, '2026-01-12T09:00:00Z', '2026-02-03T00:00:00Z')]);
    expect(holders(shifts)).toEqual([1, 2, 3, 4, 2, 2]);
    expect(kinds(shifts).slice(4)).toEqual(['cover', 'turn']);
  });

  test('everyone away: a gap, which the owner keeps; the order goes on after it', () => {
    const all = [1, 2, 3, 4].map((id) => away(id, '2026-01-13T00:00:00Z', '2026-01-14T00:00:00Z'));
    const shifts = fourOf(all);
    expect(holders(shifts)).toEqual([1, 2, 3, 4, 1, 2]);
    expect(kinds(shifts)[1]).toBe('gap');
    expect(gapsOf(shifts)).toEqual([
      { start: at('2026-01-12T09:00:00Z'), end: at('2026-01-19T09:00:00Z') },
    ]);
  });

  test('two members: the other covers by keeping the baton, and the order goes on', () => {
    const shifts = fourOf([away(2, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')], [1, 2]);
    expect(holders(shifts)).toEqual([1, 1, 1, 2, 1, 2]);
    expect(kinds(shifts)[1]).toBe('cover');
  });

  test('a sole member keeps the baton; away, that is a gap', () => {
    const shifts = fourOf([away(1, '2026-01-13T00:00:00Z', '2026-01-14T00:00:00Z')], [1]);
    expect(holders(shifts)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(kinds(shifts)[1]).toBe('gap');
  });

  test('the turn under way is a gap when the holder and every member are away in the rest of it', () => {
    // From NOW (Monday 5 January, 10:00) to the boundary of 12 January.
    const everyone = [1, 2, 3, 4].map((id) =>
      away(id, '2026-01-08T00:00:00Z', '2026-01-09T00:00:00Z'),
    );
    const shifts = fourOf(everyone);
    expect(kinds(shifts)).toEqual(['gap', 'turn', 'turn', 'turn', 'turn', 'turn']);
    expect(gapsOf(shifts)).toEqual([{ start: NOW, end: at('2026-01-12T09:00:00Z') }]);
    // One member left available, or time off over before NOW: not a gap.
    expect(kinds(fourOf(everyone.slice(1)))[0]).toBe('turn');
    expect(kinds(fourOf(everyone.slice(0, 3)))[0]).toBe('turn');
    const before = [1, 2, 3, 4].map((id) =>
      away(id, '2026-01-05T00:00:00Z', '2026-01-05T10:00:00Z'),
    );
    expect(kinds(fourOf(before))[0]).toBe('turn');
    // A sole member away in the rest of their turn.
    expect(kinds(fourOf([everyone[0]], [1]))[0]).toBe('gap');
  });

  test('upcomingShifts joins back-to-back shifts of one person, as before', () => {
    const shifts = upcomingShifts(
      {
        pattern: weeklyUtc,
        memberIds: [1, 2],
        holderId: 1,
        turnUserId: 1,
        nextBoundary: at('2026-01-12T09:00:00Z'),
        timeOff: [away(2, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')],
      },
      NOW,
      at('2026-02-02T09:00:00Z'),
    );
    expect(shifts.map((s) => [s.userId, s.start.toISOString(), s.end.toISOString()])).toEqual([
      [1, NOW.toISOString(), '2026-01-26T09:00:00.000Z'],
      [2, '2026-01-26T09:00:00.000Z', '2026-02-02T09:00:00.000Z'],
    ]);
  });

  test('a weekly rotation across the New York autumn change: weeks stay Monday 09:00 local', () => {
    const ny: ShiftPattern = { ...weeklyUtc, timeZone: 'America/New_York' };
    const shifts = projectFixedTurns(
      {
        pattern: ny,
        memberIds: [1, 2, 3],
        holderId: 3,
        turnUserId: 3,
        nextBoundary: at('2026-10-26T13:00:00Z'),
        // Ben away in his week, the first after the change (Monday 2 November 09:00 EST = 14:00 UTC)
        timeOff: [away(2, '2026-11-03T00:00:00Z', '2026-11-05T00:00:00Z')],
      },
      at('2026-10-20T15:00:00Z'),
      at('2026-11-23T14:00:00Z'),
    );
    expect(shifts.map((s) => [s.userId, s.start.toISOString()])).toEqual([
      [3, '2026-10-20T15:00:00.000Z'],
      [1, '2026-10-26T13:00:00.000Z'],
      [3, '2026-11-02T14:00:00.000Z'],
      [3, '2026-11-09T14:00:00.000Z'],
      [1, '2026-11-16T14:00:00.000Z'],
    ]);
    expect(kinds(shifts)).toEqual(['turn', 'turn', 'cover', 'turn', 'turn']);
  });

  test('the order goes on from the stored turn owner, not from a cover holding the shift', () => {
    // Cal (3) covers Ben's (2) week: the next week is Cal's own, then Dee's.
    const shifts = projectFixedTurns(
      {
        pattern: weeklyUtc,
        memberIds: [1, 2, 3, 4],
        holderId: 3,
        turnUserId: 2,
        nextBoundary: at('2026-01-12T09:00:00Z'),
      },
      NOW,
      at('2026-01-26T09:00:00Z'),
    );
    expect(holders(shifts)).toEqual([3, 3, 4]);
    expect(kinds(shifts)).toEqual(['cover', 'turn', 'turn']);
  });

  test('turnOwnerOf: the stored owner while a member, else the holder', () => {
    expect(turnOwnerOf([1, 2, 3], 2, 3)).toBe(2);
    expect(turnOwnerOf([1, 2, 3], 5, 3)).toBe(3);
    expect(turnOwnerOf([1, 2, 3], null, 3)).toBe(3);
    expect(turnOwnerOf([1, 2, 3], undefined, null)).toBeNull();
  });

  describe('a change of holder by hand re-anchors the order (turnAfterHandChange)', () => {
    const week2 = { start: at('2026-01-12T09:00:00Z'), end: at('2026-01-19T09:00:00Z') };
    const week1 = { start: at('2026-01-05T09:00:00Z'), end: at('2026-01-12T09:00:00Z') };
    const benAway = [away(2, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')];
    const base = {
      memberIds: [1, 2, 3, 4],
      holderId: 1,
      turnUserId: 1,
      timeOff: benAway,
    };
    test.each([
      ['at the boundary, to the cover the app names: the away member’s turn', 3, week2, true, 2],
      ['at the boundary, to someone else: the order goes on from them', 4, week2, true, 4],
      ['mid-shift: the order goes on from the receiver', 3, week1, false, 3],
      ['at the boundary without time off, to the next member: their turn', 2, week2, true, 2],
    ] as const)('%s', (_name, receiverId, shift, handlesBoundary, expected) => {
      const timeOff = receiverId === 2 ? [] : base.timeOff;
      expect(turnAfterHandChange({ ...base, timeOff, receiverId, shift, handlesBoundary })).toBe(
        expected,
      );
    });
  });

  test('nextOnCall asks the same rule: the cover, not the member away', () => {
    const rotation = {
      type: 'fixed' as const,
      suspended: false,
      currentOnCallUserId: 1,
      members: [1, 2, 3, 4].map((userId, order) => ({ userId, order })),
    };
    expect(nextOnCall(rotation, NOW)).toBe(2);
    expect(
      nextOnCall(
        {
          ...rotation,
          turn: {
            shift: turnSpansAt(weeklyUtc, at('2026-01-12T09:00:00Z')).shift,
            turnUserId: 1,
            timeOff: [away(2, '2026-01-12T09:00:00Z', '2026-01-19T09:00:00Z')],
          },
        },
        NOW,
      ),
    ).toBe(3);
    // Cal holds Ben's week as a cover: the next week is Cal's own, so Cal is next too.
    expect(
      nextOnCall(
        {
          ...rotation,
          currentOnCallUserId: 3,
          turn: {
            shift: turnSpansAt(weeklyUtc, at('2026-01-12T09:00:00Z')).shift,
            turnUserId: 2,
            timeOff: [],
          },
        },
        NOW,
      ),
    ).toBe(3);
  });
});

// ---------------------------------------------------------------------------------------------
// Properties over many rotations and absences.

const memberCount = fc.integer({ min: 2, max: 6 });
const START = at('2026-03-02T09:00:00Z');
const WEEKS = 16;

/** A rotation state and some time off, over weekly UTC shifts from START. */
const scenario = memberCount.chain((n) =>
  fc.record({
    n: fc.constant(n),
    holder: fc.integer({ min: 1, max: n }),
    turn: fc.option(fc.integer({ min: 1, max: n }), { nil: null }),
    timeOff: fc.array(
      fc.record({
        userId: fc.integer({ min: 1, max: n }),
        startHour: fc.integer({ min: 0, max: WEEKS * 7 * 24 }),
        hours: fc.integer({ min: 1, max: 3 * 7 * 24 }),
      }),
      { maxLength: 6 },
    ),
  }),
);
type Scenario = {
  n: number;
  holder: number;
  turn: number | null;
  timeOff: { userId: number; startHour: number; hours: number }[];
};

const windowsOf = (s: Scenario): AwayWindow[] =>
  s.timeOff.map((w) => ({
    userId: w.userId,
    start: new Date(START.getTime() + w.startHour * HOUR),
    end: new Date(START.getTime() + (w.startHour + w.hours) * HOUR),
  }));
const idsOf = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const projectionOf = (s: Scenario, timeOff = windowsOf(s)) =>
  projectFixedTurns(
    {
      pattern: weeklyUtc,
      memberIds: idsOf(s.n),
      holderId: s.holder,
      turnUserId: s.turn,
      nextBoundary: START,
      timeOff,
    },
    new Date(START.getTime() - HOUR),
    new Date(START.getTime() + WEEKS * WEEK),
  );

describe('properties of the rule', () => {
  test('without time off the projection is the order, one member a week', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const [first, ...rest] = projectionOf(s, []);
        expect(first.userId).toBe(s.holder);
        let owner: number | null = s.turn ?? s.holder;
        for (const shift of rest) {
          owner = memberIdAfter(idsOf(s.n), owner);
          expect(shift.userId).toBe(owner);
        }
      }),
    );
  });

  test('nobody away holds a shift while someone else is available; a gap only when all are away', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const timeOff = windowsOf(s);
        for (const shift of projectionOf(s).slice(1)) {
          const everyoneAway = idsOf(s.n).every((id) => isAwayDuring(timeOff, id, shift));
          expect(shift.kind === 'gap').toBe(everyoneAway);
          if (!everyoneAway) expect(isAwayDuring(timeOff, shift.userId, shift)).toBe(false);
        }
      }),
    );
  });

  test('time off changes only the shifts it overlaps: each goes to the next available member', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const timeOff = windowsOf(s);
        const ids = idsOf(s.n);
        const plain = projectionOf(s, []);
        const shifts = projectionOf(s, timeOff);
        expect(shifts.length).toBe(plain.length);
        for (let i = 1; i < shifts.length; i++) {
          const owner = plain[i].userId;
          // The order is anchored: every shift is the turn it was without time off.
          expect(shifts[i].ownerId).toBe(owner);
          if (!isAwayDuring(timeOff, owner, shifts[i])) {
            expect(shifts[i].userId).toBe(owner);
            expect(shifts[i].kind).toBe('turn');
            continue;
          }
          // An away owner's shift: the next member in order who is available, or a gap.
          const at = ids.indexOf(owner);
          const cover = [1, 2, 3, 4, 5]
            .slice(0, s.n - 1)
            .map((step) => ids[(at + step) % s.n])
            .find((id) => !isAwayDuring(timeOff, id, shifts[i]));
          expect(shifts[i].userId).toBe(cover ?? owner);
          expect(shifts[i].kind).toBe(cover === undefined ? 'gap' : 'cover');
        }
      }),
    );
  });

  test('a week of time off in a daily rotation moves no shift outside that week', () => {
    const daily: ShiftPattern = { ...weeklyUtc, cadence: 'daily' };
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 6 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 23 }),
        (n, startDay, startHour) => {
          const ids = idsOf(n);
          const project = (timeOff: AwayWindow[]) =>
            projectFixedTurns(
              {
                pattern: daily,
                memberIds: ids,
                holderId: 1,
                turnUserId: 1,
                nextBoundary: START,
                timeOff,
              },
              START,
              new Date(START.getTime() + 60 * 24 * HOUR),
            );
          const plain = project([]);
          const start = new Date(START.getTime() + (startDay * 24 + startHour) * HOUR);
          const week = { start, end: new Date(start.getTime() + 7 * 24 * HOUR) };
          const moved = project([{ userId: 2, ...week }]);
          moved.forEach((shift, i) => {
            const inside = shift.start < week.end && week.start < shift.end;
            if (!inside) expect(shift.userId).toBe(plain[i].userId);
            else if (plain[i].userId !== 2) expect(shift.userId).toBe(plain[i].userId);
            else expect(shift.userId).not.toBe(2);
          });
        },
      ),
    );
  });

  test('the engine hands over what the projection shows, boundary after boundary', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const timeOff = windowsOf(s);
        const projected = projectionOf(s).slice(1);
        let holder: number | null = s.holder;
        let turn: number | null = s.turn;
        let boundary = START;
        let lastHandoffAt: Date | null = null;
        for (const shift of projected) {
          expect(shift.start).toEqual(boundary);
          // The engine runs when the automatic transfer is due: nobody passed by hand.
          const now = new Date(boundary.getTime() + t.autoTransferAfterMs);
          for (const effect of planHandoffFlow(
            {
              pattern: weeklyUtc,
              boundary,
              lastHandoffAt,
              memberIds: idsOf(s.n),
              holderId: holder,
              turnUserId: turn,
              timeOff,
            },
            now,
            t,
          )) {
            if (effect.kind === 'transfer') {
              // What the database then knows: the new holder, and the turn owner with the advance.
              holder = effect.toId;
              lastHandoffAt = now;
            } else if (effect.kind === 'advance') {
              boundary = effect.nextBoundary;
              if (effect.turnUserId != null) turn = effect.turnUserId;
            }
          }
          expect(holder).toBe(shift.userId);
          expect(turnOwnerOf(idsOf(s.n), turn, holder)).toBe(shift.ownerId);
        }
      }),
      { numRuns: 60 },
    );
  });

  test('a projection made later, from where the baton then is, agrees with the earlier one', () => {
    fc.assert(
      fc.property(scenario, fc.integer({ min: 1, max: WEEKS - 2 }), (s, k) => {
        const timeOff = windowsOf(s);
        const all = projectionOf(s);
        // What the database then knows at shift k: its holder and its turn owner.
        const later = projectFixedTurns(
          {
            pattern: weeklyUtc,
            memberIds: idsOf(s.n),
            holderId: all[k].userId,
            turnUserId: all[k].ownerId,
            nextBoundary: all[k].end,
            timeOff,
          },
          new Date(all[k].end.getTime() - HOUR),
          new Date(START.getTime() + WEEKS * WEEK),
        );
        expect(holders(later.slice(1))).toEqual(holders(all.slice(k + 1)));
      }),
    );
  });

  test('nextTurn without time off is memberIdAfter of the turn owner', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { shift } = turnSpansAt(weeklyUtc, START);
        const owner = turnOwnerOf(idsOf(s.n), s.turn, s.holder);
        const turn = nextTurn({
          memberIds: idsOf(s.n),
          holderId: s.holder,
          ownerId: owner,
          shift,
          timeOff: [],
        });
        expect(turn.holderId).toBe(memberIdAfter(idsOf(s.n), owner));
      }),
    );
  });
});

test('the weekly shifts the tests walk are a week apart in UTC', () => {
  expect(handoffsBetween(weeklyUtc, START, new Date(START.getTime() + 2 * WEEK))).toHaveLength(2);
  expect(nextHandoffAt(weeklyUtc, START).getTime() - START.getTime()).toBe(WEEK);
});
