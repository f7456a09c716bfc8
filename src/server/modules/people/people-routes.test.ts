import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import {
  auditEvents,
  coverageRequests,
  rotations,
  scheduleEntries,
  sessions,
  users,
} from '../../db/schema';
import { insertRotation } from '../../seed/factories';

let t: TestApp;
let admin: User;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await t.createUser({ name: 'Ada Admin', roles: ['admin'] });
  adminCookie = await t.cookieFor(admin);
});
afterAll(() => t.close());

const as = (cookie: string, method: 'GET' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
  t.app.inject({ method, url, payload: payload as object, headers: { cookie } });

test('GET /api/users/by-roles lists users with any of the roles; admin counts as manager, member as on-call', async () => {
  const app = await createTestApp();
  try {
    const a = await app.createUser({ name: 'Ada Admin', roles: ['admin'] });
    const manager = await app.createUser({ name: 'Max Manager', roles: ['manager'] });
    const onCall = await app.createUser({ name: 'Olga Oncall', roles: ['on-call'] });
    await app.createUser({ name: 'Ian Incident', roles: ['incident_manager'] });
    const legacy = await app.createUser({ name: 'Lee Legacy', roles: ['on-call'] });
    await app.database.db
      .update(users)
      .set({ roles: ['member'], role: 'member' })
      .where(eq(users.id, legacy.id));
    const cookie = await app.cookieFor(manager);
    const res = await app.app.inject({
      url: '/api/users/by-roles?roles=on-call,manager',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((u: { id: number }) => u.id)).toEqual([
      a.id,
      legacy.id,
      manager.id,
      onCall.id,
    ]);

    const bad = await app.app.inject({
      url: '/api/users/by-roles?roles=root',
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/Unknown role/);
    const missing = await app.app.inject({ url: '/api/users/by-roles', headers: { cookie } });
    expect(missing.statusCode).toBe(400);
  } finally {
    await app.close();
  }
});

describe('GET /api/users', () => {
  test('lists every user by name, decrypted, in a fixed number of queries', async () => {
    let queries = 0;
    const app = await createTestApp({ db: { onQuery: () => queries++ } });
    try {
      const a = await app.createUser({ name: 'Zed Admin', roles: ['admin'] });
      const cookie = await app.cookieFor(a);
      queries = 0;
      await app.app.inject({ url: '/api/users', headers: { cookie } });
      const few = queries;
      for (let i = 0; i < 5; i++) await app.createUser({ name: `Person ${i}` });
      queries = 0;
      const res = await app.app.inject({ url: '/api/users', headers: { cookie } });
      expect(queries).toBe(few);
      expect(res.json().map((u: User) => u.name)).toEqual([
        'Person 0',
        'Person 1',
        'Person 2',
        'Person 3',
        'Person 4',
        'Zed Admin',
      ]);
    } finally {
      await app.close();
    }
  });
});

describe('PATCH /api/users/{id} (profile)', () => {
  test('a user updates their own profile; the answer is the updated user', async () => {
    const me = await t.createUser({ name: 'Olive Own', roles: ['on-call'], phone: '+1555' });
    const res = await as(await t.cookieFor(me), 'PATCH', `/api/users/${me.id}`, {
      name: '  Olive Owner ',
      phone: '+44 20 7946 0000',
      timezone: 'Europe/London',
      notificationPreference: 'both',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...me,
      name: 'Olive Owner',
      phone: '+44 20 7946 0000',
      timezone: 'Europe/London',
      notificationPreference: 'both',
    });
  });

  test('choosing SMS needs an E.164 phone number, given now or already stored', async () => {
    const me = await t.createUser({ phone: '555-0100', notificationPreference: 'email' });
    const cookie = await t.cookieFor(me);
    const alone = await as(cookie, 'PATCH', `/api/users/${me.id}`, {
      notificationPreference: 'sms',
    });
    expect(alone.statusCode).toBe(400);
    expect(alone.json().fields.phone).toMatch(/E\.164|\+/);
    const bad = await as(cookie, 'PATCH', `/api/users/${me.id}`, {
      notificationPreference: 'both',
      phone: '12345',
    });
    expect(bad.statusCode).toBe(400);
    const good = await as(cookie, 'PATCH', `/api/users/${me.id}`, {
      notificationPreference: 'sms',
      phone: '+15550100',
    });
    expect(good.statusCode).toBe(200);
    // Nothing was half-written by the refused requests.
    expect(good.json()).toMatchObject({ notificationPreference: 'sms' });
  });

  test('settings may send the notification preference alone; the phone stays', async () => {
    const me = await t.createUser({ phone: '+15550001' });
    const res = await as(await t.cookieFor(me), 'PATCH', `/api/users/${me.id}`, {
      notificationPreference: 'sms',
    });
    expect(res.json()).toMatchObject({ phone: '+15550001', notificationPreference: 'sms' });
    const cleared = await as(await t.cookieFor(me), 'PATCH', `/api/users/${me.id}`, { phone: '' });
    expect(cleared.json().phone).toBeNull();
  });

  test.each([
    [{ name: 'A' }, 'name', 'Name must be at least 2 characters'],
    [{ timezone: '' }, 'timezone', 'Timezone is required'],
    [{ timezone: 'Mars/Olympus' }, 'timezone', expect.stringMatching(/IANA/)],
    [{ notificationPreference: 'pigeon' }, 'notificationPreference', expect.any(String)],
  ])('refuses %j with a field error', async (body, field, message) => {
    const me = await t.createUser();
    const res = await as(await t.cookieFor(me), 'PATCH', `/api/users/${me.id}`, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields[field]).toEqual(message);
  });

  test('others get 403 for someone else’s profile; administrators may edit anyone', async () => {
    const me = await t.createUser({ roles: ['manager'] });
    const other = await t.createUser({ name: 'Other Person' });
    const denied = await as(await t.cookieFor(me), 'PATCH', `/api/users/${other.id}`, {
      name: 'Hijacked',
    });
    expect(denied.statusCode).toBe(403);
    const byAdmin = await as(adminCookie, 'PATCH', `/api/users/${other.id}`, { name: 'Renamed' });
    expect(byAdmin.json().name).toBe('Renamed');
  });
});

describe('PATCH /api/admin/users/{id}/roles', () => {
  test('replaces the roles, records it, and ends nothing else', async () => {
    const user = await t.createUser({ roles: ['on-call'] });
    const cookie = await t.cookieFor(user);
    const res = await as(adminCookie, 'PATCH', `/api/admin/users/${user.id}/roles`, {
      roles: ['manager', 'on-call', 'manager'],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: user.id,
      roles: ['manager', 'on-call'],
      role: 'manager',
    });
    // The user's session goes on, with the new roles.
    const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
    expect(me.json().user.roles).toEqual(['manager', 'on-call']);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'user.roles_changed'));
    expect(event).toMatchObject({
      targetType: 'user',
      targetId: String(user.id),
      details: { from: ['on-call'], to: ['manager', 'on-call'] },
    });
  });

  test.each([
    [[], 'A user must have at least one role.'],
    [['on-call', 'superuser'], 'One or more selected roles are invalid.'],
    [['member'], 'One or more selected roles are invalid.'],
  ])('refuses %j: %s', async (roles, message) => {
    const user = await t.createUser();
    const res = await as(adminCookie, 'PATCH', `/api/admin/users/${user.id}/roles`, { roles });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
  });

  test('an administrator cannot remove their own admin role', async () => {
    const res = await as(adminCookie, 'PATCH', `/api/admin/users/${admin.id}/roles`, {
      roles: ['manager'],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('You cannot remove your own admin role.');
    const kept = await as(adminCookie, 'PATCH', `/api/admin/users/${admin.id}/roles`, {
      roles: ['admin', 'on-call'],
    });
    expect(kept.json().roles).toEqual(['admin', 'on-call']);
  });

  test('only administrators change roles', async () => {
    const manager = await t.createUser({ roles: ['manager'] });
    const res = await as(
      await t.cookieFor(manager),
      'PATCH',
      `/api/admin/users/${manager.id}/roles`,
      {
        roles: ['admin'],
      },
    );
    expect(res.statusCode).toBe(403);
  });
});

describe('DELETE /api/users/{id}', () => {
  test('deletes a user, ends their sessions and records it', async () => {
    const user = await t.createUser();
    await t.cookieFor(user);
    const res = await as(adminCookie, 'DELETE', `/api/users/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(await t.database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(0);
    expect(
      await t.database.db.select().from(sessions).where(eq(sessions.userId, user.id)),
    ).toHaveLength(0);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'user.deleted'));
    expect(event).toMatchObject({ targetId: String(user.id), actorUserId: admin.id });
  });

  test('refuses while the user is in rotations (holding a baton or not), naming them', async () => {
    const user = await t.createUser({ name: 'Rita Rotation' });
    const other = await t.createUser();
    await insertRotation(t.database.db, { name: 'Zulu Night', memberIds: [other.id, user.id] });
    await insertRotation(t.database.db, {
      name: 'Alpha Day',
      memberIds: [user.id],
      holderId: user.id,
    });
    const res = await as(adminCookie, 'DELETE', `/api/users/${user.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'Rita Rotation is still in the rotations Alpha Day, Zulu Night. Remove them from the rotations (passing on the baton if they hold it) before deleting the account.',
    );
    expect(await t.database.db.select().from(users).where(eq(users.id, user.id))).toHaveLength(1);
  });

  test('refuses while the user has an upcoming schedule entry', async () => {
    const user = await t.createUser({ name: 'Sol Schedule' });
    const rotation = await insertRotation(t.database.db, {
      name: 'Calendar Desk',
      type: 'scheduled',
    });
    const start = new Date(t.clock.now().getTime() + 86_400_000);
    await t.database.db.insert(scheduleEntries).values({
      rotationId: rotation.id,
      userId: user.id,
      startAt: start,
      endAt: new Date(start.getTime() + 86_400_000),
    });
    const res = await as(adminCookie, 'DELETE', `/api/users/${user.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/still in the rotation Calendar Desk\./);
  });

  test('nobody deletes themselves; 404 for a missing user; only administrators delete', async () => {
    const self = await as(adminCookie, 'DELETE', `/api/users/${admin.id}`);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('You cannot delete your own account.');
    expect((await as(adminCookie, 'DELETE', '/api/users/999999')).statusCode).toBe(404);
    const manager = await t.createUser({ roles: ['manager'] });
    const victim = await t.createUser();
    const res = await as(await t.cookieFor(manager), 'DELETE', `/api/users/${victim.id}`);
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /api/users/{id}: the read-only person view (decision 187)', () => {
  const hours = (n: number) => new Date(t.clock.now().getTime() + n * 3_600_000);

  test('answers name, email, phone, time zone, rotations and whom they cover, to every role', async () => {
    const priya = await t.createUser({
      name: 'Priya Person',
      roles: ['on-call'],
      phone: '+14155550101',
      timezone: 'Europe/Berlin',
    });
    const ravi = await t.createUser({ name: 'Ravi Requester', roles: ['on-call'] });
    const sam = await t.createUser({ name: 'Sam Someone', roles: ['on-call'] });
    const ops = await insertRotation(t.database.db, {
      name: 'person view ops',
      memberIds: [priya.id, ravi.id],
    });
    const db = await insertRotation(t.database.db, {
      name: 'Person View DB',
      memberIds: [ravi.id, priya.id],
      suspended: true,
    });
    await insertRotation(t.database.db, { name: 'Person View Other', memberIds: [sam.id] });
    await t.database.db
      .update(rotations)
      .set({ holderUserId: priya.id })
      .where(eq(rotations.id, ops.id));
    const requests = await t.database.db
      .insert(coverageRequests)
      .values(
        (
          [
            ['active', -1, 2, ravi.id, priya.id],
            ['accepted', 5, 8, ravi.id, priya.id],
            ['pending', 3, 4, ravi.id, priya.id],
            ['declined', 3, 4, ravi.id, priya.id],
            ['completed', -5, -2, ravi.id, priya.id],
            ['accepted', -6, -1, ravi.id, priya.id],
            ['accepted', 1, 2, priya.id, ravi.id],
          ] as const
        ).map(([status, from, to, requesterId, coveringUserId]) => ({
          rotationId: ops.id,
          requesterId,
          coveringUserId,
          status,
          startAt: hours(from),
          endAt: hours(to),
        })),
      )
      .returning();

    for (const roles of [['on-call'], ['manager'], ['incident_manager'], ['admin']] as const) {
      const viewer = await t.createUser({ roles: [...roles] });
      const res = await as(await t.cookieFor(viewer), 'GET', `/api/users/${priya.id}`);
      expect(res.statusCode, `${roles}`).toBe(200);
      expect(res.json()).toEqual({
        id: priya.id,
        name: 'Priya Person',
        email: priya.email,
        phone: '+14155550101',
        timezone: 'Europe/Berlin',
        rotations: [
          { id: db.id, name: 'Person View DB', isSuspended: true, holdsBaton: false },
          { id: ops.id, name: 'person view ops', isSuspended: false, holdsBaton: true },
        ],
        // Only what she gives and still stands: running first, then to come; no pending,
        // declined, ended or finished request, and not the coverage she asked for.
        covering: [
          {
            id: requests[0].id,
            rotation: { id: ops.id, name: 'person view ops' },
            requester: { id: ravi.id, name: 'Ravi Requester' },
            startTime: hours(-1).toISOString(),
            endTime: hours(2).toISOString(),
            status: 'active',
          },
          {
            id: requests[1].id,
            rotation: { id: ops.id, name: 'person view ops' },
            requester: { id: ravi.id, name: 'Ravi Requester' },
            startTime: hours(5).toISOString(),
            endTime: hours(8).toISOString(),
            status: 'accepted',
          },
        ],
      });
    }
  });

  test('a person without rotations or coverage answers empty lists and no phone', async () => {
    const quiet = await t.createUser({ name: 'Quinn Quiet', roles: ['incident_manager'] });
    const res = await as(adminCookie, 'GET', `/api/users/${quiet.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Quinn Quiet',
      phone: null,
      rotations: [],
      covering: [],
    });
  });

  test('404 for an unknown or deleted person; 400 for an id that is not one', async () => {
    const gone = await t.createUser({ name: 'Gwen Gone', roles: ['on-call'] });
    expect((await as(adminCookie, 'GET', `/api/users/${gone.id}`)).statusCode).toBe(200);
    const deleted = await as(adminCookie, 'DELETE', `/api/users/${gone.id}`);
    expect(deleted.statusCode, deleted.body).toBe(200);
    const after = await as(adminCookie, 'GET', `/api/users/${gone.id}`);
    expect(after.statusCode).toBe(404);
    expect(after.json()).toMatchObject({ message: 'User not found', code: 'NOT_FOUND' });
    expect((await as(adminCookie, 'GET', '/api/users/2147483647')).statusCode).toBe(404);
    for (const bad of ['abc', '0', '-1', '99999999999']) {
      expect((await as(adminCookie, 'GET', `/api/users/${bad}`)).statusCode, bad).toBe(400);
    }
    expect((await t.app.inject({ url: `/api/users/${admin.id}` })).statusCode).toBe(401);
  });

  test('reads in a fixed number of queries, however many rotations and requests', async () => {
    const queries: string[] = [];
    const app = await createTestApp({ db: { onQuery: (q) => queries.push(q) } });
    try {
      const busy = await app.createUser({ name: 'Busy Bee', roles: ['on-call'] });
      const idle = await app.createUser({ name: 'Idle Ida', roles: ['on-call'] });
      const asker = await app.createUser({ name: 'Asker Ash', roles: ['on-call'] });
      for (let i = 0; i < 6; i += 1) {
        const r = await insertRotation(app.database.db, { memberIds: [busy.id, asker.id] });
        await app.database.db.insert(coverageRequests).values({
          rotationId: r.id,
          requesterId: asker.id,
          coveringUserId: busy.id,
          status: 'accepted',
          startAt: new Date(app.clock.now().getTime() + (i + 1) * 3_600_000),
          endAt: new Date(app.clock.now().getTime() + (i + 2) * 3_600_000),
        });
      }
      const cookie = await app.cookieFor(asker);
      const count = async (id: number) => {
        await app.app.inject({ url: `/api/users/${id}`, headers: { cookie } });
        queries.length = 0;
        const res = await app.app.inject({ url: `/api/users/${id}`, headers: { cookie } });
        expect(res.statusCode).toBe(200);
        return queries.length;
      };
      expect(await count(busy.id)).toBe(await count(idle.id));
    } finally {
      await app.close();
    }
  });
});
