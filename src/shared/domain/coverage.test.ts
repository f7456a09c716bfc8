import { describe, expect, test } from 'vitest';
import {
  type CoverageFacts,
  coverageDisplayStatus,
  coverageResponseRefusal,
  holderAfterFixedCoverage,
  holderAfterScheduledCoverage,
} from './coverage';

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
    ).toEqual({ holderId: holder, boundariesPassed: passed });
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
