import { describe, expect, test } from 'vitest';
import {
  type CoverageFacts,
  type CoverageStartInput,
  coverageDisplayStatus,
  coverageResponseRefusal,
  coverageStart,
  holderAfterFixedCoverage,
  holderAfterScheduledCoverage,
} from './coverage';
import { DEFAULT_HANDOFF_TIMINGS } from './handoff-flow';

const at = (iso: string) => new Date(iso);
const now = at('2026-03-02T12:00:00Z');
const request = (over: Partial<CoverageFacts> = {}): CoverageFacts => ({
  status: 'pending',
  requesterId: 1,
  coveringUserId: 2,
  start: at('2026-03-03T09:00:00Z'),
  end: at('2026-03-04T09:00:00Z'),
  ...over,
});

describe('coverageResponseRefusal', () => {
  test.each([
    ['the covering member accepts a pending request', request(), 2, 'accept', null],
    ['... and declines it', request(), 2, 'decline', null],
    [
      '... and withdraws an acceptance before the start',
      request({ status: 'accepted' }),
      2,
      'decline',
      null,
    ],
    ['the requester cannot accept', request(), 1, 'accept', 'FORBIDDEN'],
    ['a third person cannot decline', request(), 3, 'decline', 'FORBIDDEN'],
    [
      'an answered request cannot be accepted again',
      request({ status: 'declined' }),
      2,
      'accept',
      'CONFLICT',
    ],
    [
      'a running window cannot be declined',
      request({ status: 'active' }),
      2,
      'decline',
      'CONFLICT',
    ],
    [
      'a window that has ended cannot be accepted',
      request({ end: at('2026-03-02T11:00:00Z') }),
      2,
      'accept',
      'CONFLICT',
    ],
    ['the requester cancels a pending request', request(), 1, 'cancel', null],
    [
      'the covering member cancels a running window',
      request({ status: 'active' }),
      2,
      'cancel',
      null,
    ],
    ['a third person cannot cancel', request(), 3, 'cancel', 'FORBIDDEN'],
    [
      'whoever arranged it cancels it',
      request({ status: 'accepted', arrangedById: 7 }),
      7,
      'cancel',
      null,
    ],
    [
      'whoever arranged it cannot accept for the covering member',
      request({ arrangedById: 7 }),
      7,
      'accept',
      'FORBIDDEN',
    ],
    [
      'a finished window cannot be cancelled',
      request({ status: 'completed' }),
      1,
      'cancel',
      'CONFLICT',
    ],
  ] as const)('%s', (_name, facts, actor, action, code) => {
    expect(coverageResponseRefusal(facts, actor, action, now)?.code ?? null).toBe(code);
  });
});

test.each([
  ['pending', '2026-03-03T00:00:00Z', 'Pending'],
  ['pending', '2026-03-01T00:00:00Z', 'Expired'],
  ['accepted', '2026-03-03T00:00:00Z', 'Accepted'],
  ['active', '2026-03-03T00:00:00Z', 'Active'],
  ['declined', '2026-03-03T00:00:00Z', 'Declined'],
  ['cancelled', '2026-03-03T00:00:00Z', 'Cancelled'],
  ['completed', '2026-03-01T00:00:00Z', 'Completed'],
])('a %s request ending %s reads %s', (status, end, label) => {
  expect(coverageDisplayStatus({ status, end }, now)).toBe(label);
});

describe('who holds the baton when a window ends', () => {
  const pattern = {
    cadence: 'daily',
    timeZone: 'Europe/London',
    handoffTime: '09:00',
    handoffWeekday: 1,
  } as const;
  const base = { pattern, memberIds: [1, 2, 3], requesterId: 1 };

  test.each([
    [
      'no boundary inside the window: the requester',
      '2026-03-03T09:00:00Z',
      '2026-03-03T08:00:00Z',
      1,
      0,
    ],
    [
      'one boundary inside: the member after the requester',
      '2026-03-03T09:00:00Z',
      '2026-03-03T12:00:00Z',
      2,
      1,
    ],
    ['a boundary exactly at the end counts', '2026-03-03T09:00:00Z', '2026-03-03T09:00:00Z', 2, 1],
    [
      'three boundaries, across the London spring change',
      '2026-03-28T09:00:00Z',
      '2026-03-30T10:00:00Z',
      1,
      3,
    ],
  ])('%s', (_name, pending, end, holder, passed) => {
    expect(
      holderAfterFixedCoverage({ ...base, pendingBoundary: at(pending), end: at(end) }),
    ).toMatchObject({ holderId: holder, boundariesPassed: passed });
  });

  test('a requester who left the rotation hands to the first member; a sole member keeps it', () => {
    expect(
      holderAfterFixedCoverage({
        ...base,
        requesterId: 9,
        pendingBoundary: null,
        end: at('2026-03-03T08:00:00Z'),
      }).holderId,
    ).toBe(1);
    expect(
      holderAfterFixedCoverage({
        ...base,
        memberIds: [1],
        pendingBoundary: at('2026-03-03T09:00:00Z'),
        end: at('2026-03-05T09:00:00Z'),
      }).holderId,
    ).toBe(1);
  });

  test('a scheduled rotation: the entry covering the end, or nobody in a gap', () => {
    const entries = [
      { userId: 5, start: at('2026-03-03T00:00:00Z'), end: at('2026-03-04T00:00:00Z') },
    ];
    expect(holderAfterScheduledCoverage(entries, at('2026-03-03T10:00:00Z'))).toBe(5);
    expect(holderAfterScheduledCoverage(entries, at('2026-03-04T00:00:00Z'))).toBeNull();
  });
});

describe('coverageStart: how a window can start (decision 218)', () => {
  const pattern = {
    cadence: 'weekly',
    timeZone: 'Europe/Berlin',
    handoffTime: '09:00',
    handoffWeekday: 1,
  } as const;
  // Mon Mar 30 2026, 09:00 in Berlin (summer time since Mar 29) is 07:00 UTC.
  const boundary = at('2026-03-30T07:00:00Z');
  const fixed = (over: Partial<CoverageStartInput> = {}): CoverageStartInput => ({
    type: 'fixed',
    pattern,
    memberIds: [1, 2, 3],
    holderId: 1,
    nextBoundary: boundary,
    lastHandoffAt: at('2026-03-23T07:10:00Z'),
    entries: [],
    requesterId: 2,
    at: boundary,
    ...over,
  });
  // Member 2 away over the shift the boundary begins; member 3 away over the shift before it.
  const away2 = { userId: 2, start: at('2026-03-29T00:00:00Z'), end: at('2026-04-07T00:00:00Z') };
  const away3Before = {
    userId: 3,
    start: at('2026-03-22T00:00:00Z'),
    end: at('2026-03-29T00:00:00Z'),
  };
  const scheduled = (over: Partial<CoverageStartInput> = {}): CoverageStartInput =>
    fixed({
      type: 'scheduled',
      holderId: 1,
      nextBoundary: at('2026-03-30T07:00:00Z'),
      entries: [
        { userId: 1, start: at('2026-03-29T07:00:00Z'), end: at('2026-03-30T07:00:00Z') },
        { userId: 2, start: at('2026-03-30T07:00:00Z'), end: at('2026-03-31T07:00:00Z') },
      ],
      ...over,
    });

  test.each([
    ['the requester holds the baton', fixed({ holderId: 2 }), 'holder'],
    ['the boundary that begins their shift is due, not yet passed', fixed(), 'due'],
    [
      '… and an hour later, still waiting for the pass',
      fixed({ at: at('2026-03-30T08:00:00Z') }),
      'due',
    ],
    ['the boundary is still ahead', fixed({ at: at('2026-03-30T06:59:00Z') }), null],
    ['someone else is next', fixed({ requesterId: 3 }), null],
    [
      'the boundary was already handled by hand',
      fixed({ lastHandoffAt: at('2026-03-30T06:45:00Z') }),
      null,
    ],
    [
      'a later boundary has passed too: not the requester’s shift',
      fixed({ at: at('2026-04-06T07:00:00Z') }),
      null,
    ],
    ['no pending boundary', fixed({ nextBoundary: null }), null],
    [
      'member 2 is away for the shift: it is member 3’s by the time-off rule (decision 256)',
      fixed({ requesterId: 3, timeOff: [away2] }),
      'due',
    ],
    ['… and not member 2’s, who is away', fixed({ timeOff: [away2] }), null],
    [
      'member 1 holds member 2’s turn as a cover: the shift is member 3’s (decision 256)',
      fixed({ requesterId: 3, turnUserId: 2, timeOff: [away3Before] }),
      'due',
    ],
    ['a scheduled entry of the requester begins', scheduled(), 'due'],
    ['a scheduled entry of someone else', scheduled({ requesterId: 3 }), null],
    [
      'a scheduled change not yet due',
      scheduled({ nextBoundary: at('2026-03-30T08:00:00Z') }),
      null,
    ],
  ] as const)('%s', (_name, input, expected) => {
    expect(coverageStart(input, DEFAULT_HANDOFF_TIMINGS)).toBe(expected);
  });
});
