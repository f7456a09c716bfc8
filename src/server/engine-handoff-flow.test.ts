import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { User } from '../shared/contracts/users';
import { handoffs, users } from './db/schema';
import {
  ana,
  at,
  ben,
  cal,
  clearNotifications,
  dee,
  getRotation,
  history,
  MINUTE,
  rotationRow,
  sent,
  setUpEngineApp,
  t,
  tick,
} from './engine-tasks.fixtures';
import { insertRotation } from './seed/factories';

setUpEngineApp();

describe('the handoff flow of a fixed rotation', () => {
  test('notice at −30 min, request at the boundary, escalation at +30, automatic transfer at +60 (escalated)', async () => {
    // Monday 2 November, 10:00 in New York: today's 09:00 boundary has passed.
    t.clock.set('2026-11-02T15:00:00Z');
    await clearNotifications();
    const r = await insertRotation(t.database.db, {
      name: 'Flow Weekly',
      cadence: 'weekly',
      timeZone: 'America/New_York',
      handoffTime: '09:00',
      handoffWeekday: 1,
      memberIds: [ana.id, ben.id, cal.id],
      holderId: ana.id,
      holderSince: at('2026-11-01T12:00:00Z'),
      now: t.clock.now(),
    });
    // Next Monday 09:00 in New York (EST) is 14:00 UTC.
    expect((await rotationRow(r.id)).nextHandoffAt).toEqual(at('2026-11-09T14:00:00Z'));

    t.clock.set('2026-11-09T13:29:00Z');
    await tick();
    expect(await sent(r.id)).toEqual([]);

    t.clock.set('2026-11-09T13:30:00Z');
    await tick();
    await tick();
    expect(await sent(r.id)).toEqual(['handoff.notice → Ana', 'handoff.notice → Ben']);

    t.clock.set('2026-11-09T14:00:00Z');
    await tick();
    expect((await sent(r.id)).slice(2)).toEqual(['handoff.due → Ana']);
    // The app asks the holder too: the rotation carries the passed boundary until it is handled.
    expect((await getRotation(ben, r.id)).handoffDue).toEqual({
      boundary: '2026-11-09T14:00:00.000Z',
      escalateAt: '2026-11-09T14:30:00.000Z',
      autoTransferAt: '2026-11-09T15:00:00.000Z',
    });

    t.clock.set('2026-11-09T14:30:00Z');
    await tick();
    expect((await sent(r.id)).slice(3)).toEqual([
      'handoff.escalate → Ana',
      'handoff.escalate → Ben',
    ]);
    expect((await rotationRow(r.id)).holderUserId).toBe(ana.id);

    t.clock.set('2026-11-09T15:00:00Z');
    await tick();
    await tick();
    const row = await rotationRow(r.id);
    expect(row.holderUserId).toBe(ben.id);
    expect(row.holderSince).toEqual(at('2026-11-09T15:00:00Z'));
    expect(row.nextHandoffAt).toEqual(at('2026-11-16T14:00:00Z'));
    expect((await getRotation(ben, r.id)).handoffDue).toBeNull();
    const records = await history(r.id);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      kind: 'auto',
      status: 'escalated',
      fromUserId: ana.id,
      toUserId: ben.id,
      occurredAt: at('2026-11-09T15:00:00Z'),
      effectKey: `auto:${r.id}:2026-11-09T14:00:00.000Z`,
    });
    expect((await sent(r.id)).slice(5)).toEqual(['handoff.auto → Ben', 'handoff.auto → Ana']);

    // The audit log shows it as 'Handoff to Ben was escalated'.
    const recent = await t.app.inject({
      url: '/api/handoffs/recent?limit=1',
      headers: { cookie: await t.cookieFor(ben) },
    });
    expect(recent.json()[0]).toMatchObject({
      status: 'escalated',
      kind: 'auto',
      toUser: { name: 'Ben Brooks' },
    });

    // The database refuses the same automatic handoff twice.
    await expect(
      t.database.db.insert(handoffs).values({
        rotationId: r.id,
        kind: 'auto',
        status: 'escalated',
        effectKey: `auto:${r.id}:2026-11-09T14:00:00.000Z`,
      }),
    ).rejects.toThrow();
  });

  test('a manual pass in the notice window counts for the boundary: no transfer, the boundary passes', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const r = await insertRotation(t.database.db, {
      name: 'Manual Daily',
      cadence: 'daily',
      timeZone: 'UTC',
      handoffTime: '09:00',
      memberIds: [ana.id, ben.id, cal.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    t.clock.set('2026-11-03T08:30:00Z');
    await tick();
    t.clock.set('2026-11-03T08:45:00Z');
    const pass = await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      headers: { cookie: await t.cookieFor(ana) },
      payload: { toUserId: ben.id, notes: 'All quiet.' },
    });
    expect(pass.statusCode).toBe(200);
    // Past the boundary, before the engine moves it on: the pass handled it, nothing is due.
    t.clock.set('2026-11-03T09:05:00Z');
    expect((await getRotation(ben, r.id)).handoffDue).toBeNull();
    for (const time of ['2026-11-03T09:00:00Z', '2026-11-03T09:30:00Z', '2026-11-03T10:00:00Z']) {
      t.clock.set(time);
      await tick();
    }
    const row = await rotationRow(r.id);
    expect(row.holderUserId).toBe(ben.id);
    expect(row.nextHandoffAt).toEqual(at('2026-11-04T09:00:00Z'));
    expect((await history(r.id)).map((h) => h.kind)).toEqual(['pass']);
    // Ben holds through the next shift; at the next notice Ben and Cal are told.
    t.clock.set('2026-11-04T08:30:00Z');
    await tick();
    expect((await sent(r.id)).filter((s) => s.startsWith('handoff.notice'))).toEqual([
      'handoff.notice → Ana',
      'handoff.notice → Ben',
      'handoff.notice → Ben',
      'handoff.notice → Cal',
    ]);
  });

  test('each person is told at their own handoff reminder', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    await t.database.db
      .update(users)
      .set({ handoffReminderMinutes: 1440 })
      .where(eq(users.id, cal.id));
    await t.database.db
      .update(users)
      .set({ handoffReminderMinutes: 15 })
      .where(eq(users.id, dee.id));
    const r = await insertRotation(t.database.db, {
      name: 'Reminders',
      cadence: 'daily',
      handoffTime: '18:00',
      memberIds: [cal.id, dee.id],
      holderId: cal.id,
      now: t.clock.now(),
    });
    t.clock.set('2026-11-02T17:00:00Z');
    // The boundary is today 18:00; Cal (1 day) was due a notice since yesterday 18:00.
    await tick();
    expect(await sent(r.id)).toEqual(['handoff.notice → Cal']);
    t.clock.set('2026-11-02T17:30:00Z');
    await tick();
    expect(await sent(r.id)).toEqual(['handoff.notice → Cal']);
    t.clock.set('2026-11-02T17:45:00Z');
    await tick();
    expect(await sent(r.id)).toEqual(['handoff.notice → Cal', 'handoff.notice → Dee']);
    await t.database.db.update(users).set({ handoffReminderMinutes: 30 });
  });

  test('after downtime: one handoff per missed boundary, no burst of stale notices', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const r = await insertRotation(t.database.db, {
      name: 'Downtime Daily',
      cadence: 'daily',
      handoffTime: '09:00',
      memberIds: [ana.id, ben.id, cal.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    // Down from Monday noon until Friday 09:10: the boundaries of Tue, Wed and Thu passed.
    t.clock.set('2026-11-06T09:10:00Z');
    await tick();
    const records = await history(r.id);
    expect(records.map((h) => [h.occurredAt.toISOString(), h.fromUserId, h.toUserId])).toEqual([
      ['2026-11-03T10:00:00.000Z', ana.id, ben.id],
      ['2026-11-04T10:00:00.000Z', ben.id, cal.id],
      ['2026-11-05T10:00:00.000Z', cal.id, ana.id],
    ]);
    expect(records.every((h) => h.status === 'escalated' && h.kind === 'auto')).toBe(true);
    // Only the transfer that left the baton with Ana, and today's request to pass, are sent.
    expect(await sent(r.id)).toEqual([
      'handoff.due → Ana',
      'handoff.auto → Ana',
      'handoff.auto → Cal',
    ]);
    await tick();
    expect(await history(r.id)).toHaveLength(3);
    expect(await sent(r.id)).toHaveLength(3);
  });

  test('a suspended rotation takes no part; activation computes the boundaries afresh from now', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const admin = await t.createUser({ roles: ['admin'] });
    const r = await insertRotation(t.database.db, {
      name: 'Paused Daily',
      cadence: 'daily',
      handoffTime: '09:00',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    const cookie = await t.cookieFor(admin);
    await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/suspend`,
      headers: { cookie },
    });
    t.clock.set('2026-11-05T12:00:00Z');
    await tick();
    expect(await history(r.id)).toEqual([]);
    expect(await sent(r.id)).toEqual([]);
    const activated = await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/activate`,
      headers: { cookie },
    });
    expect(activated.json().nextHandoffTime).toBe('2026-11-06T09:00:00.000Z');
    await tick();
    expect(await history(r.id)).toEqual([]);
  });
});

describe('acknowledgement and backup', () => {
  test('the receiver acknowledges; the rotation answer shows the handoff until then and the backup for 15 minutes', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    const r = await insertRotation(t.database.db, {
      name: 'Ack Rotation',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      headers: { cookie: await t.cookieFor(ana) },
      payload: { toUserId: ben.id },
    });
    const [handoff] = await history(r.id);
    t.clock.advance(10 * MINUTE);
    const before = await getRotation(ben, r.id);
    expect(before.unacknowledgedHandoff).toMatchObject({
      id: handoff.id,
      toUserId: ben.id,
      fromUserId: ana.id,
      acknowledgeBy: '2026-11-02T12:30:00.000Z',
    });
    expect(before).toMatchObject({
      backupUserId: ana.id,
      backupOnCall: { name: 'Ana Alvarez' },
      backupUntil: '2026-11-02T12:15:00.000Z',
    });

    const wrong = await t.app.inject({
      method: 'POST',
      url: `/api/handoffs/${handoff.id}/acknowledge`,
      headers: { cookie: await t.cookieFor(ana) },
    });
    expect(wrong.statusCode).toBe(403);
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/handoffs/${handoff.id}/acknowledge`,
      headers: { cookie: await t.cookieFor(ben) },
    });
    expect(ack.statusCode).toBe(200);
    expect(ack.json()).toMatchObject({
      status: 'acknowledged',
      acknowledgedAt: '2026-11-02T12:10:00.000Z',
    });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/handoffs/${handoff.id}/acknowledge`,
      headers: { cookie: await t.cookieFor(ben) },
    });
    expect(again.json()).toMatchObject({
      status: 'acknowledged',
      acknowledgedAt: '2026-11-02T12:10:00.000Z',
    });
    expect((await getRotation(ben, r.id)).unacknowledgedHandoff).toBeNull();
    t.clock.advance(5 * MINUTE);
    expect(await getRotation(ben, r.id)).toMatchObject({ backupUserId: null, backupUntil: null });
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/handoffs/999999/acknowledge',
      headers: { cookie: await t.cookieFor(ben) },
    });
    expect(missing.statusCode).toBe(404);
  });

  test('without acknowledgement within 30 minutes the handoff is missed and the previous holder is told', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const r = await insertRotation(t.database.db, {
      name: 'Missed Rotation',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      headers: { cookie: await t.cookieFor(ana) },
      payload: { toUserId: ben.id },
    });
    t.clock.set('2026-11-02T12:29:00Z');
    await tick();
    expect((await history(r.id))[0].status).toBe('success');
    t.clock.set('2026-11-02T12:30:00Z');
    await tick();
    await tick();
    const [missed] = await history(r.id);
    expect(missed.status).toBe('missed');
    expect((await sent(r.id)).filter((s) => s.startsWith('handoff.missed'))).toEqual([
      'handoff.missed → Ana',
    ]);
    // A late acknowledgement is recorded; the audit log keeps that it was missed.
    const ack = await t.app.inject({
      method: 'POST',
      url: `/api/handoffs/${missed.id}/acknowledge`,
      headers: { cookie: await t.cookieFor(ben) },
    });
    expect(ack.json()).toMatchObject({
      status: 'missed',
      acknowledgedAt: '2026-11-02T12:30:00.000Z',
    });
  });

  test('an emergency handoff keeps the previous holder backup until the receiver acknowledges it', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const r = await insertRotation(t.database.db, {
      name: 'Emergency Rotation',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    await t.app.inject({
      method: 'POST',
      url: `/api/rotations/${r.id}/handoff`,
      headers: { cookie: await t.cookieFor(ana) },
      payload: { toUserId: ben.id, urgent: true, notes: 'Called away' },
    });
    t.clock.set('2026-11-02T14:00:00Z');
    await tick();
    const rotation = await getRotation(ana, r.id);
    expect(rotation).toMatchObject({ backupUserId: ana.id, backupUntil: null });
    expect(rotation.unacknowledgedHandoff).toMatchObject({ urgent: true, status: 'missed' });
    const [handoff] = await history(r.id);
    await t.app.inject({
      method: 'POST',
      url: `/api/handoffs/${handoff.id}/acknowledge`,
      headers: { cookie: await t.cookieFor(ben) },
    });
    expect(await getRotation(ana, r.id)).toMatchObject({ backupUserId: null });
    expect((await sent(r.id)).filter((s) => s.includes('acknowledged'))).toEqual([
      'handoff.acknowledged → Ana',
    ]);
  });

  test('a superseded handoff cannot be acknowledged', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    const r = await insertRotation(t.database.db, {
      name: 'Superseded Rotation',
      memberIds: [ana.id, ben.id, cal.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    const anaCookie = await t.cookieFor(ana);
    const benCookie = await t.cookieFor(ben);
    const pass = (cookie: string, to: User) =>
      t.app.inject({
        method: 'POST',
        url: `/api/rotations/${r.id}/handoff`,
        headers: { cookie },
        payload: { toUserId: to.id },
      });
    await pass(anaCookie, ben);
    t.clock.advance(MINUTE);
    await pass(benCookie, cal);
    const [first] = await history(r.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/handoffs/${first.id}/acknowledge`,
      headers: { cookie: benCookie },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'This handoff is no longer current: the baton has moved on since.',
    );
  });
});
