import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { ManualClock } from '../../core/clock';
import { sessions } from '../../db/schema';
import { sweepExpiredSessions } from './session-sweep-task';

/** The expired sessions sweep (decision 229) on the database: what goes, what stays, in batches. */
let t: TestApp;
const clock = new ManualClock('2026-11-02T12:00:00Z');
const H = 3_600_000;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

describe('sweepExpiredSessions', () => {
  test('idle-expired and absolute-expired sessions go, live ones stay, at most the batch a call', async () => {
    const user = await t.createUser({ name: 'Sam Sweep', roles: ['on-call'] });
    const now = clock.now().getTime();
    const at = (h: number) => new Date(now + h * H);
    await t.database.db.insert(sessions).values([
      { tokenHash: 'idle-gone', userId: user.id, idleExpiresAt: at(-1), absoluteExpiresAt: at(5) },
      { tokenHash: 'abs-gone', userId: user.id, idleExpiresAt: at(1), absoluteExpiresAt: at(0) },
      { tokenHash: 'live', userId: user.id, idleExpiresAt: at(1), absoluteExpiresAt: at(5) },
      { tokenHash: 'old-1', userId: user.id, idleExpiresAt: at(-2), absoluteExpiresAt: at(-1) },
    ]);
    expect(await sweepExpiredSessions(t.database.db, clock.now(), 2)).toBe(2);
    expect(await sweepExpiredSessions(t.database.db, clock.now(), 2)).toBe(1);
    expect(await sweepExpiredSessions(t.database.db, clock.now(), 2)).toBe(0);
    const left = await t.database.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(left.map((r) => r.tokenHash)).toContain('live');
    expect(left.map((r) => r.tokenHash)).not.toContain('idle-gone');
    expect(left.map((r) => r.tokenHash)).not.toContain('abs-gone');
  });
});
