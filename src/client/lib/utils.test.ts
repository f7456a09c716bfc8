import { describe, expect, test } from 'vitest';
import {
  cn,
  formatDate,
  formatDateTime,
  formatShortDate,
  INVALID_DATE_TEXT,
  initials,
  MISSING_DATE_TEXT,
} from './utils';

describe('initials', () => {
  test.each([
    ['Ada Lovelace', 'AL'],
    ['ada lovelace', 'AL'],
    ['Grace Brewster Murray Hopper', 'GB'],
    ['Cher', 'C'],
    ['  jean   claude  ', 'JC'],
    ['élodie durand', 'ÉD'],
    ['', ''],
    ['   ', ''],
    [null, ''],
    [undefined, ''],
  ])('%j gives %j', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe('formatDate', () => {
  const utc = { timeZone: 'UTC' };

  test.each([
    ['2025-01-05T15:04:00.000Z', 'January 5, 2025'],
    ['2024-02-29T00:00:00.000Z', 'February 29, 2024'],
    [Date.UTC(2023, 11, 31, 23, 59), 'December 31, 2023'],
    [new Date(Date.UTC(2025, 6, 4)), 'July 4, 2025'],
  ])('%j gives %j', (value, expected) => {
    expect(formatDate(value, utc)).toBe(expected);
  });

  test('shows the date in the zone asked for', () => {
    expect(formatDate('2025-01-05T03:00:00.000Z', { timeZone: 'America/New_York' })).toBe(
      'January 4, 2025',
    );
  });

  test.each([null, undefined, ''])('%j is an unknown date', (value) => {
    expect(formatDate(value)).toBe(MISSING_DATE_TEXT);
    expect(MISSING_DATE_TEXT).toBe('unknown date');
  });

  test.each(['not a date', '2025-13-45', Number.NaN, new Date('nope')])(
    '%j is an invalid date',
    (value) => {
      expect(formatDate(value)).toBe(INVALID_DATE_TEXT);
      expect(INVALID_DATE_TEXT).toBe('Invalid date');
    },
  );
});

describe('formatDateTime', () => {
  test('gives the long date and the time', () => {
    expect(formatDateTime('2025-01-05T15:04:00.000Z', { timeZone: 'UTC' })).toMatch(
      /^January 5, 2025(,| at) 3:04\sPM$/,
    );
  });

  test('handles missing and invalid values like formatDate', () => {
    expect(formatDateTime(undefined)).toBe('unknown date');
    expect(formatDateTime('garbage')).toBe('Invalid date');
  });
});

describe('formatShortDate', () => {
  test('gives month abbreviation, two-digit day and year', () => {
    expect(formatShortDate('2025-03-07T12:00:00.000Z', { timeZone: 'UTC' })).toBe('Mar 07, 2025');
  });

  test('handles missing and invalid values like formatDate', () => {
    expect(formatShortDate(null)).toBe('unknown date');
    expect(formatShortDate('garbage')).toBe('Invalid date');
  });
});

describe('cn', () => {
  test('lets the later Tailwind class win and drops falsy values', () => {
    expect(cn('px-2 py-1', false, undefined, 'px-4')).toBe('py-1 px-4');
  });
});
