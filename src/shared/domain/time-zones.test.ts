import { describe, expect, test } from 'vitest';
import { isTimeZone, zoneOrUtc } from './time-zones';

describe('time zones', () => {
  test('an IANA zone the runtime knows is one; anything else is not', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    // Asked twice: the remembered answer is the same.
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
  });

  test('zoneOrUtc keeps a known zone and falls back to UTC', () => {
    expect(zoneOrUtc('Asia/Tokyo')).toBe('Asia/Tokyo');
    expect(zoneOrUtc('Not/A_Zone')).toBe('UTC');
    expect(zoneOrUtc(undefined)).toBe('UTC');
    expect(zoneOrUtc(null)).toBe('UTC');
  });
});
