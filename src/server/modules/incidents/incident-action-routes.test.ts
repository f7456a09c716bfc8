import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import { INCIDENT_MESSAGES } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import { PAGE_MESSAGES } from '../../../shared/domain/paging';
import { auditEvents, notifications, pages } from '../../db/schema';
import { insertRotation } from '../../seed/factories';

/**
 * The incident action routes (decision 204) through the app: the contract's refusals of bad
 * input, and 404 before 403 before the incident's state. (Their answers on success are the
 * incident reads', written separately; the services' effects are incident-engine.test.ts's.)
 */

let t: TestApp;
const people = {} as Record<'manager' | 'holder' | 'stranger', User>;

beforeAll(async () => {
  t = await createTestApp();
  people.manager = await t.createUser({ name: 'Mo Manager', roles: ['manager'] });
  people.holder = await t.createUser({ name: 'Hal Holder' });
  people.stranger = await t.createUser({ name: 'Stan Stranger' });
});
afterAll(() => t.close());

async function paged() {
  const rotation = await insertRotation(t.database.db, {
    memberIds: [people.holder.id],
    holderId: people.holder.id,
    createdById: people.manager.id,
  });
  const res = await t.call(people.manager, 'POST', `/api/rotations/${rotation.id}/page`, {
    message: 'Disk almost full',
  });
  expect(res.statusCode, res.body).toBe(201);
  expect(res.json()).toEqual({ sentTo: { name: 'Hal Holder' } });
  const [row] = await t.database.db.select().from(pages).where(eq(pages.rotationId, rotation.id));
  return { rotation, row };
}

describe('raising', () => {
  test('the rotation or the policy, exactly one; a title', async () => {
    const neither = await t.call(people.manager, 'POST', '/api/incidents', { title: 'Down' });
    expect(neither.statusCode).toBe(400);
    expect(neither.json().fields).toEqual({ rotationId: INCIDENT_MESSAGES.where });
    const both = await t.call(people.manager, 'POST', '/api/incidents', {
      title: 'Down',
      rotationId: 1,
      escalationPolicyId: 1,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().fields).toEqual({ escalationPolicyId: INCIDENT_MESSAGES.both });
    const untitled = await t.call(people.manager, 'POST', '/api/incidents', {
      title: ' ',
      rotationId: 1,
    });
    expect(untitled.statusCode).toBe(400);
    expect(untitled.json().fields).toEqual({ title: INCIDENT_MESSAGES.titleRequired });
  });

  test('404 for a rotation that does not exist; 403 for one the caller may not page', async () => {
    expect(
      (
        await t.call(people.manager, 'POST', '/api/incidents', {
          title: 'Down',
          rotationId: 999_999,
        })
      ).statusCode,
    ).toBe(404);
    const { rotation } = await paged();
    const refused = await t.call(people.stranger, 'POST', '/api/incidents', {
      title: 'Down',
      rotationId: rotation.id,
    });
    expect([refused.statusCode, refused.json().message]).toEqual([
      403,
      INCIDENT_MESSAGES.mayNotRaise,
    ]);
  });
});

describe('acting on an incident', () => {
  test('404 before 403 before the state', async () => {
    const { row } = await paged();
    for (const action of ['acknowledge', 'resolve']) {
      expect(
        (await t.call(people.stranger, 'POST', `/api/incidents/999999/${action}`, {})).statusCode,
      ).toBe(404);
      const refused = await t.call(
        people.stranger,
        'POST',
        `/api/incidents/${row.id}/${action}`,
        {},
      );
      expect([refused.statusCode, refused.json().message]).toEqual([
        403,
        INCIDENT_MESSAGES.mayNotAct,
      ]);
    }
    const escalate = await t.call(people.stranger, 'POST', `/api/incidents/${row.id}/escalate`, {
      reason: 'Nobody answers',
    });
    expect(escalate.statusCode).toBe(403);
    const reassign = await t.call(people.stranger, 'POST', `/api/incidents/${row.id}/reassign`, {
      userId: people.stranger.id,
    });
    expect(reassign.statusCode).toBe(403);
    // The page was acknowledged first (Page API): escalating the incident is a 409 with its words.
    const ack = await t.call(people.holder, 'POST', `/api/pages/${row.id}/acknowledge`, {});
    expect(ack.statusCode, ack.body).toBe(200);
    const late = await t.call(people.manager, 'POST', `/api/incidents/${row.id}/escalate`, {
      reason: 'Nobody answers',
    });
    expect([late.statusCode, late.json().message]).toEqual([
      409,
      INCIDENT_MESSAGES.escalateAcknowledged,
    ]);
    const again = await t.call(people.manager, 'POST', `/api/incidents/${row.id}/acknowledge`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(
      /^This incident was already acknowledged by Hal Holder at /,
    );
  });

  test('bad input is a 400 with the contract’s words', async () => {
    const { row } = await paged();
    const noReason = await t.call(people.manager, 'POST', `/api/incidents/${row.id}/escalate`, {
      reason: '',
    });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().fields).toEqual({ reason: 'Please enter a reason' });
    const stepZero = await t.call(people.manager, 'POST', `/api/incidents/${row.id}/escalate`, {
      reason: 'x',
      toStep: 0,
    });
    expect(stepZero.statusCode).toBe(400);
    const noPerson = await t.call(people.manager, 'POST', `/api/incidents/${row.id}/reassign`, {});
    expect(noPerson.statusCode).toBe(400);
  });
});

describe('one step per decision (decision 236)', () => {
  const escalations = (id: number) =>
    t.database.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.targetId, String(id)), eq(auditEvents.action, 'incident.escalated')),
      );
  const stepOf = async (id: number) =>
    (await t.database.db.select().from(pages).where(eq(pages.id, id)))[0].stepIndex + 1;
  const sent = async (id: number) =>
    (await t.database.db.select().from(notifications).where(eq(notifications.pageId, id))).length;

  test('two escalations from step 1 at once leave the incident at step 2; a replay is a 409 that changes nothing', async () => {
    const { row } = await paged();
    const body = { reason: 'Nobody answers', fromStep: 1 };
    const url = `/api/incidents/${row.id}/escalate`;
    const both = await Promise.all([
      t.call(people.manager, 'POST', url, body),
      t.call(people.holder, 'POST', url, body),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const refused = both.find((r) => r.statusCode === 409);
    expect(refused?.json()).toEqual({
      message: INCIDENT_MESSAGES.alreadyMoved(2),
      code: 'INCIDENT_ALREADY_ESCALATED',
    });
    expect(await stepOf(row.id)).toBe(2);
    expect(await escalations(row.id)).toHaveLength(1);
    const before = await sent(row.id);
    const replay = await t.call(people.manager, 'POST', url, body);
    expect([replay.statusCode, replay.json().code]).toEqual([409, 'INCIDENT_ALREADY_ESCALATED']);
    expect(await stepOf(row.id)).toBe(2);
    expect(await escalations(row.id)).toHaveLength(1);
    expect(await sent(row.id)).toBe(before);
    // The step the incident shows now escalates it; a client that sends no step still can.
    const fromTwo = await t.call(people.manager, 'POST', url, {
      reason: 'Still nobody',
      fromStep: 2,
    });
    expect(fromTwo.statusCode, fromTwo.body).toBe(200);
    expect(fromTwo.json().currentStep).toBe(3);
  });

  test('the Page API: two escalations from the step the page showed move it once', async () => {
    const rotation = await insertRotation(t.database.db, {
      memberIds: [people.holder.id, people.stranger.id],
      holderId: people.holder.id,
      createdById: people.manager.id,
    });
    const res = await t.call(people.manager, 'POST', `/api/rotations/${rotation.id}/page`, {
      message: 'Queue backing up',
    });
    expect(res.statusCode, res.body).toBe(201);
    const [row] = await t.database.db.select().from(pages).where(eq(pages.rotationId, rotation.id));
    const listed = await t.app.inject({
      url: `/api/rotations/${rotation.id}/pages`,
      headers: { cookie: await t.cookieFor(people.manager) },
    });
    expect(listed.json()[0].step).toBe(1);
    const url = `/api/pages/${row.id}/escalate`;
    const body = { reason: 'Holder is on a flight', fromStep: 1 };
    // The manager's double press (the holder may escalate only while the page is with them).
    const both = await Promise.all([
      t.call(people.manager, 'POST', url, body),
      t.call(people.manager, 'POST', url, body),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const moved = both.find((r) => r.statusCode === 200)?.json();
    // The Page API's "next person": past the default policy's reminder, to step 3.
    expect(moved).toMatchObject({ step: 3, target: { name: 'Stan Stranger' } });
    expect(both.find((r) => r.statusCode === 409)?.json()).toEqual({
      message: PAGE_MESSAGES.alreadyMoved(3),
      code: 'INCIDENT_ALREADY_ESCALATED',
    });
    expect(await escalations(row.id)).toHaveLength(1);
    expect(await stepOf(row.id)).toBe(3);
  });

  test('fromStep is a step number', async () => {
    const { row } = await paged();
    for (const fromStep of [0, 1.5, '1']) {
      const res = await t.call(people.manager, 'POST', `/api/incidents/${row.id}/escalate`, {
        reason: 'x',
        fromStep,
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['fromStep']);
    }
    expect(await stepOf(row.id)).toBe(1);
  });
});
