import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../tests/setup/test-app';
import type { User } from '../../shared/contracts/users';
import { insertRotation } from '../seed/factories';

/**
 * Routes declare their input as zod schemas (fastify-type-provider-zod, decision 190); a refusal
 * answers in the one error shape, exactly as the handlers' own parsing did before: a path id
 * that is no row id is 400 BAD_REQUEST, a body or query string 400 VALIDATION_FAILED naming the
 * first issue with a message per field. Who may not call a route is refused before its input
 * is read.
 */

let t: TestApp;
let admin: User;
let member: User;
let rotationId: number;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, olivia: member } = await t.cast({ admin: {}, olivia: {} }));
  rotationId = (await insertRotation(t.database.db, { name: 'Schemas' })).id;
});
afterAll(() => t.close());

describe('path ids', () => {
  test.each([
    ['abc', 'id'],
    ['0', 'id'],
    ['2147483648', 'id'],
    ['1.5', 'id'],
  ])('%s in :id answers 400 BAD_REQUEST with the id message, no fields', async (value) => {
    const res = await t.call(admin, 'GET', `/api/rotations/${value}/schedules`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'id must be a whole number from 1 to 2147483647',
      code: 'BAD_REQUEST',
    });
  });

  test('a parameter is named in its message', async () => {
    const res = await t.call(admin, 'DELETE', '/api/rotation-schedules/x');
    expect(res.json()).toEqual({
      message: 'scheduleId must be a whole number from 1 to 2147483647',
      code: 'BAD_REQUEST',
    });
  });
});

describe('bodies', () => {
  test('the first issue is the message, each field keeps its first message', async () => {
    const res = await t.call(admin, 'POST', `/api/rotations/${rotationId}/schedules`, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'userId: Please select a team member',
      code: 'VALIDATION_FAILED',
      fields: {
        userId: 'Please select a team member',
        startTime: 'Start time must be a valid date and time',
        endTime: 'End time must be a valid date and time',
      },
    });
  });

  test('no body at all is an issue of the input as a whole, under "_"', async () => {
    const res = await t.call(admin, 'POST', `/api/rotations/${rotationId}/schedules`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Invalid input: expected object, received undefined',
      code: 'VALIDATION_FAILED',
      fields: { _: 'Invalid input: expected object, received undefined' },
    });
  });

  test('a settings PATCH without a body is an empty change, refused as before', async () => {
    const res = await t.call(member, 'PATCH', '/api/user/settings');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Nothing to save: send timezone or handoffReminderMinutes',
      code: 'VALIDATION_FAILED',
      fields: { _: 'Nothing to save: send timezone or handoffReminderMinutes' },
    });
  });

  test('a path into a list is joined with dots', async () => {
    const res = await t.call(admin, 'PATCH', `/api/rotations/${rotationId}/members/reorder`, {
      members: [{ id: 1, order: -1 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'members.0.order: order must be at least 0',
      code: 'VALIDATION_FAILED',
      fields: { 'members.0.order': 'order must be at least 0' },
    });
  });

  test('a bad path id is answered before a bad body', async () => {
    const res = await t.call(admin, 'POST', '/api/rotations/abc/schedules', {});
    expect(res.json().code).toBe('BAD_REQUEST');
  });
});

describe('query strings', () => {
  test('a query value is refused in the same shape', async () => {
    const res = await t.call(admin, 'GET', '/api/handoffs/recent?limit=0');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'limit: limit must be a whole number from 1',
      code: 'VALIDATION_FAILED',
      fields: { limit: 'limit must be a whole number from 1' },
    });
  });
});

describe('who may call comes before what is sent', () => {
  test('anonymous with a bad id and a bad body: 401', async () => {
    const res = await t.call(null, 'POST', '/api/rotations/abc/schedules', { userId: 'x' });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  test('a member who may not manage schedules, with a bad body: 403', async () => {
    const res = await t.call(member, 'POST', `/api/rotations/${rotationId}/schedules`, {});
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });
});
