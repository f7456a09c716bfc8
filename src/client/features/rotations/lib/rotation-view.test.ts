import { describe, expect, test } from 'vitest';
import {
  cadenceLabel,
  canManage,
  canPage,
  cardBadge,
  memberStatusLabel,
  moveItem,
  needsScheduleFirst,
  nobodyNowText,
  nobodyOnCallNow,
  patternLine,
  reorderPayload,
  rotationKindText,
  rotationSummary,
  rotationsInTab,
  showingAllText,
  suspendedBannerText,
  unstaffedRotations,
  unstaffedText,
} from './rotation-view';

const person = (id: number) => ({ id, name: `User ${id}`, email: `u${id}@example.com` });
const member = (userId: number, order: number) => ({
  id: 100 + userId,
  userId,
  order,
  user: person(userId),
});

const rotation = {
  currentOnCallUserId: 1 as number | null,
  nextOnCall: person(2) as ReturnType<typeof person> | null,
  members: [member(1, 0), member(2, 1), member(3, 2)],
  createdById: 9 as number | null,
};

describe('labels', () => {
  test.each([
    ['weekly', 'Weekly'],
    ['daily', 'Daily'],
    ['anything', 'Daily'],
  ])('cadence %s reads %s', (cadence, label) => {
    expect(cadenceLabel(cadence)).toBe(label);
  });

  const fixed = { type: 'fixed' as const, layered: false, pattern: 'Daily shifts at 09:00' };
  test.each([
    [{ ...fixed, description: 'Front line', cadence: 'daily' as const }, 'Front line'],
    [{ ...fixed, description: null, cadence: 'weekly' as const }, 'Weekly rotation'],
    [{ ...fixed, description: '  ', cadence: 'daily' as const }, 'Daily rotation'],
  ])('summary of %j is %s', (r, text) => {
    expect(rotationSummary(r)).toBe(text);
  });

  test('a scheduled rotation never reads Daily; a layered one reads its pattern', () => {
    const scheduled = { ...fixed, type: 'scheduled' as const, pattern: 'Scheduled entries' };
    expect(rotationKindText({ ...scheduled, cadence: 'daily' })).toBe('Scheduled rotation');
    expect(rotationKindText({ ...scheduled, cadence: 'weekly' })).toBe('Scheduled rotation');
    expect(patternLine(scheduled, 'Scheduled rotation')).toBeNull();
    const sun = 'Follow the sun: London 07:00–19:00, Sydney 19:00–07:00';
    const layered = { ...fixed, layered: true, pattern: sun, cadence: 'hourly' as const };
    expect(rotationKindText(layered)).toBe(sun);
    expect(rotationSummary({ ...layered, description: null })).toBe(sun);
    expect(patternLine(layered, sun)).toBeNull();
    expect(patternLine(layered, 'Front line')).toBe(sun);
    // The specification's rotation keeps its words, with the pattern beside them.
    expect(patternLine({ ...fixed }, 'Daily rotation')).toBe('Daily shifts at 09:00');
  });

  test('nobody on call now: a running layered rotation with no holder only', () => {
    const base = { layered: true, suspended: false, currentOnCallUserId: null, type: 'fixed' };
    expect(nobodyOnCallNow({ ...base, type: 'fixed' })).toBe(true);
    expect(nobodyOnCallNow({ ...base, type: 'fixed', currentOnCallUserId: 4 })).toBe(false);
    expect(nobodyOnCallNow({ ...base, type: 'fixed', suspended: true })).toBe(false);
    expect(nobodyOnCallNow({ ...base, type: 'fixed', layered: false })).toBe(false);
    expect(nobodyOnCallNow({ ...base, type: 'scheduled' })).toBe(false);
  });

  test('nobody on call now says who comes next and when, or until when', () => {
    const at = '2027-03-06T00:00:00.000Z';
    const base = {
      layered: true,
      suspended: false,
      currentOnCallUserId: null,
      type: 'fixed' as const,
      nextOnCall: person(2),
      nextHandoffTime: at,
    };
    const when = (v: string) => `at ${v}`;
    expect(nobodyNowText(base, when)).toEqual({
      empty: 'No one on call now',
      when: `User 2 from at ${at}`,
    });
    expect(nobodyNowText({ ...base, nextOnCall: null }, when)?.when).toBe(`Until at ${at}`);
    expect(nobodyNowText({ ...base, nextHandoffTime: null }, when)?.when).toBeNull();
    expect(nobodyNowText({ ...base, layered: false }, when)).toBeNull();
  });

  test.each([
    [1, 'Currently On-Call', 'Active'],
    [2, 'Next On-Call', 'Up next'],
    [3, 'In Rotation', 'Member'],
  ] as const)('user %i is %s with badge %s', (userId, status, badge) => {
    expect(memberStatusLabel(rotation, userId)).toBe(status);
    expect(cardBadge(rotation, userId)).toBe(badge);
  });
});

describe('paging', () => {
  test.each([
    [['admin'], 42, true],
    [['incident_manager'], 42, true],
    [['manager'], 9, true],
    [['manager'], 2, true],
    [['manager'], 42, false],
    [['on-call'], 2, false],
  ] as const)('%j user %i may page: %s', (roles, userId, expected) => {
    expect(canPage(rotation, userId, roles)).toBe(expected);
  });
});

describe('managing (decision 233): edit, members and reassign', () => {
  test.each([
    [['admin'], 42, true],
    [['manager'], 9, true],
    [['manager'], 2, true],
    [['manager'], 42, false],
    [['incident_manager'], 42, false],
    [['on-call'], 2, false],
  ] as const)('%j user %i manages: %s', (roles, userId, expected) => {
    expect(canManage(rotation, userId, roles)).toBe(expected);
  });

  test('nobody signed in manages nothing', () => {
    expect(canManage(rotation, null, ['admin'])).toBe(false);
  });
});

describe('lists', () => {
  const list = [
    { suspended: false, currentOnCallUserId: 1 },
    { suspended: true, currentOnCallUserId: null },
    { suspended: false, currentOnCallUserId: null },
  ];
  test.each([
    ['all', 3],
    ['active', 2],
    ['suspended', 1],
    ['on-call', 1],
  ] as const)('tab %s shows %i', (tab, count) => {
    expect(rotationsInTab(list, tab)).toHaveLength(count);
  });

  test.each([
    [[], null],
    [[{ suspended: false }], null],
    [[{ suspended: true }], 'All rotations are currently suspended'],
    [
      [{ suspended: true }, { suspended: false }],
      'Showing 1 suspended rotation and 1 active rotation',
    ],
    [
      [{ suspended: true }, { suspended: true }, { suspended: false }, { suspended: false }],
      'Showing 2 suspended rotations and 2 active rotations',
    ],
  ])('banner for %j is %j', (rotations, text) => {
    expect(suspendedBannerText(rotations)).toBe(text);
  });

  test.each([
    [0, 'Showing all 0 rotations'],
    [1, 'Showing all 1 rotation'],
    [3, 'Showing all 3 rotations'],
  ])('%i rotations: %s', (count, text) => {
    expect(showingAllText(count)).toBe(text);
  });
});

describe('reordering', () => {
  test('moveItem moves one item and keeps the rest in order', () => {
    expect(moveItem([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4]);
    expect(moveItem([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3]);
    expect(moveItem([1, 2, 3], 0, 5)).toEqual([1, 2, 3]);
  });

  test('reorderPayload numbers the complete list from zero', () => {
    expect(reorderPayload([7, 3, 5])).toEqual([
      { id: 7, order: 0 },
      { id: 3, order: 1 },
      { id: 5, order: 2 },
    ]);
  });
});

test.each([
  [
    'Cannot change the rotation type to scheduled without at least one schedule entry. Add a schedule entry first.',
    true,
  ],
  ['This rotation is suspended and does not accept handoffs. Activate it first.', false],
  [undefined, false],
])('%j needs a schedule first: %s', (message, expected) => {
  expect(needsScheduleFirst(message)).toBe(expected);
});

describe('rotations with members and nobody on call, flagged to their managers (decision 263)', () => {
  const base = {
    id: 1,
    name: 'Payments',
    suspended: false,
    type: 'fixed' as 'fixed' | 'scheduled',
    layered: false,
    currentOnCallUserId: null as number | null,
    members: [member(1, 0), member(2, 1)],
    createdById: 9 as number | null,
  };
  test.each([
    ['members, nobody on call, managed by its creator', base, [9, 'manager'], true],
    ['an administrator sees every one', base, [5, 'admin'], true],
    ['a manager who is a member', base, [2, 'manager'], true],
    ['a manager of other rotations', base, [5, 'manager'], false],
    ['a member who is no manager', base, [1, 'on-call'], false],
    ['someone on call', { ...base, currentOnCallUserId: 1 }, [9, 'manager'], false],
    ['no members', { ...base, members: [] as (typeof base)['members'] }, [9, 'manager'], false],
    ['suspended', { ...base, suspended: true }, [9, 'manager'], false],
    [
      'scheduled: its empty hours are its schedule’s',
      { ...base, type: 'scheduled' as const },
      [9, 'manager'],
      false,
    ],
    ['layered: its windows say when', { ...base, layered: true }, [9, 'manager'], false],
  ] as const)('%s', (_, rotation, [userId, role], flagged) => {
    expect(
      unstaffedRotations([{ ...rotation, members: [...rotation.members] }], userId, [role]),
    ).toHaveLength(flagged ? 1 : 0);
  });

  test('in words, one or several', () => {
    expect(unstaffedText([])).toBeNull();
    expect(unstaffedText([{ name: 'Payments' }])).toBe(
      'Nobody is on call for Payments, though it has members',
    );
    expect(unstaffedText([{ name: 'Payments' }, { name: 'Search' }])).toBe(
      'Nobody is on call for 2 rotations you manage, though they have members',
    );
  });
});
