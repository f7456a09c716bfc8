import { asc, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { TimelineEvent } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { notifications, pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { claimDue } from '../notifications/outbox';

/**
 * Personal notification rules at an incident's steps (issue 33, decision 251), through the app:
 * each rule's row due after its delay, the low urgency's rules for a low-urgency page, skipped
 * rules on the timeline, the acknowledgement stopping what waits, and a person without rules
 * paged exactly as their preference has it. PGlite, and PostgreSQL with TEST_DATABASE_URL.
 */

const MINUTE = 60_000;
let t: TestApp;
let manager: User;

beforeAll(async () => {
  t = await createTestApp();
  manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
});
afterAll(() => t.close());

const SMS_THEN_EMAIL = {
  high: [
    { method: 'sms', delayMinutes: 0 },
    { method: 'email', delayMinutes: 1 },
  ],
  low: [
    { method: 'email', delayMinutes: 0 },
    { method: 'sms', delayMinutes: 5 },
  ],
};

/** A person on call alone in a rotation of their own, with the rules given (none: null). */
async function holder(name: string, rules: unknown, extra: Partial<User> = {}) {
  const person = await t.createUser({
    name,
    phone: '+15550100201',
    notificationPreference: 'both',
    ...extra,
  });
  if (rules) {
    const put = await t.call(person, 'PUT', `/api/users/${person.id}/notification-rules`, rules);
    expect(put.statusCode, put.body).toBe(200);
  }
  const rotation = await insertRotation(t.database.db, {
    memberIds: [person.id],
    holderId: person.id,
    createdById: manager.id,
  });
  return { person, rotation };
}

/** Pages the rotation at `urgency`; answers the incident's id. */
async function page(rotationId: number, urgency: 'high' | 'medium' | 'low') {
  const res = await t.call(manager, 'POST', `/api/rotations/${rotationId}/page`, {
    message: 'Checkout is failing',
    urgency,
  });
  expect(res.statusCode, res.body).toBe(201);
  const [row] = await t.database.db
    .select()
    .from(pages)
    .where(eq(pages.rotationId, rotationId))
    .orderBy(desc(pages.id))
    .limit(1);
  return row.id;
}

/** The incident's rows to the person: channel, due after how many minutes, status. */
async function rowsOf(incidentId: number, userId: number) {
  const rows = await t.database.db
    .select()
    .from(notifications)
    .where(eq(notifications.pageId, incidentId))
    .orderBy(asc(notifications.id));
  return rows
    .filter((r) => r.userId === userId)
    .map((r) => ({
      channel: r.channel,
      kind: r.kind,
      dueAfter: (r.nextAttemptAt.getTime() - r.createdAt.getTime()) / MINUTE,
      status: r.status,
    }));
}

const timelineOf = async (incidentId: number): Promise<TimelineEvent[]> =>
  (await t.call(manager, 'GET', `/api/incidents/${incidentId}`)).json().timeline;

describe('a person with rules', () => {
  test('high urgency: the SMS due at once, the email a minute later', async () => {
    const { person, rotation } = await holder('Rae Rules', SMS_THEN_EMAIL);
    const id = await page(rotation.id, 'high');
    expect(await rowsOf(id, person.id)).toEqual([
      { channel: 'sms', kind: 'page', dueAfter: 0, status: 'pending' },
      { channel: 'email', kind: 'page', dueAfter: 1, status: 'pending' },
    ]);
    const emailLine = (await timelineOf(id)).find(
      (e) => e.kind === 'notified' && e.channel === 'email',
    );
    expect(emailLine?.dueAt).toBe(new Date(t.clock.now().getTime() + MINUTE).toISOString());
  });

  test('acknowledging before the minute stops the email: never claimed, marked stopped', async () => {
    const { person, rotation } = await holder('Sol Stops', SMS_THEN_EMAIL);
    const id = await page(rotation.id, 'high');
    t.clock.advance(30_000);
    const ack = await t.call(person, 'POST', `/api/incidents/${id}/acknowledge`, {});
    expect(ack.statusCode, ack.body).toBe(200);
    expect(await rowsOf(id, person.id)).toEqual([
      { channel: 'sms', kind: 'page', dueAfter: 0, status: 'pending' },
      { channel: 'email', kind: 'page', dueAfter: 1, status: 'stopped' },
    ]);
    // Past the minute, a worker claims the SMS and never the stopped email.
    const claimed = await claimDue(
      t.database.db,
      new Date(t.clock.now().getTime() + 5 * MINUTE),
      500,
    );
    const ours = claimed.filter((r) => r.pageId === id && r.userId === person.id);
    expect(ours.map((r) => r.channel)).toEqual(['sms']);
    const stopped = (await timelineOf(id)).find(
      (e) => e.kind === 'notified' && e.channel === 'email',
    );
    expect(stopped).toMatchObject({
      delivery: 'stopped',
      error: 'the incident was acknowledged before it was due',
    });
  });

  test('resolving stops what waits too', async () => {
    const { person, rotation } = await holder('Ros Resolves', SMS_THEN_EMAIL);
    const id = await page(rotation.id, 'high');
    const res = await t.call(manager, 'POST', `/api/incidents/${id}/resolve`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect((await rowsOf(id, person.id)).filter((r) => r.kind === 'page')).toEqual([
      { channel: 'sms', kind: 'page', dueAfter: 0, status: 'pending' },
      { channel: 'email', kind: 'page', dueAfter: 1, status: 'stopped' },
    ]);
  });

  test('a low-urgency page follows the low rules; medium follows high', async () => {
    const { person, rotation } = await holder('Lou Low', SMS_THEN_EMAIL);
    const low = await page(rotation.id, 'low');
    expect(await rowsOf(low, person.id)).toEqual([
      { channel: 'email', kind: 'page', dueAfter: 0, status: 'pending' },
      { channel: 'sms', kind: 'page', dueAfter: 5, status: 'pending' },
    ]);
    await t.call(manager, 'POST', `/api/incidents/${low}/resolve`, {});
    const medium = await page(rotation.id, 'medium');
    expect((await rowsOf(medium, person.id)).map((r) => [r.channel, r.dueAfter])).toEqual([
      ['sms', 0],
      ['email', 1],
    ]);
  });

  test('rules that cannot reach the person are skipped, and the timeline says why', async () => {
    const { person, rotation } = await holder('Cal Calls', {
      high: [
        { method: 'push', delayMinutes: 0 },
        { method: 'sms', delayMinutes: 0 },
        { method: 'voice', delayMinutes: 3 },
      ],
      low: [{ method: 'email', delayMinutes: 0 }],
    });
    const id = await page(rotation.id, 'high');
    expect(await rowsOf(id, person.id)).toEqual([
      { channel: 'sms', kind: 'page', dueAfter: 0, status: 'pending' },
    ]);
    const skipped = (await timelineOf(id)).find((e) => e.kind === 'rules_skipped');
    expect(skipped).toMatchObject({
      to: { id: person.id, name: 'Cal Calls' },
      rules: [
        { method: 'push', delayMinutes: 0, reason: 'No device is set up for push' },
        { method: 'voice', delayMinutes: 3, reason: 'Phone calls are not set up yet' },
      ],
      emailInstead: false,
    });
  });

  test('a person whose rules reach them no way is paged by email at once, and told why', async () => {
    const { person, rotation } = await holder('Pia Push', {
      high: [{ method: 'push', delayMinutes: 0 }],
      low: [{ method: 'email', delayMinutes: 0 }],
    });
    const id = await page(rotation.id, 'high');
    expect(await rowsOf(id, person.id)).toEqual([
      { channel: 'email', kind: 'page', dueAfter: 0, status: 'pending' },
    ]);
    expect((await timelineOf(id)).find((e) => e.kind === 'rules_skipped')).toMatchObject({
      emailInstead: true,
    });
  });
});

describe('a reassignment', () => {
  test('pages the person it goes to by their rules, and resolving stops what waits', async () => {
    const { rotation } = await holder('Hal Holds', null);
    const to = await t.createUser({
      name: 'Ray Reassigned',
      phone: '+15550100202',
      notificationPreference: 'email',
    });
    const put = await t.call(to, 'PUT', `/api/users/${to.id}/notification-rules`, SMS_THEN_EMAIL);
    expect(put.statusCode, put.body).toBe(200);
    const id = await page(rotation.id, 'high');
    const res = await t.call(manager, 'POST', `/api/incidents/${id}/reassign`, { userId: to.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(await rowsOf(id, to.id)).toEqual([
      { channel: 'sms', kind: 'page.escalated', dueAfter: 0, status: 'pending' },
      { channel: 'email', kind: 'page.escalated', dueAfter: 1, status: 'pending' },
    ]);
    await t.call(manager, 'POST', `/api/incidents/${id}/resolve`, {});
    // The resolution's notice follows their preference (email), at once.
    expect((await rowsOf(id, to.id)).map((r) => [r.kind, r.channel, r.status])).toEqual([
      ['page.escalated', 'sms', 'pending'],
      ['page.escalated', 'email', 'stopped'],
      ['page.resolved', 'email', 'pending'],
    ]);
  });
});

describe('a person without rules', () => {
  test('is paged exactly as the preference has it: both at once; low urgency by email', async () => {
    const { person, rotation } = await holder('Pat Plain', null);
    const high = await page(rotation.id, 'high');
    expect(await rowsOf(high, person.id)).toEqual([
      { channel: 'email', kind: 'page', dueAfter: 0, status: 'pending' },
      { channel: 'sms', kind: 'page', dueAfter: 0, status: 'pending' },
    ]);
    const [sms] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.dedupeKey, `page:${high}:sent:${person.id}:sms`));
    expect(sms).toBeDefined();
    await t.call(person, 'POST', `/api/incidents/${high}/acknowledge`, {});
    // Nothing of theirs waited, so nothing stopped.
    expect((await rowsOf(high, person.id)).every((r) => r.status === 'pending')).toBe(true);
    await t.call(manager, 'POST', `/api/incidents/${high}/resolve`, {});
    const low = await page(rotation.id, 'low');
    expect(await rowsOf(low, person.id)).toEqual([
      { channel: 'email', kind: 'page', dueAfter: 0, status: 'pending' },
    ]);
    expect((await timelineOf(low)).some((e) => e.kind === 'rules_skipped')).toBe(false);
  });
});
