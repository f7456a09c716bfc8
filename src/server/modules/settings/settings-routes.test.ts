import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { users } from '../../db/schema';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

test('GET /api/user/settings answers the signed-in user’s settings, reminder 30 minutes by default', async () => {
  const user = await t.createUser({ timezone: 'Europe/London', notificationPreference: 'sms' });
  const res = await t.app.inject({
    url: '/api/user/settings',
    headers: { cookie: await t.cookieFor(user) },
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({
    timezone: 'Europe/London',
    handoffReminderMinutes: 30,
    notificationPreference: 'sms',
  });
});

test('PATCH /api/user/settings saves time zone and handoff reminder for the signed-in user only', async () => {
  const user = await t.createUser({ roles: ['incident_manager'] });
  const other = await t.createUser();
  const cookie = await t.cookieFor(user);
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/user/settings',
    headers: { cookie },
    payload: { timezone: 'Asia/Tokyo', handoffReminderMinutes: 1440 },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({
    timezone: 'Asia/Tokyo',
    handoffReminderMinutes: 1440,
    notificationPreference: 'email',
  });
  const [stored] = await t.database.db.select().from(users).where(eq(users.id, user.id));
  expect(stored.timezone).toBe('Asia/Tokyo');
  expect(stored.handoffReminderMinutes).toBe(1440);
  const [untouched] = await t.database.db.select().from(users).where(eq(users.id, other.id));
  expect(untouched.handoffReminderMinutes).toBe(30);
  expect(untouched.timezone).toBe('UTC');

  // One field at a time leaves the others alone.
  const one = await t.app.inject({
    method: 'PATCH',
    url: '/api/user/settings',
    headers: { cookie },
    payload: { handoffReminderMinutes: 15 },
  });
  expect(one.json()).toEqual({
    timezone: 'Asia/Tokyo',
    handoffReminderMinutes: 15,
    notificationPreference: 'email',
  });
  // The signed-in user is read from the database: the new zone shows everywhere.
  const me = await t.app.inject({ url: '/api/auth/user', headers: { cookie } });
  expect(me.json().user).toMatchObject({ timezone: 'Asia/Tokyo' });
});

test.each([
  [
    { handoffReminderMinutes: 45 },
    'handoffReminderMinutes',
    /Handoff reminder must be one of 15, 30, 60, 120, 1440/,
  ],
  [{ handoffReminderMinutes: '30' }, 'handoffReminderMinutes', /Handoff reminder must be one of/],
  [{ timezone: 'Mars/Olympus' }, 'timezone', /Please choose a time zone from the list/],
  // The notification preference is saved through PATCH /api/users/{id}, one way only.
  [{ notificationPreference: 'sms' }, '_', /Unrecognized key/],
  [{}, '_', /Nothing to save/],
  [{ role: 'admin' }, '_', /Unrecognized key/],
])('PATCH /api/user/settings refuses %j with 400', async (payload, field, message) => {
  const user = await t.createUser();
  const res = await t.app.inject({
    method: 'PATCH',
    url: '/api/user/settings',
    headers: { cookie: await t.cookieFor(user) },
    payload,
  });
  expect(res.statusCode).toBe(400);
  expect(res.json().message).toMatch(message);
  expect(Object.keys(res.json().fields)).toContain(field);
});

test('settings need a signed-in user', async () => {
  const get = await t.app.inject({ url: '/api/user/settings' });
  const patch = await t.app.inject({
    method: 'PATCH',
    url: '/api/user/settings',
    payload: { handoffReminderMinutes: 60 },
  });
  expect([get.statusCode, patch.statusCode]).toEqual([401, 401]);
});
