import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { users } from '../../db/schema';

let t: TestApp;
let admin: User;
let olivia: User;
let noah: User;
beforeAll(async () => {
  t = await createTestApp();
  ({ admin, olivia, noah } = await t.cast({
    admin: {},
    olivia: { phone: '+15550100001', notificationPreference: 'both' },
    noah: { phone: null, notificationPreference: 'email' },
  }));
});
afterAll(() => t.close());

const url = (user: { id: number }) => `/api/users/${user.id}/notification-rules`;
const RULES = {
  high: [
    { method: 'sms', delayMinutes: 0 },
    { method: 'email', delayMinutes: 1 },
  ],
  low: [{ method: 'email', delayMinutes: 0 }],
};

const storedRules = async (user: User) =>
  (await t.database.db.select().from(users).where(eq(users.id, user.id)))[0].notificationRules;

describe('a person without rules of their own', () => {
  test('answers the rules their preference means, marked not their own', async () => {
    const res = await t.call(olivia, 'GET', url(olivia));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      high: [
        { method: 'email', delayMinutes: 0 },
        { method: 'sms', delayMinutes: 0 },
      ],
      low: [{ method: 'email', delayMinutes: 0 }],
      own: false,
      // no Twilio in this app: a call rule would be skipped (decision 252)
      voiceReady: false,
    });
  });
});

describe('setting, reading and returning to the preference', () => {
  test('PUT sets one own rules; GET answers them; DELETE returns to the preference', async () => {
    const put = await t.call(olivia, 'PUT', url(olivia), RULES);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({ ...RULES, own: true, voiceReady: false });
    expect(await storedRules(olivia)).toEqual(RULES);

    const read = await t.call(olivia, 'GET', url(olivia));
    expect(read.json()).toEqual({ ...RULES, own: true, voiceReady: false });

    const cleared = await t.call(olivia, 'DELETE', url(olivia));
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().own).toBe(false);
    expect(await storedRules(olivia)).toBeNull();
    expect((await t.call(olivia, 'GET', url(olivia))).json().own).toBe(false);
  });

  test("an administrator sets and clears anyone's", async () => {
    const put = await t.call(admin, 'PUT', url(noah), {
      high: [
        { method: 'push', delayMinutes: 0 },
        { method: 'email', delayMinutes: 2 },
      ],
      low: [{ method: 'email', delayMinutes: 30 }],
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await t.call(noah, 'GET', url(noah))).json().own).toBe(true);
    expect((await t.call(admin, 'DELETE', url(noah))).statusCode).toBe(200);
    expect(await storedRules(noah)).toBeNull();
  });
});

describe('refusals', () => {
  test("someone else's rules are refused to a person who is not an administrator", async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await t.call(noah, method, url(olivia), method === 'PUT' ? RULES : undefined);
      expect(res.statusCode, `${method} ${res.body}`).toBe(403);
    }
    expect(await storedRules(olivia)).toBeNull();
  });

  test('no such person is a 404', async () => {
    expect((await t.call(admin, 'GET', '/api/users/999999/notification-rules')).statusCode).toBe(
      404,
    );
    expect(
      (await t.call(admin, 'PUT', '/api/users/999999/notification-rules', RULES)).statusCode,
    ).toBe(404);
  });

  test.each([
    [{ ...RULES, high: [RULES.high[0], { method: 'pager', delayMinutes: 0 }] }, 'high.1.method'],
    [{ ...RULES, low: [{ method: 'email', delayMinutes: 61 }] }, 'low.0.delayMinutes'],
    [{ ...RULES, low: [{ method: 'email', delayMinutes: 2.5 }] }, 'low.0.delayMinutes'],
    [{ ...RULES, low: [{ method: 'email', delayMinutes: '5' }] }, 'low.0.delayMinutes'],
    [{ high: RULES.high }, 'low'],
    [{ ...RULES, high: [] }, 'high'],
  ])('%j is a 400 naming %s, nothing written', async (body, field) => {
    const res = await t.call(olivia, 'PUT', url(olivia), body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(Object.keys(res.json().fields)).toContain(field);
    expect(await storedRules(olivia)).toBeNull();
  });

  test('SMS or a call without a phone on file is a 400 naming the rule, nothing written', async () => {
    const res = await t.call(noah, 'PUT', url(noah), {
      high: [
        { method: 'email', delayMinutes: 0 },
        { method: 'voice', delayMinutes: 3 },
      ],
      low: [{ method: 'sms', delayMinutes: 0 }],
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: {
        'high.1.method': 'Phone calls need a phone number on the profile',
        'low.0.method': 'SMS needs a phone number on the profile',
      },
    });
    expect(res.json().message).toMatch(/^high\.1\.method: /);
    expect(await storedRules(noah)).toBeNull();
  });
});
