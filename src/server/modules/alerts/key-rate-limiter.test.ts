import { describe, expect, test } from 'vitest';
import { ManualClock } from '../../core/clock';
import { KeyRateLimiter } from './key-rate-limiter';

describe('KeyRateLimiter', () => {
  test('counts each integration apart, per second of the clock', () => {
    const clock = new ManualClock('2026-11-02T12:00:00.900Z');
    const limiter = new KeyRateLimiter(clock);
    expect([1, 2, 3].map(() => limiter.take(1, 2))).toEqual([0, 0, 1]);
    expect(limiter.take(2, 2)).toBe(0);
    clock.advance(100); // the next second
    expect([1, 2, 3].map(() => limiter.take(1, 2))).toEqual([0, 0, 1]);
    // A raised limit holds at once.
    expect(limiter.take(1, 5)).toBe(0);
  });
});
