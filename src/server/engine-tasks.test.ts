import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp, testConfig } from '../../tests/setup/test-app';
import type { Rotation } from '../shared/contracts/rotations';
import type { User } from '../shared/contracts/users';
import { buildApp } from './app';
import { ConfigError } from './core/config';
import { handoffs, notifications, rotations, users } from './db/schema';
import { startEngineLoop } from './engine/engine-loop';
import type { EngineDeps } from './engine/engine-task';
import { runEngineTick } from './engine-tasks';
import { decryptContent } from './modules/notifications/outbox';
import { insertRotation } from './seed/factories';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let t: TestApp;
let deps: EngineDeps;
let ana: User;
let ben: User;
let cal: User;
let dee: User;

beforeAll(async () => {
  // Monday 2 November 2026, 12:00 UTC (07:00 in New York).
  t = await createTestApp();
  deps = { config: t.config, database: t.database, cipher: t.cipher, clock: t.clock };
  ana = await t.createUser({ name: 'Ana Alvarez', roles: ['on-call'] });
  ben = await t.createUser({ name: 'Ben Brooks', roles: ['on-call'] });
  cal = await t.createUser({ name: 'Cal Chen', roles: ['on-call'] });
  dee = await t.createUser({ name: 'Dee Diaz', roles: ['manager'] });
});
afterAll(() => t.close());

const tick = () => runEngineTick(deps, t.clock.now());
const at = (iso: string) => new Date(iso);

async function rotationRow(id: number) {
  const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, id));
  return row;
}
async function history(rotationId: number) {
  return t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, rotationId))
    .orderBy(asc(handoffs.occurredAt), asc(handoffs.id));
}
/** sent returns the notifications queued for one rotation's events, in order: "kind → first name". */
async function sent(rotationId: number) {
  const rows = await t.database.db
    .select({
      kind: notifications.kind,
      userId: notifications.userId,
      key: notifications.dedupeKey,
    })
    .from(notifications)
    .orderBy(asc(notifications.id));
  const ownHandoffs = new Set((await history(rotationId)).map((h) => h.id));
  const names = new Map([ana, ben, cal, dee].map((u) => [u.id, u.name.split(' ')[0]]));
  return rows
    .filter(
      (r) =>
        r.key.startsWith(`handoff-flow:${rotationId}:`) ||
        r.key.startsWith(`schedule-notice:${rotationId}:`) ||
        ownHandoffs.has(Number(/^handoff:(\d+):/.exec(r.key)?.[1])),
    )
    .map((r) => `${r.kind} → ${names.get(r.userId ?? 0) ?? r.userId}`);
}
async function clearNotifications() {
  await t.database.db.delete(notifications);
}
async function getRotation(user: User, id: number): Promise<Rotation> {
  const res = await t.app.inject({
    url: `/api/rotations/${id}`,
    headers: { cookie: await t.cookieFor(user) },
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

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

describe('the engine as a process', () => {
  test('readiness fails when the engine has not ticked for several intervals', async () => {
    let ticks = 0;
    const loop = startEngineLoop({
      clock: t.clock,
      intervalMs: 15_000,
      tick: async () => {
        ticks += 1;
      },
      autoStart: false,
    });
    const app = await buildApp({
      config: t.config,
      database: t.database,
      cipher: t.cipher,
      clock: t.clock,
      logger: false,
      engineStatus: () => loop.status(),
    });
    const ready = () => app.inject({ url: '/readyz' });
    expect((await ready()).statusCode).toBe(503);
    await loop.runOnce();
    expect(ticks).toBe(1);
    const ok = await ready();
    expect(ok.statusCode).toBe(200);
    expect(ok.json().engine.lastTickAt).toBe(t.clock.now().toISOString());
    t.clock.advance(60_000);
    expect((await ready()).statusCode).toBe(200);
    t.clock.advance(1_000);
    const stale = await ready();
    expect(stale.statusCode).toBe(503);
    expect(stale.json().message).toMatch(/The engine has not ticked since/);
    await loop.stop();
    await app.close();
  });

  test('a tick that dies midway loses and doubles nothing: the next one finishes the work once', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const r = await insertRotation(t.database.db, {
      name: 'Crash Daily',
      cadence: 'daily',
      handoffTime: '09:00',
      memberIds: [ana.id, ben.id],
      holderId: ana.id,
      now: t.clock.now(),
    });
    t.clock.set('2026-11-03T10:00:00Z');
    // The outbox write fails inside the transaction that moves the baton: all of it rolls back.
    let failNext = true;
    const flaky: EngineDeps = {
      ...deps,
      cipher: new Proxy(t.cipher, {
        get(target, prop, receiver) {
          if (prop === 'encrypt' && failNext) {
            return (plain: string, ctx: never) => {
              if (!plain.includes('Crash Daily')) return target.encrypt(plain, ctx);
              failNext = false;
              throw new Error('killed mid-tick');
            };
          }
          const value = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    };
    await expect(runEngineTick(flaky, t.clock.now())).rejects.toThrow(/killed mid-tick/);
    expect(await history(r.id)).toEqual([]);
    expect((await rotationRow(r.id)).holderUserId).toBe(ana.id);
    await runEngineTick(flaky, t.clock.now());
    await runEngineTick(flaky, t.clock.now());
    expect((await history(r.id)).map((h) => h.toUserId)).toEqual([ben.id]);
    expect(await sent(r.id)).toEqual(['handoff.auto → Ben', 'handoff.auto → Ana']);
  });

  test('in a batch, a rotation whose flow fails holds back no other, and one already handed off is skipped', async () => {
    t.clock.set('2026-11-02T12:00:00Z');
    await clearNotifications();
    const make = (name: string) =>
      insertRotation(t.database.db, {
        name,
        cadence: 'daily',
        handoffTime: '09:00',
        memberIds: [ana.id, ben.id],
        holderId: ana.id,
        now: t.clock.now(),
      });
    const fine = await make('Batch Daily Fine');
    const broken = await make('Batch Daily Broken');
    const done = await make('Batch Daily Done');
    t.clock.set('2026-11-03T10:00:00Z');
    // Another engine already recorded Done's automatic transfer.
    const boundary = (await rotationRow(done.id)).nextHandoffAt?.toISOString();
    await t.database.db.insert(handoffs).values({
      rotationId: done.id,
      fromUserId: ana.id,
      toUserId: ben.id,
      kind: 'auto',
      status: 'escalated',
      occurredAt: t.clock.now(),
      effectKey: `auto:${done.id}:${boundary}`,
    });
    // Broken's notices cannot be written, whatever is tried.
    const failing: EngineDeps = {
      ...deps,
      cipher: new Proxy(t.cipher, {
        get(target, prop, receiver) {
          if (prop === 'encrypt') {
            return (plain: string, ctx: never) => {
              if (plain.includes('Batch Daily Broken')) throw new Error('cannot write Broken');
              return target.encrypt(plain, ctx);
            };
          }
          const value = Reflect.get(target, prop, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
    };
    await expect(runEngineTick(failing, t.clock.now())).rejects.toThrow(/cannot write Broken/);
    expect((await history(fine.id)).map((h) => h.toUserId)).toEqual([ben.id]);
    expect(await sent(fine.id)).toEqual(['handoff.auto → Ben', 'handoff.auto → Ana']);
    expect(await history(broken.id)).toEqual([]);
    expect((await rotationRow(broken.id)).holderUserId).toBe(ana.id);
    expect(await history(done.id)).toHaveLength(1);
    expect(await sent(done.id)).toEqual([]);

    await tick();
    expect((await history(broken.id)).map((h) => h.toUserId)).toEqual([ben.id]);
    expect(await sent(broken.id)).toEqual(['handoff.auto → Ben', 'handoff.auto → Ana']);
    expect(await history(fine.id)).toHaveLength(1);
    expect(await sent(fine.id)).toHaveLength(2);
  });

  test('the flow timings and the interval come from the environment', () => {
    const config = testConfig({
      ENGINE_INTERVAL_SECONDS: '5',
      HANDOFF_NOTICE_MINUTES: '45',
      HANDOFF_ESCALATE_MINUTES: '20',
      HANDOFF_AUTO_TRANSFER_MINUTES: '40',
      HANDOFF_ACK_MINUTES: '10',
      HANDOFF_BACKUP_MINUTES: '5',
    });
    expect(config.engineIntervalMs).toBe(5000);
    expect(config.handoffTimings).toEqual({
      noticeBeforeMs: 45 * MINUTE,
      escalateAfterMs: 20 * MINUTE,
      autoTransferAfterMs: 40 * MINUTE,
      acknowledgeWithinMs: 10 * MINUTE,
      backupMs: 5 * MINUTE,
    });
    expect(testConfig().engineIntervalMs).toBe(15_000);
    expect(() => testConfig({ HANDOFF_AUTO_TRANSFER_MINUTES: '20' })).toThrow(ConfigError);
    expect(() => testConfig({ ENGINE_INTERVAL_SECONDS: '0' })).toThrow(/ENGINE_INTERVAL_SECONDS/);
    expect(DAY).toBe(86_400_000);
  });
});
