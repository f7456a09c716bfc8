import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { type Rotation, RotationSchema } from '../../../shared/contracts/rotations';
import { nextHandoffAt, type ShiftPattern } from '../../../shared/domain/shifts';
import { rotations, scheduleEntries } from '../../db/schema';
import {
  auditOf,
  HOUR,
  ids,
  people,
  rotation,
  setUpRotationApp,
  t,
} from './rotation-routes.fixtures';

setUpRotationApp();

function expectRotationShape(body: unknown): Rotation {
  const parsed = RotationSchema.parse(body);
  expect(Object.keys(body as object).sort()).toEqual(Object.keys(RotationSchema.shape).sort());
  return parsed;
}

describe('reading rotations', () => {
  test('GET /api/rotations answers every rotation with members, holder, next on call and next handoff', async () => {
    const r = await rotation({
      name: 'Reading Primary',
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.noah.id,
      createdById: people.manager.id,
    });
    const res = await t.call(people.iris, 'GET', '/api/rotations');
    expect(res.statusCode).toBe(200);
    const list = res.json() as Rotation[];
    expect(Array.isArray(list)).toBe(true);
    const found = expectRotationShape(list.find((x) => x.id === r.id));
    expect(found).toMatchObject({
      name: 'Reading Primary',
      cadence: 'weekly',
      type: 'fixed',
      suspended: false,
      currentOnCallUserId: people.noah.id,
      currentOnCall: { id: people.noah.id, name: 'Noah Nakamura', email: people.noah.email },
      holderSince: t.clock.now().toISOString(),
      nextOnCall: { id: people.sam.id, name: 'Sam Sullivan' },
      nextHandoffTime: '2026-11-09T09:00:00.000Z',
      createdById: people.manager.id,
    });
    expect(found.members).toEqual([
      {
        id: expect.any(Number),
        userId: people.olivia.id,
        order: 0,
        user: {
          id: people.olivia.id,
          name: 'Olivia Ortiz',
          email: people.olivia.email,
          phone: '+1555',
        },
      },
      expect.objectContaining({ userId: people.noah.id, order: 1 }),
      expect.objectContaining({ userId: people.sam.id, order: 2 }),
    ]);
  });

  test('GET /api/rotations/{id} answers one rotation; a missing one is 404, a bad id 400', async () => {
    const r = await rotation({ memberIds: ids(people.olivia, people.noah) });
    const res = await t.call(people.olivia, 'GET', `/api/rotations/${r.id}`);
    expect(res.statusCode).toBe(200);
    const body = expectRotationShape(res.json());
    expect(body.currentOnCall).toBeNull();
    expect(body.nextOnCall?.id).toBe(people.olivia.id); // no holder: the first member
    // With one member, no one is next, whether or not they hold the baton (decision 120).
    const alone = await rotation({ memberIds: ids(people.sam) });
    expect((await t.call(people.sam, 'GET', `/api/rotations/${alone.id}`)).json()).toMatchObject({
      currentOnCall: null,
      nextOnCall: null,
    });
    const missing = await t.call(people.olivia, 'GET', '/api/rotations/999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Rotation not found', code: 'NOT_FOUND' });
    const bad = await t.call(people.olivia, 'GET', '/api/rotations/abc');
    expect(bad.statusCode).toBe(400);
    expect((await t.call(null, 'GET', `/api/rotations/${r.id}`)).statusCode).toBe(401);
  });

  test('GET /api/user/rotations answers only the rotations the signed-in user belongs to', async () => {
    const lonely = await t.createUser({ name: 'Lonely Member', roles: ['on-call'] });
    const mine = await rotation({ name: 'Mine', memberIds: [lonely.id, people.noah.id] });
    await rotation({ name: 'Not mine', memberIds: ids(people.noah) });
    const res = await t.call(lonely, 'GET', '/api/user/rotations');
    expect(res.statusCode).toBe(200);
    const list = (res.json() as Rotation[]).map(expectRotationShape);
    expect(list.map((r) => r.id)).toEqual([mine.id]);
    expect(list[0].members.map((m) => m.userId)).toEqual([lonely.id, people.noah.id]);
    const none = await t.call(people.iris, 'GET', '/api/user/rotations');
    expect(none.json()).toEqual([]);
  });

  test('next on call skips a member who can no longer hold the baton, as the engine does', async () => {
    // Iris joined before her roles changed to incident manager only: she stays a member, but
    // the clock never hands her the baton, so the answer must not name her next either.
    const r = await rotation({
      memberIds: ids(people.olivia, people.iris, people.noah),
      holderId: people.olivia.id,
    });
    const res = await t.call(people.olivia, 'GET', `/api/rotations/${r.id}`);
    expect(res.json().members).toHaveLength(3);
    expect(res.json().nextOnCall).toMatchObject({ id: people.noah.id });
  });

  test('a suspended rotation has no next handoff time', async () => {
    const r = await rotation({ suspended: true, memberIds: ids(people.olivia) });
    const res = await t.call(people.olivia, 'GET', `/api/rotations/${r.id}`);
    expect(res.json()).toMatchObject({ suspended: true, nextHandoffTime: null });
  });
});

describe('creating, editing and deleting', () => {
  test('a manager creates a rotation: 201 with its id, created_by recorded, the creator’s time zone, the next handoff computed, an audit event', async () => {
    const res = await t.call(people.manager, 'POST', '/api/rotations', {
      name: 'New Platform',
      description: 'Front line',
      type: 'fixed',
    });
    expect(res.statusCode).toBe(201);
    const body = expectRotationShape(res.json());
    const pattern = {
      cadence: 'weekly',
      timeZone: 'Europe/London',
      handoffTime: '09:00',
      handoffWeekday: 1,
    } as const;
    expect(body).toMatchObject({
      name: 'New Platform',
      description: 'Front line',
      type: 'fixed',
      suspended: false,
      members: [],
      currentOnCall: null,
      nextOnCall: null,
      createdById: people.manager.id,
      ...pattern,
      nextHandoffTime: nextHandoffAt(pattern, t.clock.now()).toISOString(),
    });
    const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, body.id));
    expect(row.createdById).toBe(people.manager.id);
    const events = await auditOf(body.id);
    expect(events.map((e) => [e.action, e.actorUserId])).toEqual([
      ['rotation.created', people.manager.id],
    ]);
  });

  test('creating takes an explicit cadence, time zone and handoff time', async () => {
    const res = await t.call(people.admin, 'POST', '/api/rotations', {
      name: 'Daily Tokyo',
      type: 'fixed',
      cadence: 'daily',
      timeZone: 'Asia/Tokyo',
      handoffTime: '10:30',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      cadence: 'daily',
      type: 'fixed',
      timeZone: 'Asia/Tokyo',
      handoffTime: '10:30',
      description: null,
      nextHandoffTime: '2026-11-03T01:30:00.000Z',
    });
    // A scheduled rotation hands off when its next entry starts: with none yet, no time.
    const scheduled = await t.call(people.admin, 'POST', '/api/rotations', {
      name: 'Scheduled Tokyo',
      type: 'scheduled',
      timeZone: 'Asia/Tokyo',
    });
    expect(scheduled.json()).toMatchObject({ type: 'scheduled', nextHandoffTime: null });
  });

  test('creating refuses a short name (400, the form’s message) and an on-call user (403)', async () => {
    const short = await t.call(people.manager, 'POST', '/api/rotations', { name: 'ab' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toEqual({ name: 'Rotation name must be at least 3 characters.' });
    const bad = await t.call(people.manager, 'POST', '/api/rotations', {
      name: 'Fine name',
      timeZone: 'Mars/Olympus',
    });
    expect(bad.statusCode).toBe(400);
    const denied = await t.call(people.olivia, 'POST', '/api/rotations', { name: 'Not allowed' });
    expect(denied.statusCode).toBe(403);
  });

  test('PATCH edits name and description; a missing description is kept, null clears it; a new cadence moves the next handoff', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      name: 'Before',
      description: 'Keep me',
    });
    const renamed = await t.call(people.manager, 'PATCH', `/api/rotations/${r.id}`, {
      name: 'After',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'After', description: 'Keep me' });
    const daily = await t.call(people.manager, 'PATCH', `/api/rotations/${r.id}`, {
      description: null,
      cadence: 'daily',
      type: 'fixed',
    });
    expect(daily.statusCode).toBe(200);
    expect(daily.json()).toMatchObject({
      description: null,
      cadence: 'daily',
      nextHandoffTime: '2026-11-03T09:00:00.000Z',
    });
    expect((await auditOf(r.id)).map((e) => e.action)).toEqual([
      'rotation.updated',
      'rotation.updated',
    ]);
    const short = await t.call(people.manager, 'PATCH', `/api/rotations/${r.id}`, { name: 'x' });
    expect(short.statusCode).toBe(400);
    const missing = await t.call(people.manager, 'PATCH', '/api/rotations/999999', { name: 'abc' });
    expect(missing.statusCode).toBe(404);
    const denied = await t.call(people.olivia, 'PATCH', `/api/rotations/${r.id}`, { name: 'abc' });
    expect(denied.statusCode).toBe(403);
  });

  test('PATCH of the time zone, handoff time or weekday moves the next handoff to what nextHandoffAt says', async () => {
    // Weekly, Monday 09:00 UTC; now is Monday 2026-11-02 12:00 UTC, so the next is 9 November.
    const r = await rotation({
      createdById: people.manager.id,
      cadence: 'weekly',
      timeZone: 'UTC',
      handoffTime: '09:00',
    });
    const patch = (body: Record<string, unknown>) =>
      t.call(people.manager, 'PATCH', `/api/rotations/${r.id}`, body);
    const steps: [Record<string, unknown>, string][] = [
      // 09:00 in Sydney on a Monday is Sunday 22:00 UTC (daylight time): 8 November.
      [{ timeZone: 'Australia/Sydney' }, '2026-11-08T22:00:00.000Z'],
      // 07:30 Sydney, still Mondays.
      [{ handoffTime: '07:30' }, '2026-11-08T20:30:00.000Z'],
      // Fridays at 07:30 Sydney: Thursday 20:30 UTC, 5 November.
      [{ handoffWeekday: 5 }, '2026-11-05T20:30:00.000Z'],
      // All three at once: Wednesdays 18:15 New York (EST after 1 November): 4 November 23:15 UTC.
      [
        { timeZone: 'America/New_York', handoffTime: '18:15', handoffWeekday: 3 },
        '2026-11-04T23:15:00.000Z',
      ],
    ];
    let pattern = {
      cadence: 'weekly',
      timeZone: 'UTC',
      handoffTime: '09:00',
      handoffWeekday: 1,
    } as ShiftPattern;
    for (const [body, expected] of steps) {
      const res = await patch(body);
      expect(res.statusCode).toBe(200);
      pattern = { ...pattern, ...body };
      const want = nextHandoffAt(pattern, t.clock.now()).toISOString();
      expect(want).toBe(expected);
      expect(res.json()).toMatchObject({ ...body, nextHandoffTime: want });
      const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, r.id));
      expect(row.nextHandoffAt?.toISOString()).toBe(want);
    }
    // A time zone that does not exist, or a time that is not HH:MM, is refused and changes nothing.
    for (const body of [
      { timeZone: 'Mars/Olympus' },
      { handoffTime: '25:00' },
      { handoffWeekday: 7 },
    ]) {
      expect((await patch(body)).statusCode).toBe(400);
    }
    const after = await t.call(people.manager, 'GET', `/api/rotations/${r.id}`);
    expect(after.json()).toMatchObject({
      timeZone: 'America/New_York',
      handoffTime: '18:15',
      handoffWeekday: 3,
      nextHandoffTime: '2026-11-04T23:15:00.000Z',
    });
  });

  test('PATCH changing the type needs an administrator, and a schedule entry for scheduled', async () => {
    const r = await rotation({ memberIds: ids(people.olivia) });
    const byManager = await t.call(people.manager, 'PATCH', `/api/rotations/${r.id}`, {
      type: 'scheduled',
    });
    expect(byManager.statusCode).toBe(403);
    const noEntry = await t.call(people.admin, 'PATCH', `/api/rotations/${r.id}`, {
      type: 'scheduled',
    });
    expect(noEntry.statusCode).toBe(409);
    expect(noEntry.json().message).toContain('without at least one schedule entry');
  });

  test('DELETE removes a rotation (admin only) and records it', async () => {
    const r = await rotation({ name: 'Doomed', memberIds: ids(people.olivia) });
    expect((await t.call(people.manager, 'DELETE', `/api/rotations/${r.id}`)).statusCode).toBe(403);
    const res = await t.call(people.admin, 'DELETE', `/api/rotations/${r.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await t.call(people.admin, 'GET', `/api/rotations/${r.id}`)).statusCode).toBe(404);
    expect((await t.call(people.admin, 'DELETE', `/api/rotations/${r.id}`)).statusCode).toBe(404);
    const events = await auditOf(r.id);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ['rotation.deleted', { name: 'Doomed' }],
    ]);
  });
});

describe('suspend, activate and type', () => {
  test('suspend clears the next handoff time; activate recomputes it from now; both recorded', async () => {
    const r = await rotation({ memberIds: ids(people.olivia), cadence: 'daily' });
    const suspended = await t.call(people.admin, 'POST', `/api/rotations/${r.id}/suspend`);
    expect(suspended.statusCode).toBe(200);
    expect(suspended.json()).toMatchObject({ suspended: true, nextHandoffTime: null });
    const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, r.id));
    expect(row.nextHandoffAt).toBeNull();

    t.clock.set('2026-11-10T10:00:00Z');
    const activated = await t.call(people.admin, 'POST', `/api/rotations/${r.id}/activate`);
    expect(activated.statusCode).toBe(200);
    expect(activated.json()).toMatchObject({
      suspended: false,
      nextHandoffTime: '2026-11-11T09:00:00.000Z',
    });
    // Asking again for the state it is in changes nothing and records nothing.
    await t.call(people.admin, 'POST', `/api/rotations/${r.id}/activate`);
    expect((await auditOf(r.id)).map((e) => e.action)).toEqual([
      'rotation.suspended',
      'rotation.activated',
    ]);
    expect(
      (await t.call(people.manager, 'POST', `/api/rotations/${r.id}/suspend`)).statusCode,
    ).toBe(403);
    expect((await t.call(people.admin, 'POST', '/api/rotations/999999/suspend')).statusCode).toBe(
      404,
    );
  });

  test('changing to scheduled without a schedule entry is refused with the message the client looks for; with one it succeeds', async () => {
    const r = await rotation({ memberIds: ids(people.olivia, people.noah) });
    const refused = await t.call(people.admin, 'PATCH', `/api/rotations/${r.id}/type`, {
      type: 'scheduled',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'SCHEDULE_REQUIRED' });
    expect(refused.json().message).toContain('without at least one schedule entry');

    await t.database.db.insert(scheduleEntries).values({
      rotationId: r.id,
      userId: people.noah.id,
      startAt: new Date(t.clock.now().getTime() + 2 * HOUR),
      endAt: new Date(t.clock.now().getTime() + 26 * HOUR),
    });
    const changed = await t.call(people.admin, 'PATCH', `/api/rotations/${r.id}/type`, {
      type: 'scheduled',
    });
    expect(changed.statusCode).toBe(200);
    // Scheduled: the next on call is the user of the next schedule entry.
    expect(changed.json()).toMatchObject({ type: 'scheduled', nextOnCall: { id: people.noah.id } });
    const back = await t.call(people.admin, 'PATCH', `/api/rotations/${r.id}/type`, {
      type: 'fixed',
    });
    expect(back.json()).toMatchObject({ type: 'fixed', nextOnCall: { id: people.olivia.id } });
    expect((await auditOf(r.id)).map((e) => [e.action, e.details])).toEqual([
      ['rotation.type_changed', { from: 'fixed', to: 'scheduled' }],
      ['rotation.type_changed', { from: 'scheduled', to: 'fixed' }],
    ]);
    const badType = await t.call(people.admin, 'PATCH', `/api/rotations/${r.id}/type`, {
      type: 'random',
    });
    expect(badType.statusCode).toBe(400);
    const denied = await t.call(people.manager, 'PATCH', `/api/rotations/${r.id}/type`, {
      type: 'fixed',
    });
    expect(denied.statusCode).toBe(403);
  });
});
