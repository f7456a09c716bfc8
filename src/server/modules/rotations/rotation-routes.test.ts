import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  CoverageRequestSchema,
  type Rotation,
  RotationSchema,
} from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { nextHandoffAt, type ShiftPattern } from '../../../shared/domain/shifts';
import {
  auditEvents,
  coverageRequests,
  handoffs,
  pages,
  rotationMembers,
  rotations,
  scheduleEntries,
  users,
} from '../../db/schema';
import { insertRotation, type RotationSeed } from '../../seed/factories';
import { pageMessageOf } from '../incidents/incident-text';

let t: TestApp;
// Counting SQL statements is switched on only by the query-count test.
let counting = false;
let statements = 0;

const HOUR = 3_600_000;
const people = {} as Record<
  | 'admin'
  | 'manager'
  | 'otherManager'
  | 'olivia'
  | 'noah'
  | 'priya'
  | 'sam'
  | 'iris'
  | 'irisOnCall'
  | 'outsider',
  User
>;

beforeAll(async () => {
  t = await createTestApp({
    db: {
      onQuery: () => {
        if (counting) statements += 1;
      },
    },
  });
  Object.assign(
    people,
    await t.cast({
      admin: {},
      manager: { timezone: 'Europe/London' },
      otherManager: {},
      olivia: { phone: '+1555' },
      noah: {},
      priya: {},
      sam: {},
      iris: {},
    }),
  );
  people.irisOnCall = await t.createUser({
    name: 'Ivan Both',
    roles: ['incident_manager', 'on-call'],
  });
  people.outsider = (await t.cast({ outsider: {} })).outsider;
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set('2026-11-02T12:00:00Z');
});

/** rotation inserts a rotation with the given members (in order) through the shared factory. */
function rotation(seed: RotationSeed = {}) {
  return insertRotation(t.database.db, { now: t.clock.now(), ...seed });
}

const ids = (...users: User[]) => users.map((u) => u.id);

async function handoffsOf(rotationId: number) {
  return t.database.db
    .select()
    .from(handoffs)
    .where(eq(handoffs.rotationId, rotationId))
    .orderBy(desc(handoffs.id));
}

async function auditOf(rotationId: number) {
  return t.database.db
    .select()
    .from(auditEvents)
    .where(
      and(eq(auditEvents.targetType, 'rotation'), eq(auditEvents.targetId, String(rotationId))),
    )
    .orderBy(auditEvents.id);
}

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

describe('members', () => {
  test('adding puts the member last (highest order + 1, or 0) and records it', async () => {
    const r = await rotation({ createdById: people.manager.id });
    const first = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.olivia.id,
      order: 0,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().members.map((m: { userId: number; order: number }) => m.order)).toEqual([
      0,
    ]);
    // A manager counts as eligible; the order sent by the client does not decide the position.
    const second = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.priya.id,
      order: 0,
    });
    expect(
      second.json().members.map((m: { userId: number; order: number }) => [m.userId, m.order]),
    ).toEqual([
      [people.olivia.id, 0],
      [people.priya.id, 1],
    ]);
    const events = await auditOf(r.id);
    expect(events.map((e) => [e.action, e.details])).toEqual([
      ['rotation.member_added', { userId: people.olivia.id, order: 0 }],
      ['rotation.member_added', { userId: people.priya.id, order: 1 }],
    ]);
  });

  test('adding refuses an incident manager, an existing member, an unknown user and an on-call caller', async () => {
    const r = await rotation({ createdById: people.manager.id, memberIds: ids(people.olivia) });
    const incident = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.iris.id,
    });
    expect(incident.statusCode).toBe(409);
    expect(incident.json().message).toBe(
      'Only users with the on-call or manager role can be added to a rotation.',
    );
    const twice = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.olivia.id,
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('That person is already a member of this rotation.');
    const unknown = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: 999999,
    });
    expect(unknown.statusCode).toBe(404);
    const none = await t.call(people.manager, 'POST', `/api/rotations/${r.id}/on-call`, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().fields.userId).toBe('Please select a team member');
    const denied = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/on-call`, {
      userId: people.noah.id,
    });
    expect(denied.statusCode).toBe(403);
  });

  test('removing a member renumbers the rest without gaps and records it', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam, people.priya),
      holderId: people.olivia.id,
    });
    const res = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.noah.id}`,
    );
    expect(res.statusCode).toBe(200);
    expect(
      res.json().members.map((m: { userId: number; order: number }) => [m.userId, m.order]),
    ).toEqual([
      [people.olivia.id, 0],
      [people.sam.id, 1],
      [people.priya.id, 2],
    ]);
    expect(res.json().currentOnCallUserId).toBe(people.olivia.id);
    expect(await handoffsOf(r.id)).toEqual([]);
    expect((await auditOf(r.id)).map((e) => [e.action, e.details])).toEqual([
      [
        'rotation.member_removed',
        {
          userId: people.noah.id,
          wasHolder: false,
          newHolderUserId: null,
          removedScheduleEntries: 0,
        },
      ],
    ]);
    const again = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.noah.id}`,
    );
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('That person is not a member of this rotation.');
    const denied = await t.call(
      people.olivia,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.sam.id}`,
    );
    expect(denied.statusCode).toBe(403);
  });

  test('removing the holder passes the baton to the next member who can hold it (handoff member_removed)', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.noah.id,
    });
    // Noah's upcoming schedule entry goes with him; a past one stays as history.
    const now = t.clock.now().getTime();
    await t.database.db.insert(scheduleEntries).values([
      {
        rotationId: r.id,
        userId: people.noah.id,
        startAt: new Date(now + HOUR),
        endAt: new Date(now + 2 * HOUR),
      },
      {
        rotationId: r.id,
        userId: people.noah.id,
        startAt: new Date(now - 5 * HOUR),
        endAt: new Date(now - 4 * HOUR),
      },
    ]);
    const res = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${r.id}/on-call/${people.noah.id}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currentOnCallUserId: people.sam.id,
      holderSince: t.clock.now().toISOString(),
      nextOnCall: { id: people.olivia.id },
    });
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: people.noah.id,
      toUserId: people.sam.id,
      kind: 'member_removed',
      status: 'success',
      notes: null,
    });
    const left = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.rotationId, r.id));
    expect(left).toHaveLength(1);
    const [event] = await auditOf(r.id);
    expect(event.details).toMatchObject({
      wasHolder: true,
      newHolderUserId: people.sam.id,
      removedScheduleEntries: 1,
    });
  });

  test('removing the holder of a suspended rotation, or the only member, leaves no holder (recorded)', async () => {
    const suspended = await rotation({
      createdById: people.manager.id,
      suspended: true,
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const res = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${suspended.id}/on-call/${people.olivia.id}`,
    );
    expect(res.json()).toMatchObject({
      currentOnCallUserId: null,
      currentOnCall: null,
      holderSince: null,
    });
    const [h] = await handoffsOf(suspended.id);
    expect(h).toMatchObject({
      fromUserId: people.olivia.id,
      toUserId: null,
      kind: 'member_removed',
    });

    const solo = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.sam),
      holderId: people.sam.id,
    });
    const alone = await t.call(
      people.manager,
      'DELETE',
      `/api/rotations/${solo.id}/on-call/${people.sam.id}`,
    );
    expect(alone.json()).toMatchObject({
      members: [],
      currentOnCallUserId: null,
      nextOnCall: null,
    });
  });

  test('reorder takes a complete permutation and refuses anything else', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
    });
    const memberRows = await t.database.db
      .select()
      .from(rotationMembers)
      .where(eq(rotationMembers.rotationId, r.id))
      .orderBy(rotationMembers.order);
    const [o, n, s] = memberRows.map((m) => m.id);
    const url = `/api/rotations/${r.id}/members/reorder`;
    // Swap every position at once: the deferred unique order constraint allows it.
    const res = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
        { id: n, order: 2 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().members.map((m: { userId: number }) => m.userId)).toEqual(
      ids(people.sam, people.olivia, people.noah),
    );
    expect(res.json().nextOnCall.id).toBe(people.noah.id);
    expect((await auditOf(r.id)).map((e) => [e.action, e.details])).toEqual([
      ['rotation.members_reordered', { userIds: ids(people.sam, people.olivia, people.noah) }],
    ]);

    const incomplete = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
      ],
    });
    expect(incomplete.statusCode).toBe(409);
    expect(incomplete.json().message).toBe(
      'The members of this rotation have changed. Refresh and try again.',
    );
    const duplicate = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 0 },
        { id: n, order: 2 },
      ],
    });
    expect(duplicate.statusCode).toBe(400);
    expect(duplicate.json().message).toBe(
      'The new order must list every member once, with positions 0 to N-1.',
    );
    const stranger = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
        { id: 999999, order: 2 },
      ],
    });
    expect(stranger.statusCode).toBe(409);
    const gap = await t.call(people.manager, 'PATCH', url, {
      members: [
        { id: s, order: 0 },
        { id: o, order: 1 },
        { id: n, order: 5 },
      ],
    });
    expect(gap.statusCode).toBe(400);
    const malformed = await t.call(people.manager, 'PATCH', url, { members: 'all' });
    expect(malformed.statusCode).toBe(400);
    const denied = await t.call(people.olivia, 'PATCH', url, { members: [{ id: s, order: 0 }] });
    expect(denied.statusCode).toBe(403);
    // Nothing refused changed anything.
    const after = await t.call(people.manager, 'GET', `/api/rotations/${r.id}`);
    expect(after.json().members.map((m: { userId: number }) => m.userId)).toEqual(
      ids(people.sam, people.olivia, people.noah),
    );
  });
});

describe('the baton', () => {
  test('a member takes on-call when no one holds it: holder, holder since, a take handoff', async () => {
    const r = await rotation({ memberIds: ids(people.olivia, people.noah) });
    const res = await t.call(people.noah, 'POST', `/api/rotations/${r.id}/take-oncall`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currentOnCallUserId: people.noah.id,
      currentOnCall: { name: 'Noah Nakamura' },
      holderSince: t.clock.now().toISOString(),
      nextOnCall: { id: people.olivia.id },
    });
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: null,
      toUserId: people.noah.id,
      kind: 'take',
      status: 'success',
      notes: null,
      occurredAt: t.clock.now(),
    });
  });

  test('taking on-call is refused when someone holds it, for non-members, incident managers and suspended rotations', async () => {
    const held = await rotation({
      memberIds: ids(people.olivia, people.noah, people.irisOnCall),
      holderId: people.olivia.id,
    });
    const taken = await t.call(people.noah, 'POST', `/api/rotations/${held.id}/take-oncall`);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      message: 'Someone is already on call for this rotation.',
      code: 'BATON_ALREADY_HELD',
    });
    const free = await rotation({ memberIds: ids(people.olivia) });
    const outsider = await t.call(people.outsider, 'POST', `/api/rotations/${free.id}/take-oncall`);
    expect(outsider.statusCode).toBe(409);
    expect(outsider.json()).toEqual({
      message: 'You must be a member of this rotation to take on-call.',
      code: 'NOT_A_MEMBER',
    });
    const incident = await t.call(people.iris, 'POST', `/api/rotations/${free.id}/take-oncall`);
    expect(incident.statusCode).toBe(403);
    const suspended = await rotation({ suspended: true, memberIds: ids(people.olivia) });
    const refused = await t.call(
      people.olivia,
      'POST',
      `/api/rotations/${suspended.id}/take-oncall`,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: 'This rotation is suspended and does not accept handoffs. Activate it first.',
      code: 'ROTATION_SUSPENDED',
    });
    expect(await handoffsOf(suspended.id)).toEqual([]);
    const missing = await t.call(people.olivia, 'POST', '/api/rotations/999999/take-oncall');
    expect(missing.statusCode).toBe(404);
  });

  test('an incident manager who also holds the on-call role may take on-call', async () => {
    const r = await rotation({ memberIds: ids(people.irisOnCall) });
    const res = await t.call(people.irisOnCall, 'POST', `/api/rotations/${r.id}/take-oncall`);
    expect(res.statusCode).toBe(200);
  });

  test('the holder passes the baton with notes: new holder, holder since, a pass handoff in the same change', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
      holderSince: new Date('2026-10-30T09:00:00Z'),
    });
    t.clock.set('2026-11-02T15:30:00Z');
    const res = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.sam.id,
      notes: '  Disk alarms on db-3 are known.  ',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      currentOnCallUserId: people.sam.id,
      holderSince: '2026-11-02T15:30:00.000Z',
      nextOnCall: { id: people.olivia.id },
    });
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: people.olivia.id,
      toUserId: people.sam.id,
      kind: 'pass',
      status: 'success',
      notes: 'Disk alarms on db-3 are known.',
      urgent: false,
      occurredAt: new Date('2026-11-02T15:30:00Z'),
    });
    // Empty notes are not stored; an urgent handoff is flagged.
    await t.call(people.sam, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
      notes: '   ',
      urgent: true,
    });
    const [second] = await handoffsOf(r.id);
    expect(second).toMatchObject({ fromUserId: people.sam.id, notes: null, urgent: true });
  });

  test('passing is refused for non-holders, to oneself, to non-members, to members who cannot hold it, and in suspended rotations', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
    });
    const url = `/api/rotations/${r.id}/handoff`;
    const notHolder = await t.call(people.noah, 'POST', url, { toUserId: people.sam.id });
    expect(notHolder.statusCode).toBe(409);
    expect(notHolder.json()).toEqual({
      message: 'You must be on-call to pass the baton.',
      code: 'NOT_ON_CALL',
    });
    const self = await t.call(people.olivia, 'POST', url, { toUserId: people.olivia.id });
    expect(self.statusCode).toBe(400);
    const stranger = await t.call(people.olivia, 'POST', url, { toUserId: people.outsider.id });
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json()).toMatchObject({
      code: 'NOT_A_MEMBER',
      message: 'The person you chose is not a member of this rotation.',
      fields: { toUserId: 'The person you chose is not a member of this rotation.' },
    });
    const none = await t.call(people.olivia, 'POST', url, {});
    expect(none.statusCode).toBe(400);
    expect(none.json().fields.toUserId).toBe('Please select a team member to pass the baton to');
    const incident = await t.call(people.iris, 'POST', url, { toUserId: people.sam.id });
    expect(incident.statusCode).toBe(403);

    // A member whose role changed to incident manager since joining cannot receive the baton.
    const demoted = await t.createUser({ name: 'Dee Demoted', roles: ['on-call'] });
    const withDemoted = await rotation({
      memberIds: [people.olivia.id, demoted.id],
      holderId: people.olivia.id,
    });
    await t.database.db
      .update(users)
      .set({ roles: ['incident_manager'], role: 'incident_manager' })
      .where(eq(users.id, demoted.id));
    const cannot = await t.call(people.olivia, 'POST', `/api/rotations/${withDemoted.id}/handoff`, {
      toUserId: demoted.id,
    });
    expect(cannot.statusCode).toBe(409);
    expect(cannot.json().code).toBe('CANNOT_HOLD_BATON');

    const suspended = await rotation({
      suspended: true,
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const refused = await t.call(people.olivia, 'POST', `/api/rotations/${suspended.id}/handoff`, {
      toUserId: people.noah.id,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ROTATION_SUSPENDED');
    expect(await handoffsOf(r.id)).toEqual([]);
    expect(await handoffsOf(suspended.id)).toEqual([]);
  });

  test('a manager reassigns the baton to a member other than the holder (reassign handoff)', async () => {
    const r = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
      holderId: people.olivia.id,
    });
    const url = `/api/rotations/${r.id}/assign-oncall`;
    const res = await t.call(people.manager, 'POST', url, {
      toUserId: people.sam.id,
      notes: 'Olivia is out sick',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().currentOnCallUserId).toBe(people.sam.id);
    const [h] = await handoffsOf(r.id);
    expect(h).toMatchObject({
      fromUserId: people.olivia.id,
      toUserId: people.sam.id,
      kind: 'reassign',
      notes: 'Olivia is out sick',
    });
    const toHolder = await t.call(people.admin, 'POST', url, {
      toUserId: people.sam.id,
      notes: '',
    });
    expect(toHolder.statusCode).toBe(409);
    expect(toHolder.json().message).toBe('That person is already on call. Choose someone else.');
    const stranger = await t.call(people.admin, 'POST', url, { toUserId: people.outsider.id });
    expect(stranger.statusCode).toBe(409);
    const none = await t.call(people.admin, 'POST', url, { notes: '' });
    expect(none.json().fields.toUserId).toBe('Please select a team member to assign on-call to');
    expect(
      (await t.call(people.olivia, 'POST', url, { toUserId: people.noah.id })).statusCode,
    ).toBe(403);
    expect((await t.call(people.iris, 'POST', url, { toUserId: people.noah.id })).statusCode).toBe(
      403,
    );

    const empty = await rotation({ memberIds: ids(people.olivia, people.noah) });
    const first = await t.call(people.admin, 'POST', `/api/rotations/${empty.id}/assign-oncall`, {
      toUserId: people.noah.id,
      notes: null,
    });
    expect(first.statusCode).toBe(200);
    const [h2] = await handoffsOf(empty.id);
    expect(h2).toMatchObject({ fromUserId: null, toUserId: people.noah.id, notes: null });

    const suspended = await rotation({
      createdById: people.manager.id,
      suspended: true,
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const refused = await t.call(
      people.manager,
      'POST',
      `/api/rotations/${suspended.id}/assign-oncall`,
      {
        toUserId: people.noah.id,
      },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('ROTATION_SUSPENDED');
  });

  test('take, pass and reassign answer exactly what a read of the rotation shows right after', async () => {
    const get = async (id: number, user: User) =>
      (await t.call(user, 'GET', `/api/rotations/${id}`)).json();
    const fixed = await rotation({
      createdById: people.manager.id,
      memberIds: ids(people.olivia, people.noah, people.sam),
    });
    const scheduled = await rotation({
      createdById: people.manager.id,
      type: 'scheduled',
      memberIds: ids(people.olivia, people.noah, people.sam),
    });
    const now = t.clock.now().getTime();
    await t.database.db.insert(scheduleEntries).values({
      rotationId: scheduled.id,
      userId: people.sam.id,
      startAt: new Date(now + 2 * HOUR),
      endAt: new Date(now + 3 * HOUR),
    });
    for (const r of [fixed, scheduled]) {
      const base = `/api/rotations/${r.id}`;
      const took = await t.call(people.olivia, 'POST', `${base}/take-oncall`);
      expect(took.statusCode).toBe(200);
      expect(took.json()).toEqual(await get(r.id, people.olivia));
      t.clock.advance(60_000);
      const passed = await t.call(people.olivia, 'POST', `${base}/handoff`, {
        toUserId: people.noah.id,
        notes: 'Quiet night',
        urgent: true,
      });
      expect(passed.statusCode).toBe(200);
      // The receiver must acknowledge; the urgent pass keeps the previous holder as backup.
      expect(passed.json().unacknowledgedHandoff).toMatchObject({ kind: 'pass', urgent: true });
      // The receiver's banner quotes the notes and who wrote them (decision 187).
      expect((await get(r.id, people.noah)).unacknowledgedHandoff).toMatchObject({
        notes: 'Quiet night',
        notesBy: { id: people.olivia.id, name: people.olivia.name },
      });
      expect(passed.json().backupOnCall?.id).toBe(people.olivia.id);
      expect(passed.json()).toEqual(await get(r.id, people.olivia));
      t.clock.advance(60_000);
      const reassigned = await t.call(people.manager, 'POST', `${base}/assign-oncall`, {
        toUserId: people.sam.id,
      });
      expect(reassigned.statusCode).toBe(200);
      expect(reassigned.json()).toEqual(await get(r.id, people.manager));
    }
  });

  test('a change recorded before a later handoff (a clock set back) answers the later one as latest', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    // Another instance, its clock ahead, recorded a handoff ten minutes from now.
    await t.database.db.insert(handoffs).values({
      rotationId: r.id,
      fromUserId: people.noah.id,
      toUserId: people.olivia.id,
      kind: 'pass',
      urgent: true,
      occurredAt: new Date(t.clock.now().getTime() + 10 * 60_000),
    });
    const passed = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/handoff`, {
      toUserId: people.noah.id,
    });
    expect(passed.statusCode).toBe(200);
    const read = (await t.call(people.olivia, 'GET', `/api/rotations/${r.id}`)).json();
    expect(passed.json()).toEqual(read);
    // The later handoff is Noah → Olivia, which no longer matches the holder: no acknowledgement.
    expect(read.unacknowledgedHandoff).toBeNull();
  });
});

describe('coverage', () => {
  const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();

  test('the holder asks another member to cover a window: stored pending, answered with both people', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah, people.priya),
      holderId: people.olivia.id,
    });
    const res = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/cover`, {
      rotationId: r.id,
      coveringUserId: people.priya.id,
      startTime: at(2),
      endTime: at(26),
      notes: 'Dentist',
    });
    expect(res.statusCode).toBe(201);
    const body = CoverageRequestSchema.parse(res.json());
    expect(body).toEqual({
      id: expect.any(Number),
      rotationId: r.id,
      requester: expect.objectContaining({ id: people.olivia.id, name: 'Olivia Ortiz' }),
      coveringUser: expect.objectContaining({ id: people.priya.id, name: 'Priya Patel' }),
      startTime: at(2),
      endTime: at(26),
      notes: 'Dentist',
      status: 'pending',
    });
    const [row] = await t.database.db
      .select()
      .from(coverageRequests)
      .where(eq(coverageRequests.id, body.id));
    expect(row).toMatchObject({ requesterId: people.olivia.id, status: 'pending' });
    // Starting now, without notes.
    const now = await t.call(people.olivia, 'POST', `/api/rotations/${r.id}/cover`, {
      coveringUserId: people.noah.id,
      startTime: at(0),
      endTime: at(1),
      notes: null,
    });
    expect(now.statusCode).toBe(201);
    expect(now.json().notes).toBeNull();
  });

  test('coverage is refused for non-holders, oneself, non-members, past starts and ends before starts', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah),
      holderId: people.olivia.id,
    });
    const url = `/api/rotations/${r.id}/cover`;
    const ask = (coveringUserId: number, startTime = at(1), endTime = at(5)) => ({
      coveringUserId,
      startTime,
      endTime,
      notes: null,
    });
    const notHolder = await t.call(people.noah, 'POST', url, ask(people.olivia.id));
    expect(notHolder.statusCode).toBe(409);
    expect(notHolder.json()).toEqual({
      message: 'You must be on-call to request coverage',
      code: 'NOT_ON_CALL',
    });
    const self = await t.call(people.olivia, 'POST', url, ask(people.olivia.id));
    expect(self.statusCode).toBe(400);
    const stranger = await t.call(people.olivia, 'POST', url, ask(people.outsider.id));
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json().fields).toHaveProperty('coveringUserId');
    const past = await t.call(people.olivia, 'POST', url, ask(people.noah.id, at(-2)));
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ startTime: 'Start time cannot be in the past' });
    const backwards = await t.call(people.olivia, 'POST', url, ask(people.noah.id, at(5), at(1)));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields).toEqual({ endTime: 'End time must be after start time' });
    const missing = await t.call(people.olivia, 'POST', url, { startTime: at(1), endTime: at(2) });
    expect(missing.json().fields.coveringUserId).toBe('Please select a team member to cover you');
    const wrongRotation = await t.call(people.olivia, 'POST', url, {
      ...ask(people.noah.id),
      rotationId: r.id + 1000,
    });
    expect(wrongRotation.statusCode).toBe(400);
    expect((await t.call(people.iris, 'POST', url, ask(people.noah.id))).statusCode).toBe(403);
    const rows = await t.database.db
      .select()
      .from(coverageRequests)
      .where(eq(coverageRequests.rotationId, r.id));
    expect(rows).toEqual([]);
  });
});

describe('paging', () => {
  test('an incident manager pages any rotation: the page is recorded and the answer names the holder', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah),
      holderId: people.noah.id,
      createdById: people.admin.id,
    });
    const res = await t.call(people.iris, 'POST', `/api/rotations/${r.id}/page`, {
      message: 'Checkout is failing',
      urgency: 'medium',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ sentTo: { name: 'Noah Nakamura' } });
    const [page] = await t.database.db.select().from(pages).where(eq(pages.rotationId, r.id));
    expect(page).toMatchObject({
      pagedById: people.iris.id,
      targetUserId: people.noah.id,
      legacyMessage: null,
      urgency: 'medium',
      status: 'triggered',
    });
    // Sealed at rest (decision 163), bound to the page's row.
    expect(pageMessageOf(page, t.cipher)).toBe('Checkout is failing');
    const byAdmin = await t.call(people.admin, 'POST', `/api/rotations/${r.id}/page`, {
      message: 'Again',
    });
    expect(byAdmin.statusCode).toBe(201);
    const [latest] = await t.database.db
      .select()
      .from(pages)
      .where(eq(pages.rotationId, r.id))
      .orderBy(desc(pages.id));
    expect(latest.urgency).toBe('high'); // the default
  });

  test('managers page only the rotations they manage (created or member of)', async () => {
    const created = await rotation({
      memberIds: ids(people.olivia),
      holderId: people.olivia.id,
      createdById: people.manager.id,
    });
    const memberOf = await rotation({
      memberIds: ids(people.olivia, people.priya),
      holderId: people.olivia.id,
      createdById: people.admin.id,
    });
    const page = (user: User, id: number) =>
      t.call(user, 'POST', `/api/rotations/${id}/page`, { message: 'Help', urgency: 'low' });
    expect((await page(people.manager, created.id)).statusCode).toBe(201);
    expect((await page(people.priya, memberOf.id)).statusCode).toBe(201);
    const notManaged = await page(people.otherManager, created.id);
    expect(notManaged.statusCode).toBe(403);
    expect(notManaged.json().message).toBe('Managers can page only the rotations they manage.');
    expect((await page(people.olivia, created.id)).statusCode).toBe(403);
  });

  test('paging a rotation with no holder or a suspended one is refused with a message; an empty message is 400', async () => {
    const empty = await rotation({ memberIds: ids(people.olivia) });
    const nobody = await t.call(people.iris, 'POST', `/api/rotations/${empty.id}/page`, {
      message: 'Anyone?',
    });
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json()).toEqual({
      message: 'No one is on call for this rotation, so there is no one to page.',
      code: 'NO_ONE_ON_CALL',
    });
    const suspended = await rotation({
      suspended: true,
      memberIds: ids(people.olivia),
      holderId: people.olivia.id,
    });
    const paused = await t.call(people.iris, 'POST', `/api/rotations/${suspended.id}/page`, {
      message: 'Anyone?',
    });
    expect(paused.statusCode).toBe(409);
    expect(paused.json().code).toBe('ROTATION_SUSPENDED');
    const blank = await t.call(people.iris, 'POST', `/api/rotations/${empty.id}/page`, {
      message: '   ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields.message).toBe('Please enter a message');
    const rows = await t.database.db.select().from(pages).where(eq(pages.rotationId, empty.id));
    expect(rows).toEqual([]);
    const missing = await t.call(people.iris, 'POST', '/api/rotations/999999/page', {
      message: 'x',
    });
    expect(missing.statusCode).toBe(404);
  });
});

describe('query counts', () => {
  /**
   * count returns how many SQL statements one request ran that computed its answer: a committed
   * transaction first changes the database snapshot, so the read cache has nothing to reuse.
   */
  async function count(user: User, url: string) {
    await t.call(user, 'GET', url); // warm the session cookie cache
    await t.database.db.execute(sql`select pg_current_xact_id()`);
    statements = 0;
    counting = true;
    const res = await t.call(user, 'GET', url);
    counting = false;
    expect(res.statusCode).toBe(200);
    return { n: statements, body: res.json() as unknown[] };
  }

  async function seed(n: number, member: User) {
    for (let i = 0; i < n; i++) {
      const r = await rotation({
        name: `Count ${i}`,
        type: i % 2 === 0 ? 'fixed' : 'scheduled',
        memberIds: [member.id, people.olivia.id, people.noah.id],
        holderId: i % 3 === 0 ? member.id : null,
      });
      const now = t.clock.now().getTime();
      await t.database.db.insert(scheduleEntries).values({
        rotationId: r.id,
        userId: people.noah.id,
        startAt: new Date(now + (i + 1) * HOUR),
        endAt: new Date(now + (i + 2) * HOUR),
      });
      await t.database.db.insert(handoffs).values({
        rotationId: r.id,
        fromUserId: people.olivia.id,
        toUserId: member.id,
        kind: 'pass',
        occurredAt: new Date(now - i * HOUR),
      });
    }
  }

  test('list endpoints run the same number of statements for 2 and for 20 more rotations', async () => {
    const viewer = await t.createUser({ name: 'Quentin Query', roles: ['on-call'] });
    await seed(2, viewer);
    const few = {
      all: await count(viewer, '/api/rotations'),
      mine: await count(viewer, '/api/user/rotations'),
      handoffs: await count(viewer, '/api/handoffs/recent?limit=100'),
    };
    await seed(18, viewer);
    const many = {
      all: await count(viewer, '/api/rotations'),
      mine: await count(viewer, '/api/user/rotations'),
      handoffs: await count(viewer, '/api/handoffs/recent?limit=100'),
    };
    expect(many.mine.body.length).toBe(20);
    expect(few.mine.body.length).toBe(2);
    expect(many.all.body.length).toBeGreaterThan(few.all.body.length);
    expect(many.handoffs.body.length).toBeGreaterThan(few.handoffs.body.length);
    expect(many.all.n).toBe(few.all.n);
    expect(many.mine.n).toBe(few.mine.n);
    expect(many.handoffs.n).toBe(few.handoffs.n);
    // Session lookup plus at most three reads.
    expect(many.all.n).toBeLessThanOrEqual(4);
  });

  test('each user is decrypted once per request however many rotations they appear in', async () => {
    const viewer = await t.createUser({ name: 'Dora Decrypt', roles: ['on-call'] });
    await seed(3, viewer);
    const decrypt = t.cipher.decrypt.bind(t.cipher);
    const seen = new Map<string, number>();
    t.cipher.decrypt = ((value: string, ctx: { table: string; column: string; rowId: number }) => {
      const key = `${ctx.table}.${ctx.column}:${ctx.rowId}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      return decrypt(value, ctx as never);
    }) as typeof t.cipher.decrypt;
    try {
      const res = await t.call(viewer, 'GET', '/api/user/rotations');
      expect(res.statusCode).toBe(200);
    } finally {
      t.cipher.decrypt = decrypt;
    }
    // Every user exactly once, the viewer included (by the session hook, and not again).
    expect(seen.get(`users.name:${people.olivia.id}`)).toBe(1);
    expect(seen.get(`users.name:${people.noah.id}`)).toBe(1);
    expect(seen.get(`users.name:${viewer.id}`)).toBe(1);
    expect(Math.max(...seen.values())).toBe(1);
  });
});
