import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { notifications, rotations, users } from './db/schema';
import { runEngineTick } from './engine-tasks';
import {
  ana,
  at,
  ben,
  cal,
  clearNotifications,
  deps,
  getRotation,
  history,
  rotationRow,
  sent,
  setUpEngineApp,
  t,
  tick,
} from './engine-tasks.fixtures';
import { decryptContent } from './modules/notifications/outbox';
import { insertRotation } from './seed/factories';

setUpEngineApp();

describe('scheduled rotations', () => {
  test('the baton follows the schedule entries; a gap leaves no holder; every move is a handoff', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const admin = await t.createUser({ roles: ['admin'] });
    const cookie = await t.cookieFor(admin);
    const r = await insertRotation(t.database.db, {
      name: 'Scheduled Desk',
      type: 'scheduled',
      memberIds: [ana.id, ben.id],
      now: t.clock.now(),
    });
    await t.database.db
      .update(rotations)
      .set({ nextHandoffAt: null })
      .where(eq(rotations.id, r.id));
    const add = (userId: number, start: string, end: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/rotations/${r.id}/schedules`,
        headers: { cookie },
        payload: { userId, startTime: start, endTime: end },
      });
    expect((await add(ana.id, '2026-11-02T13:00:00Z', '2026-11-02T17:00:00Z')).statusCode).toBe(
      201,
    );
    expect((await add(ben.id, '2026-11-02T17:00:00Z', '2026-11-02T21:00:00Z')).statusCode).toBe(
      201,
    );
    expect((await add(ana.id, '2026-11-03T09:00:00Z', '2026-11-03T17:00:00Z')).statusCode).toBe(
      201,
    );
    expect((await rotationRow(r.id)).nextHandoffAt).toEqual(at('2026-11-02T13:00:00Z'));
    expect((await getRotation(ana, r.id)).nextHandoffTime).toBe('2026-11-02T13:00:00.000Z');

    await tick();
    expect((await rotationRow(r.id)).holderUserId).toBeNull();

    t.clock.set('2026-11-02T13:00:00Z');
    await tick();
    expect(await getRotation(ana, r.id)).toMatchObject({
      currentOnCallUserId: ana.id,
      nextOnCall: { id: ben.id },
      nextHandoffTime: '2026-11-02T17:00:00.000Z',
    });

    t.clock.set('2026-11-02T17:00:05Z');
    await tick();
    expect((await rotationRow(r.id)).holderUserId).toBe(ben.id);

    t.clock.set('2026-11-02T21:00:00Z');
    await tick();
    const gap = await getRotation(ana, r.id);
    expect(gap).toMatchObject({
      currentOnCallUserId: null,
      currentOnCall: null,
      nextOnCall: { id: ana.id },
    });

    expect(
      (await history(r.id)).map((h) => [
        h.kind,
        h.fromUserId,
        h.toUserId,
        h.occurredAt.toISOString(),
      ]),
    ).toEqual([
      ['schedule', null, ana.id, '2026-11-02T13:00:00.000Z'],
      ['schedule', ana.id, ben.id, '2026-11-02T17:00:00.000Z'],
      ['schedule', ben.id, null, '2026-11-02T21:00:00.000Z'],
    ]);
    expect(await sent(r.id)).toEqual([
      'handoff.schedule → Ana',
      'handoff.schedule → Ben',
      'handoff.schedule → Ana',
      'handoff.schedule → Ben',
    ]);
  });

  test('a baton moved by hand during an entry stays until the next change', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    const admin = await t.createUser({ roles: ['admin'] });
    const r = await insertRotation(t.database.db, {
      name: 'Scheduled Swap',
      type: 'scheduled',
      memberIds: [ana.id, ben.id],
      now: t.clock.now(),
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/schedules`,
      headers: { cookie: await t.cookieFor(admin) },
      payload: {
        userId: ana.id,
        startTime: '2026-11-02T12:00:00Z',
        endTime: '2026-11-02T18:00:00Z',
      },
    });
    await tick();
    expect((await rotationRow(r.id)).holderUserId).toBe(ana.id);
    t.clock.set('2026-11-02T13:00:00Z');
    await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      headers: { cookie: await t.cookieFor(ana) },
      payload: { toUserId: ben.id },
    });
    t.clock.set('2026-11-02T14:00:00Z');
    await tick();
    expect((await rotationRow(r.id)).holderUserId).toBe(ben.id);
    t.clock.set('2026-11-02T18:00:00Z');
    await tick();
    expect((await rotationRow(r.id)).holderUserId).toBeNull();
  });
  test('a handoff notice before each schedule change, to the outgoing and the incoming holder, at their own reminder, once; none while suspended', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    await t.database.db
      .update(users)
      .set({ handoffReminderMinutes: 60 })
      .where(eq(users.id, ben.id));
    const admin = await t.createUser({ roles: ['admin'] });
    const cookie = await t.cookieFor(admin);
    const r = await insertRotation(t.database.db, {
      name: 'Scheduled Notices',
      type: 'scheduled',
      memberIds: [ana.id, ben.id, cal.id],
      now: t.clock.now(),
    });
    for (const [userId, startTime, endTime] of [
      [ana.id, '2026-11-02T13:00:00Z', '2026-11-02T17:00:00Z'],
      [ben.id, '2026-11-02T17:00:00Z', '2026-11-02T21:00:00Z'],
      [cal.id, '2026-11-03T09:00:00Z', '2026-11-03T17:00:00Z'],
    ] as const) {
      const added = await t.app.inject({
        method: 'POST',
        url: `/api/rotations/${r.id}/schedules`,
        headers: { cookie },
        payload: { userId, startTime, endTime },
      });
      expect(added.statusCode).toBe(201);
    }
    const notices = async () => (await sent(r.id)).filter((s) => s.startsWith('handoff.notice'));

    // Ana's entry starts at 13:00: Ana (30 minutes) is told at 12:30.
    t.clock.set('2026-11-02T12:29:00Z');
    await tick();
    expect(await notices()).toEqual([]);
    t.clock.set('2026-11-02T12:30:00Z');
    await tick();
    expect(await notices()).toEqual(['handoff.notice → Ana']);
    t.clock.set('2026-11-02T13:00:00Z');
    await tick();
    expect((await rotationRow(r.id)).holderUserId).toBe(ana.id);

    // 17:00, Ana to Ben: Ben (1 hour) at 16:00, Ana (30 minutes) at 16:30, each once.
    t.clock.set('2026-11-02T15:59:00Z');
    await tick();
    expect(await notices()).toEqual(['handoff.notice → Ana']);
    t.clock.set('2026-11-02T16:00:00Z');
    await tick();
    await tick();
    expect((await notices()).slice(1)).toEqual(['handoff.notice → Ben']);
    t.clock.set('2026-11-02T16:30:00Z');
    await tick();
    // Another instance (its own memo) finds them in the outbox: the dedupe key sends each once.
    await runEngineTick({ ...deps, database: { ...t.database } }, t.clock.now());
    expect((await notices()).slice(1)).toEqual(['handoff.notice → Ben', 'handoff.notice → Ana']);
    const [toAna] = await t.database.db
      .select()
      .from(notifications)
      .where(
        eq(
          notifications.dedupeKey,
          `schedule-notice:${r.id}:2026-11-02T17:00:00.000Z:${ana.id}:email`,
        ),
      );
    const content = decryptContent(toAna, t.cipher);
    expect(content.subject).toBe(
      'Handoff soon: your on-call shift for Scheduled Notices ends Mon, Nov 2, 2026, 5:00 PM UTC',
    );
    expect(content.text).toContain('The schedule hands the baton to Ben Brooks then.');
    expect(content.text).toContain('Times are in UTC.');

    // 21:00, Ben to nobody (a gap until Cal's entry): Ben alone, at 20:00.
    t.clock.set('2026-11-02T17:00:00Z');
    await tick();
    t.clock.set('2026-11-02T20:00:00Z');
    await tick();
    expect((await notices()).slice(3)).toEqual(['handoff.notice → Ben']);

    // Suspended: nothing before Cal's entry; the schedule applies afresh on activation.
    t.clock.set('2026-11-02T21:00:00Z');
    await tick();
    const suspended = await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/suspend`,
      headers: { cookie },
    });
    expect(suspended.statusCode).toBe(200);
    t.clock.set('2026-11-03T08:45:00Z');
    await tick();
    expect(await notices()).toHaveLength(4);
    await t.database.db.update(users).set({ handoffReminderMinutes: 30 });
  });
});

test('changing a fixed rotation to scheduled hands the baton to the schedule at the next tick', async () => {
  t.clock.set('2026-11-02T12:00:00Z');
  const admin = await t.createUser({ roles: ['admin'] });
  const cookie = await t.cookieFor(admin);
  const r = await insertRotation(t.database.db, {
    name: 'Turning Scheduled',
    memberIds: [ana.id, ben.id],
    holderId: ana.id,
    now: t.clock.now(),
  });
  await t.app.inject({
    method: 'POST',
    url: `/api/rotations/${r.id}/schedules`,
    headers: { cookie },
    payload: { userId: ben.id, startTime: '2026-11-02T12:00:00Z', endTime: '2026-11-02T14:00:00Z' },
  });
  await tick();
  expect((await rotationRow(r.id)).holderUserId).toBe(ana.id);
  const changed = await t.app.inject({
    method: 'PATCH',
    url: `/api/rotations/${r.id}/type`,
    headers: { cookie },
    payload: { type: 'scheduled' },
  });
  expect(changed.statusCode).toBe(200);
  t.clock.set('2026-11-02T12:00:15Z');
  await tick();
  expect((await rotationRow(r.id)).holderUserId).toBe(ben.id);
  t.clock.set('2026-11-02T14:00:00Z');
  await tick();
  expect((await rotationRow(r.id)).holderUserId).toBeNull();
  expect((await history(r.id)).map((h) => [h.kind, h.toUserId])).toEqual([
    ['schedule', ben.id],
    ['schedule', null],
  ]);
});
