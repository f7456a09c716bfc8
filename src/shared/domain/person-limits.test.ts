import { describe, expect, test } from 'vitest';
import { bundleText, type LimitCandidate, PERSON_LIMIT, planLimits } from './person-limits';

const now = new Date('2026-11-30T12:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
const page = (id: number, over: Partial<LimitCandidate> = {}): LimitCandidate => ({
  id,
  userId: 1,
  channel: 'sms',
  heldByLimit: false,
  ...over,
});

describe('planLimits', () => {
  test('the limit is GoAlert’s: 3 texts and calls per 15 minutes', () => {
    expect(PERSON_LIMIT).toEqual({ count: 3, windowMs: 15 * 60_000 });
  });

  test('5 new pages: 3 go, 2 wait until the oldest send leaves the window', () => {
    const plan = planLimits(
      [1, 2, 3, 4, 5].map((id) => page(id)),
      new Map(),
      now,
    );
    expect([1, 2, 3].map((id) => plan.get(id))).toEqual([
      { kind: 'send' },
      { kind: 'send' },
      { kind: 'send' },
    ]);
    const until = new Date(now.getTime() + 15 * 60_000);
    expect(plan.get(4)).toEqual({ kind: 'hold', until });
    expect(plan.get(5)).toEqual({ kind: 'hold', until });
  });

  test('what was sent in the window counts; older sends do not', () => {
    const sent = new Map([[1, [minutesAgo(10), minutesAgo(20)]]]);
    const plan = planLimits([page(1), page(2), page(3)], sent, now);
    expect(plan.get(1)).toEqual({ kind: 'send' });
    expect(plan.get(2)).toEqual({ kind: 'send' });
    // Room comes back when the send of 10 minutes ago leaves the window: in 5 minutes.
    expect(plan.get(3)).toEqual({ kind: 'hold', until: new Date(now.getTime() + 5 * 60_000) });
  });

  test('texts and calls count together, by channel name; email is not limited', () => {
    const plan = planLimits(
      [
        page(1),
        page(2, { channel: 'voice' }),
        page(3),
        page(4, { channel: 'voice' }),
        page(5, { channel: 'email' }),
      ],
      new Map(),
      now,
    );
    expect(plan.get(4)?.kind).toBe('hold');
    expect(plan.has(5)).toBe(false);
  });

  test('held pages of one channel go as one bundle, taking one place', () => {
    const held = [
      page(7, { heldByLimit: true }),
      page(8, { heldByLimit: true }),
      page(9, { heldByLimit: true }),
    ];
    const plan = planLimits([...held, page(10)], new Map([[1, [minutesAgo(14)]]]), now);
    expect(plan.get(7)).toEqual({ kind: 'send' });
    expect(plan.get(8)).toEqual({ kind: 'bundle', leadId: 7 });
    expect(plan.get(9)).toEqual({ kind: 'bundle', leadId: 7 });
    expect(plan.get(10)).toEqual({ kind: 'send' });
  });

  test('each person has their own limit', () => {
    const plan = planLimits(
      [1, 2, 3, 4].flatMap((id) => [page(id), page(id + 10, { userId: 2 })]),
      new Map(),
      now,
    );
    expect(plan.get(4)?.kind).toBe('hold');
    expect(plan.get(14)?.kind).toBe('hold');
    expect(plan.get(13)?.kind).toBe('send');
  });

  test('nothing is dropped: every candidate has a decision', () => {
    const candidates = Array.from({ length: 20 }, (_, i) => page(i + 1));
    expect(planLimits(candidates, new Map(), now).size).toBe(20);
  });
});

test('bundleText', () => {
  expect(bundleText(['#1 Disk full', '#2 API down', '#3 Queue stuck'])).toBe(
    '3 more pages: #1 Disk full; #2 API down; #3 Queue stuck',
  );
});
