import { describe, expect, test } from 'vitest';
import {
  dayPickerKey,
  formatDate,
  formatDateTime,
  formatDay,
  formatDuration,
  formatMonth,
  formatShortDate,
  formatTime,
  formatToSecond,
  formatWeekdayDateTime,
  formatWeekdayDay,
  INVALID_DATE_TEXT,
  MISSING_DATE_TEXT,
  timesInText,
  toLocalInput,
  viewerZone,
} from './format-time';

describe('formatDate', () => {
  test.each([
    ['2025-01-05T15:04:00.000Z', 'January 5, 2025'],
    ['2024-02-29T00:00:00.000Z', 'February 29, 2024'],
    [Date.UTC(2023, 11, 31, 23, 59), 'December 31, 2023'],
    [new Date(Date.UTC(2025, 6, 4)), 'July 4, 2025'],
  ])('%j gives %j in UTC', (value, expected) => {
    expect(formatDate(value, 'UTC')).toBe(expected);
  });

  test('shows the date of the zone asked for, not the browser zone', () => {
    expect(formatDate('2025-01-05T03:00:00.000Z', 'America/New_York')).toBe('January 4, 2025');
    expect(formatDate('2025-01-05T23:30:00.000Z', 'Asia/Tokyo')).toBe('January 6, 2025');
  });

  test.each([null, undefined, ''])('%j is an unknown date', (value) => {
    expect(formatDate(value, 'UTC')).toBe(MISSING_DATE_TEXT);
    expect(MISSING_DATE_TEXT).toBe('unknown date');
  });

  test.each(['not a date', '2025-13-45', Number.NaN, new Date('nope')])(
    '%j is an invalid date',
    (value) => {
      expect(formatDate(value, 'UTC')).toBe(INVALID_DATE_TEXT);
      expect(INVALID_DATE_TEXT).toBe('Invalid date');
    },
  );
});

describe('formatDateTime', () => {
  // One handoff at 20:42 UTC, as each screen shows it to people in three zones.
  test.each([
    ['UTC', /^November 24, 2026(,| at) 8:42\sPM$/],
    ['Europe/Berlin', /^November 24, 2026(,| at) 9:42\sPM$/],
    ['America/New_York', /^November 24, 2026(,| at) 3:42\sPM$/],
    ['Asia/Kathmandu', /^November 25, 2026(,| at) 2:27\sAM$/],
  ])('in %s', (zone, expected) => {
    expect(formatDateTime('2026-11-24T20:42:00.000Z', zone)).toMatch(expected);
  });

  test('follows daylight saving time across a change (Berlin, 29 March 2026)', () => {
    // 00:30 UTC is 1:30 AM CET before the change; 02:30 UTC is 4:30 AM CEST after it.
    expect(formatDateTime('2026-03-29T00:30:00.000Z', 'Europe/Berlin')).toMatch(/1:30\sAM$/);
    expect(formatDateTime('2026-03-29T02:30:00.000Z', 'Europe/Berlin')).toMatch(/4:30\sAM$/);
    // New York falls back on 1 November 2026: 05:30 and 06:30 UTC both read 1:30 AM.
    expect(formatTime('2026-11-01T05:30:00.000Z', 'America/New_York')).toMatch(/^1:30\sAM$/);
    expect(formatTime('2026-11-01T06:30:00.000Z', 'America/New_York')).toMatch(/^1:30\sAM$/);
  });

  test('a zone the browser cannot format reads as UTC rather than throwing', () => {
    expect(formatDateTime('2025-01-05T15:04:00.000Z', 'Mars/Olympus_Mons')).toMatch(
      /^January 5, 2025(,| at) 3:04\sPM$/,
    );
  });

  test('handles missing and invalid values like formatDate', () => {
    expect(formatDateTime(undefined, 'UTC')).toBe('unknown date');
    expect(formatDateTime('garbage', 'Europe/Berlin')).toBe('Invalid date');
    expect(formatTime(null, 'UTC')).toBe('unknown date');
    expect(formatToSecond('garbage', 'UTC')).toBe('Invalid date');
  });
});

describe('the other styles', () => {
  test('formatShortDate gives month abbreviation, two-digit day and year', () => {
    expect(formatShortDate('2025-03-07T12:00:00.000Z', 'UTC')).toBe('Mar 07, 2025');
    expect(formatShortDate('2025-03-07T23:00:00.000Z', 'Europe/Berlin')).toBe('Mar 08, 2025');
    expect(formatShortDate(null, 'UTC')).toBe('unknown date');
    expect(formatShortDate('garbage', 'UTC')).toBe('Invalid date');
  });

  test('formatTime and formatToSecond', () => {
    expect(formatTime('2026-11-24T08:00:00.000Z', 'Europe/Berlin')).toMatch(/^9:00\sAM$/);
    expect(formatToSecond('2026-11-22T03:20:05.000Z', 'UTC')).toMatch(/^Nov 22, 3:20:05\sAM$/);
  });

  test('formatMonth and formatDay name calendar values, whatever the zone', () => {
    expect(formatMonth({ year: 2026, month: 11 })).toBe('November 2026');
    expect(formatDay({ year: 2026, month: 11, day: 2 })).toBe('Monday, November 2');
  });
});

describe('viewerZone', () => {
  test('the profile zone when the browser knows it', () => {
    const zone = viewerZone('Europe/Berlin');
    expect(zone).toEqual({ timeZone: 'Europe/Berlin', unsupported: null });
    expect(timesInText(zone)).toBe('Times in Europe/Berlin');
  });

  test('UTC with a note when the saved zone cannot be formatted', () => {
    const zone = viewerZone('Mars/Olympus_Mons');
    expect(zone).toEqual({ timeZone: 'UTC', unsupported: 'Mars/Olympus_Mons' });
    expect(timesInText(zone)).toBe(
      'Times in UTC: this browser cannot show your time zone (Mars/Olympus_Mons)',
    );
  });

  test('UTC when no zone is saved; the browser zone when nobody is signed in', () => {
    expect(viewerZone('')).toEqual({ timeZone: 'UTC', unsupported: null });
    expect(viewerZone(undefined, false).unsupported).toBeNull();
    expect(viewerZone(undefined, false).timeZone).toBe(
      Intl.DateTimeFormat().resolvedOptions().timeZone,
    );
  });
});

test('toLocalInput gives a datetime-local value in the zone asked for', () => {
  expect(toLocalInput(new Date(Date.UTC(2026, 2, 5, 7, 9)), 'UTC')).toBe('2026-03-05T07:09');
  expect(toLocalInput(new Date(Date.UTC(2026, 2, 5, 7, 9)), 'Europe/Berlin')).toBe(
    '2026-03-05T08:09',
  );
  expect(toLocalInput(new Date(Date.UTC(2026, 2, 5, 3, 0)), 'America/New_York')).toBe(
    '2026-03-04T22:00',
  );
});

test('formatDuration gives the span in its largest unit', () => {
  expect(formatDuration(new Date(Date.UTC(2026, 2, 5)), new Date(Date.UTC(2026, 2, 8)))).toBe(
    '3 days',
  );
  expect(
    formatDuration(new Date(Date.UTC(2026, 2, 5, 9)), new Date(Date.UTC(2026, 2, 5, 21))),
  ).toBe('12 hours');
});

test('dayPickerKey names a local calendar day as M/D/YYYY', () => {
  expect(dayPickerKey(new Date(2026, 2, 5))).toBe('3/5/2026');
});

test('the timeline’s styles: a weekday with the date, and a brief instant with its weekday', () => {
  const at = '2027-03-01T07:00:00Z';
  expect(formatWeekdayDay(at, 'Europe/London')).toBe('Mon 1');
  // Late on the 1st in New York is the 2nd in Sydney.
  expect(formatWeekdayDay('2027-03-02T01:00:00Z', 'Australia/Sydney')).toBe('Tue 2');
  expect(formatWeekdayDateTime(at, 'Europe/London')).toBe('Mon, Mar 1, 7:00 AM');
  expect(formatWeekdayDateTime(at, 'America/New_York')).toBe('Mon, Mar 1, 2:00 AM');
  expect(formatWeekdayDay(null, 'UTC')).toBe(MISSING_DATE_TEXT);
  expect(formatWeekdayDay('nope', 'UTC')).toBe(INVALID_DATE_TEXT);
});
