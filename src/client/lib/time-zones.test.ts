import { TIMEZONES } from '@shared/contracts/users';
import { describe, expect, test } from 'vitest';
import {
  currentZoneName,
  matchesZone,
  pinnedFirst,
  timeZoneChoices,
  utcOffsetLabel,
} from './time-zones';

describe('timeZoneChoices', () => {
  test('every zone the runtime knows, UTC first, the rest sorted', () => {
    const zones = timeZoneChoices();
    expect(zones[0]).toBe('UTC');
    expect(zones.length).toBeGreaterThan(400);
    for (const zone of Intl.supportedValuesOf('timeZone')) {
      expect(zones).toContain(currentZoneName(zone));
    }
    expect(zones.slice(1)).toEqual([...zones.slice(1)].sort((a, b) => a.localeCompare(b, 'en')));
    expect(new Set(zones).size).toBe(zones.length);
  });

  test('lists renamed zones by their current IANA name, once', () => {
    const zones = timeZoneChoices([], ['Asia/Calcutta', 'Europe/Kiev', 'America/Buenos_Aires']);
    expect(zones).toContain('Asia/Kolkata');
    expect(zones).toContain('Europe/Kyiv');
    expect(zones).toContain('America/Argentina/Buenos_Aires');
    expect(zones).not.toContain('Asia/Calcutta');
    expect(
      timeZoneChoices(['Asia/Kolkata'], ['Asia/Calcutta']).filter((z) => z.includes('Kolkata')),
    ).toEqual(['Asia/Kolkata']);
    expect(currentZoneName('Asia/Tokyo')).toBe('Asia/Tokyo');
  });

  test('adds the profile zones and the rotation’s own, once each', () => {
    expect(timeZoneChoices(['Pacific/Chatham', 'UTC', null], ['Asia/Tokyo', 'UTC'])).toEqual([
      'UTC',
      'America/Chicago',
      'America/Denver',
      'America/Los_Angeles',
      'America/New_York',
      'Asia/Tokyo',
      'Australia/Sydney',
      'Europe/London',
      'Europe/Paris',
      'Pacific/Chatham',
    ]);
  });
});

describe('utcOffsetLabel', () => {
  test.each([
    ['UTC', '2026-01-15T12:00:00Z', 'UTC+00:00'],
    ['Europe/London', '2026-07-15T12:00:00Z', 'UTC+01:00'],
    ['America/New_York', '2026-01-15T12:00:00Z', 'UTC−05:00'],
    ['America/New_York', '2026-07-15T12:00:00Z', 'UTC−04:00'],
    ['Asia/Kolkata', '2026-07-15T12:00:00Z', 'UTC+05:30'],
    ['Australia/Sydney', '2026-01-15T12:00:00Z', 'UTC+11:00'],
    ['Pacific/Chatham', '2026-01-15T12:00:00Z', 'UTC+13:45'],
    ['Mars/Olympus', '2026-01-15T12:00:00Z', ''],
  ])('%s at %s is %s', (zone, at, expected) => {
    expect(utcOffsetLabel(zone, new Date(at))).toBe(expected);
  });
});

describe('matchesZone', () => {
  test.each([
    ['', 'Asia/Tokyo', 'UTC+09:00', true],
    ['tokyo', 'Asia/Tokyo', 'UTC+09:00', true],
    ['new york', 'America/New_York', 'UTC−05:00', true],
    ['NEW_YORK', 'America/New_York', 'UTC−05:00', true],
    ['america york', 'America/New_York', 'UTC−05:00', true],
    ['utc-05', 'America/New_York', 'UTC−05:00', true],
    ['+05:30', 'Asia/Kolkata', 'UTC+05:30', true],
    ['calcutta', 'Asia/Kolkata', 'UTC+05:30', true],
    ['kiev', 'Europe/Kyiv', 'UTC+02:00', true],
    ['york paris', 'America/New_York', 'UTC−05:00', false],
    ['tokyo', 'Asia/Seoul', 'UTC+09:00', false],
  ])('%j matches %s (%s): %s', (query, zone, offset, expected) => {
    expect(matchesZone(query, zone, offset)).toBe(expected);
  });
});

describe('pinnedFirst', () => {
  test('puts the pinned zones first in their order, then the rest in theirs', () => {
    const zones = timeZoneChoices([], ['Asia/Kathmandu', 'Europe/Berlin', 'Asia/Tokyo']);
    const list = pinnedFirst(zones, TIMEZONES);
    expect(list.slice(0, 9)).toEqual([...TIMEZONES]);
    expect(list).toContain('Asia/Kathmandu');
    expect(list.indexOf('Asia/Kathmandu')).toBeLessThan(list.indexOf('Europe/Berlin'));
    expect(new Set(list).size).toBe(list.length);
    expect(list).toHaveLength(zones.length);
  });

  test('leaves out a pinned zone the list lacks', () => {
    expect(pinnedFirst(['A/B', 'C/D'], ['X/Y', 'C/D'])).toEqual(['C/D', 'A/B']);
  });
});
