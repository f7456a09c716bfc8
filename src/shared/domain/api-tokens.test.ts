import { describe, expect, test } from 'vitest';
import { isLastUseStale, isTokenExpired, scopeAllows, tokenExpiresAt } from './api-tokens';

const now = new Date('2026-11-02T12:00:00Z');

describe('scopeAllows', () => {
  test.each([
    ['read', 'GET', true],
    ['read', 'HEAD', true],
    ['read', 'OPTIONS', true],
    ['read', 'get', true],
    ['read', 'POST', false],
    ['read', 'PATCH', false],
    ['read', 'PUT', false],
    ['read', 'DELETE', false],
    ['write', 'GET', true],
    ['write', 'POST', true],
    ['write', 'DELETE', true],
  ] as const)('a %s token may %s: %s', (scope, method, allowed) => {
    expect(scopeAllows(scope, method)).toBe(allowed);
  });
});

describe('expiry', () => {
  test.each([
    [1, '2026-11-03T12:00:00.000Z'],
    [90, '2027-01-31T12:00:00.000Z'],
    [365, '2027-11-02T12:00:00.000Z'],
  ])('%i days from now is %s', (days, expected) => {
    expect(tokenExpiresAt(now, days).toISOString()).toBe(expected);
  });

  test.each([
    ['2026-11-02T11:59:59Z', true],
    ['2026-11-02T12:00:00Z', true],
    ['2026-11-02T12:00:01Z', false],
  ])('a token expiring at %s is expired: %s', (at, expired) => {
    expect(isTokenExpired(new Date(at), now)).toBe(expired);
  });
});

describe('isLastUseStale', () => {
  test.each([
    [null, true],
    ['2026-11-02T11:58:59Z', true],
    ['2026-11-02T11:59:00Z', true],
    ['2026-11-02T11:59:30Z', false],
    ['2026-11-02T12:00:00Z', false],
  ])('last used %s: write again %s', (at, stale) => {
    expect(isLastUseStale(at === null ? null : new Date(at), now)).toBe(stale);
  });
});
