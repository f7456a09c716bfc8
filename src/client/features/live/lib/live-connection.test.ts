import { describe, expect, test } from 'vitest';
import { retryDelayMs, SeenIds, statusAfterFailures, streamUrl } from './live-connection';

describe('the stream’s reconnection rules', () => {
  test.each([
    [0, 'connecting'],
    [1, 'connecting'],
    [2, 'connecting'],
    [3, 'polling'],
    [7, 'polling'],
  ] as const)('after %i failed attempts the status is %s', (failures, status) => {
    expect(statusAfterFailures(failures)).toBe(status);
  });

  test.each([
    [1, 1_000],
    [2, 2_000],
    [3, 4_000],
    [6, 30_000],
    [20, 30_000],
  ])('attempt after %i failures waits %i ms', (failures, ms) => {
    expect(retryDelayMs(failures)).toBe(ms);
  });

  test('a new stream carries the last id heard, and only an id', () => {
    expect(streamUrl(null)).toBe('/api/events');
    expect(streamUrl('42')).toBe('/api/events?lastEventId=42');
    expect(streamUrl('42&x=1')).toBe('/api/events');
  });
});

describe('SeenIds', () => {
  test('an id replayed after a reconnect is acted on once', () => {
    const seen = new SeenIds(3);
    expect([1, 2, 1, 3, 2].map((id) => seen.firstTime(id))).toEqual([
      true,
      true,
      false,
      true,
      false,
    ]);
    // The oldest is forgotten past the capacity.
    seen.firstTime(4);
    expect(seen.firstTime(1)).toBe(true);
  });
});
