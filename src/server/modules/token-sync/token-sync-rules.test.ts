import { describe, expect, test } from 'vitest';
import {
  isActive,
  isRefreshDue,
  isSessionOver,
  refreshAfterMs,
  type SyncedSession,
  sendableToken,
  TOKEN_MAX_AGE_MS,
} from './token-sync-rules';

const NOW = new Date('2026-11-02T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const later = (ms: number) => new Date(NOW.getTime() + ms);
const MIN = 60_000;

const session = (overrides: Partial<Record<'lastSeenAt' | 'idle' | 'absolute', Date>> = {}) => ({
  lastSeenAt: overrides.lastSeenAt ?? ago(30_000),
  idleExpiresAt: overrides.idle ?? later(3600_000),
  absoluteExpiresAt: overrides.absolute ?? later(86_400_000),
});

describe('refreshAfterMs', () => {
  test.each([
    [15_000, 5_000, 300_000 - 60_000 - 20_000],
    [60_000, 30_000, 300_000 - 60_000 - 90_000],
    [200_000, 100_000, 60_000],
  ])('engine every %i ms, outbox every %i ms: renew at %i ms', (engine, outbox, expected) => {
    const after = refreshAfterMs({ engineIntervalMs: engine, outboxIntervalMs: outbox });
    expect(after).toBe(expected);
  });

  test('with the default intervals a renewed token lands before the held one is 5 minutes old', () => {
    const after = refreshAfterMs({ engineIntervalMs: 15_000, outboxIntervalMs: 5_000 });
    // Seen due up to one engine tick late, then sent within one outbox round.
    expect(after + 15_000 + 5_000).toBeLessThan(TOKEN_MAX_AGE_MS);
  });
});

describe('isSessionOver and isActive', () => {
  test.each([
    ['a live session', session(), false],
    ['a session whose row is gone', null, true],
    ['idle expiry reached', session({ idle: NOW }), true],
    ['absolute expiry passed', session({ absolute: ago(1) }), true],
  ])('%s', (_name, s, over) => {
    expect(isSessionOver({ session: s }, NOW)).toBe(over);
  });

  test.each([
    [ago(0), true],
    [ago(5 * MIN), true],
    [ago(5 * MIN + 1), false],
  ])('last seen %s: active %s', (lastSeenAt, active) => {
    expect(isActive({ lastSeenAt }, NOW)).toBe(active);
  });
});

describe('isRefreshDue', () => {
  const AFTER = 220_000;
  test.each([
    ['a token as old as the limit, active', { issuedAt: ago(AFTER) }, true],
    ['a younger token', { issuedAt: ago(AFTER - 1) }, false],
    ['no refresh token (Firebase)', { issuedAt: ago(AFTER), renewable: false }, false],
    [
      'an inactive person',
      { issuedAt: ago(AFTER), session: session({ lastSeenAt: ago(6 * MIN) }) },
      false,
    ],
    ['an expired session', { issuedAt: ago(AFTER), session: session({ idle: ago(1) }) }, false],
    ['no session', { issuedAt: ago(AFTER), session: null }, false],
  ])('%s', (_name, overrides, due) => {
    const sync: SyncedSession = { renewable: true, session: session(), ...overrides };
    expect(isRefreshDue(sync, NOW, AFTER)).toBe(due);
  });
});

describe('sendableToken', () => {
  test('a POST carries a token at most 5 minutes old', () => {
    expect(sendableToken('POST', ago(TOKEN_MAX_AGE_MS), NOW)).toEqual({ send: true });
    const stale = sendableToken('POST', ago(TOKEN_MAX_AGE_MS + 1000), NOW);
    expect(stale).toMatchObject({ send: false });
    expect(stale.send === false && stale.reason).toMatch(/was 5 minutes old when .*the most is 5/);
  });

  test('a DELETE carries the last token whatever its age', () => {
    expect(sendableToken('DELETE', ago(3 * 3600_000), NOW)).toEqual({ send: true });
  });
});
