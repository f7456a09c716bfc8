import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';

// shifts.ts remembers a zone's offset at each whole UTC hour and the instant of each wall minute
// (issue 36: a projection asks the same ones about a million times), both bounded. Their answers
// are checked against Intl in shifts.test.ts; here, that they are remembered (the zone is not read
// again) and forgotten when the bound is reached. tzOffset is counted, and made cheap while the
// caches are filled to their bounds (in a zone and years no other test here reads).

vi.mock('@date-fns/tz', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@date-fns/tz')>();
  return { ...actual, tzOffset: vi.fn(actual.tzOffset) };
});

// The main suite's workers share their module cache (vitest.config.ts, isolate: false): shifts.ts
// may have been loaded with the real tzOffset by an earlier file. Loaded afresh here, it reads the
// counted one; and afresh again after, so no later file gets this copy.
vi.resetModules();
const { instantOfWallMinute, zoneOffset } = await import('./shifts');
const { tzOffset } = await import('@date-fns/tz');
afterAll(() => {
  vi.resetModules();
});
const actual = await vi.importActual<typeof import('@date-fns/tz')>('@date-fns/tz');
const reads = vi.mocked(tzOffset);
const HOUR = 3_600_000;
const FILL_ZONE = 'Etc/GMT-5';

beforeEach(() => {
  reads.mockImplementation(actual.tzOffset);
  reads.mockClear();
});

describe('zoneOffset remembers each whole hour', () => {
  test('an instant inside an hour without a change reads the hour’s two ends, once', () => {
    const t = Date.parse('2031-05-01T10:20:00Z');
    expect(zoneOffset('Asia/Tokyo', t)).toBe(540);
    expect(reads.mock.calls.map(([, d]) => d?.toISOString())).toEqual([
      '2031-05-01T10:00:00.000Z',
      '2031-05-01T11:00:00.000Z',
    ]);
    reads.mockClear();
    expect(zoneOffset('Asia/Tokyo', t + 25 * 60_000)).toBe(540);
    expect(zoneOffset('Asia/Tokyo', t - 20 * 60_000)).toBe(540);
    expect(reads).not.toHaveBeenCalled();
  });

  test('a whole hour reads that hour alone', () => {
    expect(zoneOffset('Asia/Tokyo', Date.parse('2031-05-02T10:00:00Z'))).toBe(540);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  test('past 200,000 hours remembered, the ones before are forgotten', () => {
    const first = Date.parse('2031-06-01T00:00:00Z');
    zoneOffset('Asia/Tokyo', first);
    reads.mockImplementation(() => 0);
    const fillStart = Date.parse('2300-01-01T00:00:00Z');
    for (let i = 0; i < 200_000; i++) {
      zoneOffset(FILL_ZONE, fillStart + i * HOUR);
      if (i % 10_000 === 0) reads.mockClear();
    }
    reads.mockImplementation(actual.tzOffset);
    reads.mockClear();
    expect(zoneOffset('Asia/Tokyo', first)).toBe(540);
    expect(zoneOffset(FILL_ZONE, fillStart)).toBe(300);
    expect(reads).toHaveBeenCalledTimes(2);
  });
});

describe('instantOfWallMinute remembers each wall minute', () => {
  // 01:30 and 01:45 on 2031-03-30 in London are skipped by the spring change (01:00 UTC), whose
  // hour zoneOffset always asks Intl about: computing either instant reads the zone.
  const minute = (iso: string) => Date.parse(iso) / 60_000;
  const skipped = minute('2031-03-30T01:30:00Z');
  const alsoSkipped = minute('2031-03-30T01:45:00Z');

  test('asked again, a minute is not worked out again, another minute meanwhile or not', () => {
    expect(instantOfWallMinute(skipped, 'Europe/London').toISOString()).toBe(
      '2031-03-30T01:00:00.000Z',
    );
    expect(reads).toHaveBeenCalled();
    expect(instantOfWallMinute(alsoSkipped, 'Europe/London').toISOString()).toBe(
      '2031-03-30T01:00:00.000Z',
    );
    reads.mockClear();
    expect(instantOfWallMinute(skipped, 'Europe/London').toISOString()).toBe(
      '2031-03-30T01:00:00.000Z',
    );
    expect(instantOfWallMinute(alsoSkipped, 'Europe/London').toISOString()).toBe(
      '2031-03-30T01:00:00.000Z',
    );
    expect(reads).not.toHaveBeenCalled();
  });

  test('past 100,000 minutes remembered, the ones before are forgotten', () => {
    instantOfWallMinute(skipped, 'Europe/London');
    reads.mockImplementation(() => 0);
    const fillStart = minute('2400-01-01T00:00:00Z');
    for (let i = 0; i < 100_000; i++) {
      instantOfWallMinute(fillStart + i, FILL_ZONE);
      if (i % 10_000 === 0) reads.mockClear();
    }
    reads.mockImplementation(actual.tzOffset);
    reads.mockClear();
    expect(instantOfWallMinute(skipped, 'Europe/London').toISOString()).toBe(
      '2031-03-30T01:00:00.000Z',
    );
    expect(reads).toHaveBeenCalled();
  });
});
