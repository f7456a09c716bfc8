import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { type ScheduleEntry, ScheduleEntrySchema } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, scheduleEntries } from '../../db/schema';
import { insertRotation } from '../../seed/factories';

let t: TestApp;
let admin: User;
let manager: User;
let olivia: User;
let noah: User;
let outsider: User;
const HOUR = 3_600_000;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, manager, olivia, noah, outsider } = await t.cast({
    admin: {},
    manager: {},
    olivia: {},
    noah: {},
    outsider: {},
  }));
});
afterAll(() => t.close());
beforeEach(() => t.clock.set('2026-11-02T12:00:00Z'));

const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();
const newRotation = () =>
  insertRotation(t.database.db, { memberIds: [olivia.id, noah.id], now: t.clock.now() });
const entry = (userId: number, start: number, end: number) => ({
  userId,
  startTime: at(start),
  endTime: at(end),
});

describe('adding schedule entries', () => {
  test('an admin adds an entry for a member: 201 with the entry and its user; recorded', async () => {
    const r = await newRotation();
    const res = await t.call(
      admin,
      'POST',
      `/api/rotations/${r.id}/schedules`,
      entry(noah.id, 2, 26),
    );
    expect(res.statusCode).toBe(201);
    const body = ScheduleEntrySchema.parse(res.json());
    expect(body).toEqual({
      id: expect.any(Number),
      rotationId: r.id,
      userId: noah.id,
      user: { id: noah.id, name: 'Noah Nakamura', email: noah.email, phone: null },
      startTime: at(2),
      endTime: at(26),
    });
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, 'rotation'), eq(auditEvents.targetId, String(r.id))));
    expect(events.map((e) => e.action)).toEqual(['rotation.schedule_added']);
  });

  test('entries may touch but not overlap; the start may not be in the past', async () => {
    const r = await newRotation();
    const url = `/api/rotations/${r.id}/schedules`;
    expect((await t.call(admin, 'POST', url, entry(olivia.id, 10, 20))).statusCode).toBe(201);
    const touching = await t.call(admin, 'POST', url, entry(noah.id, 20, 30));
    expect(touching.statusCode).toBe(201);
    const overlap = await t.call(admin, 'POST', url, entry(noah.id, 15, 25));
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json()).toMatchObject({
      code: 'SCHEDULE_OVERLAP',
      message: 'This schedule entry overlaps another entry of this rotation.',
    });
    const inside = await t.call(admin, 'POST', url, entry(olivia.id, 11, 12));
    expect(inside.statusCode).toBe(409);
    const past = await t.call(admin, 'POST', url, entry(olivia.id, -3, 2));
    expect(past.statusCode).toBe(400);
    expect(past.json().fields).toEqual({ startTime: 'Start time cannot be in the past' });
    // Another rotation's schedule does not count.
    const other = await newRotation();
    const elsewhere = await t.call(
      admin,
      'POST',
      `/api/rotations/${other.id}/schedules`,
      entry(noah.id, 15, 25),
    );
    expect(elsewhere.statusCode).toBe(201);
  });

  test('refuses an end before the start, bad dates, a non-member, a missing rotation and non-admins', async () => {
    const r = await newRotation();
    const url = `/api/rotations/${r.id}/schedules`;
    const backwards = await t.call(admin, 'POST', url, entry(noah.id, 5, 4));
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().fields).toEqual({ endTime: 'End time must be after start time' });
    const badStart = await t.call(admin, 'POST', url, {
      userId: noah.id,
      startTime: 'tomorrow',
      endTime: at(4),
    });
    expect(badStart.json().fields.startTime).toBe('Start time must be a valid date and time');
    const badEnd = await t.call(admin, 'POST', url, {
      userId: noah.id,
      startTime: at(1),
      endTime: '',
    });
    expect(badEnd.json().fields.endTime).toBe('End time must be a valid date and time');
    const stranger = await t.call(admin, 'POST', url, entry(outsider.id, 1, 2));
    expect(stranger.statusCode).toBe(409);
    expect(stranger.json()).toMatchObject({
      code: 'NOT_A_MEMBER',
      fields: { userId: 'The person you chose is not a member of this rotation.' },
    });
    const missing = await t.call(
      admin,
      'POST',
      '/api/rotations/999999/schedules',
      entry(noah.id, 1, 2),
    );
    expect(missing.statusCode).toBe(404);
    expect((await t.call(manager, 'POST', url, entry(noah.id, 1, 2))).statusCode).toBe(403);
    expect((await t.call(olivia, 'POST', url, entry(noah.id, 1, 2))).statusCode).toBe(403);
    const rows = await t.database.db
      .select()
      .from(scheduleEntries)
      .where(eq(scheduleEntries.rotationId, r.id));
    expect(rows).toEqual([]);
  });
});

describe('reading the schedule', () => {
  test('lists entries earliest first, and the current entry or null', async () => {
    const r = await newRotation();
    const url = `/api/rotations/${r.id}/schedules`;
    await t.call(admin, 'POST', url, entry(noah.id, 30, 40));
    await t.call(admin, 'POST', url, entry(olivia.id, 1, 10));
    const list = await t.call(olivia, 'GET', url);
    expect(list.statusCode).toBe(200);
    const entries = list.json() as ScheduleEntry[];
    expect(entries.map((e) => [e.userId, e.startTime])).toEqual([
      [olivia.id, at(1)],
      [noah.id, at(30)],
    ]);
    expect(entries[0].user.name).toBe('Olivia Ortiz');

    const none = await t.call(olivia, 'GET', `${url}/current`);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toBeNull();
    t.clock.set(at(2));
    const current = await t.call(olivia, 'GET', `${url}/current`);
    expect(current.json()).toMatchObject({ userId: olivia.id, user: { name: 'Olivia Ortiz' } });

    expect((await t.call(olivia, 'GET', '/api/rotations/999999/schedules')).statusCode).toBe(404);
    expect(
      (await t.call(olivia, 'GET', '/api/rotations/999999/schedules/current')).statusCode,
    ).toBe(404);
  });
});

describe('deleting schedule entries', () => {
  test('an admin deletes an entry (204, recorded); again is 404; others are refused', async () => {
    const r = await newRotation();
    const created = await t.call(
      admin,
      'POST',
      `/api/rotations/${r.id}/schedules`,
      entry(noah.id, 1, 2),
    );
    const id = created.json().id as number;
    expect((await t.call(manager, 'DELETE', `/api/rotation-schedules/${id}`)).statusCode).toBe(403);
    const res = await t.call(admin, 'DELETE', `/api/rotation-schedules/${id}`);
    expect(res.statusCode).toBe(204);
    expect((await t.call(olivia, 'GET', `/api/rotations/${r.id}/schedules`)).json()).toEqual([]);
    const again = await t.call(admin, 'DELETE', `/api/rotation-schedules/${id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Schedule entry not found');
    expect((await t.call(admin, 'DELETE', '/api/rotation-schedules/abc')).statusCode).toBe(400);
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, 'rotation'), eq(auditEvents.targetId, String(r.id))));
    expect(events.map((e) => e.action)).toEqual([
      'rotation.schedule_added',
      'rotation.schedule_deleted',
    ]);
  });
});
