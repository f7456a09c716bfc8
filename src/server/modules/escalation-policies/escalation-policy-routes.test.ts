import { asc, eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { RotationSchema } from '../../../shared/contracts/rotations';
import { defaultEscalationPolicy } from '../../../shared/domain/escalation';
import { auditEvents, escalationPolicies, rotations } from '../../db/schema';
import {
  create,
  oneStep,
  people,
  rotation,
  setUpEscalationPolicySuite,
  t,
} from './escalation-policy-routes.fixtures';

/**
 * The escalation policy API (issue 16, decision 202): storage, validation that writes nothing,
 * the in-use refusal, the rotation's policy and the audit trail. Who may read and change which
 * policy is in escalation-policy-access-routes.test.ts, the preview that resolves each step now
 * in escalation-policy-preview-routes.test.ts.
 */
setUpEscalationPolicySuite();

async function policyCount() {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(escalationPolicies);
  return Number(row.n);
}

describe('storing a policy', () => {
  test('POST stores the policy as parsed (defaults filled), answers 201, GET reads it back, the trail records it', async () => {
    const platform = await rotation({ name: 'Platform', memberIds: [people.priya.id] });
    const created = await create(people.manager, {
      name: '  Platform nights  ',
      repeat: 1,
      steps: [
        oneStep([{ type: 'rotation-holder', id: platform.id }], 10),
        {
          delayMinutes: 20,
          targets: [
            { type: 'rotation-members', id: platform.id },
            { type: 'user', id: people.manager.id },
          ],
          assignment: 'round-robin',
          activeHours: [{ daysOfWeek: [0, 6], startTime: '00:00', endTime: '00:00' }],
        },
      ],
    });
    expect(created).toMatchObject({
      name: 'Platform nights',
      repeat: 1,
      rotations: [],
      steps: [
        {
          delayMinutes: 10,
          targets: [{ type: 'rotation-holder', id: platform.id }],
          assignment: 'everyone',
          activeHours: null,
        },
        { delayMinutes: 20, assignment: 'round-robin' },
      ],
    });
    const read = await t.call(people.manager, 'GET', `/api/escalation-policies/${created.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(created);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'escalation_policy.created'))
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    expect(event).toMatchObject({
      actorUserId: people.manager.id,
      targetType: 'escalation_policy',
      targetId: String(created.id),
      details: { name: 'Platform nights', steps: 2, repeat: 1 },
    });
  });

  test.each([
    ['no steps', { name: 'P', repeat: 0, steps: [] }, 'steps', 'Add at least one step'],
    [
      'a delay of 0',
      { name: 'P', repeat: 0, steps: [{ delayMinutes: 0, targets: [{ type: 'user', id: 1 }] }] },
      'steps.0.delayMinutes',
      'A delay must be at least 1 minute',
    ],
    [
      'an unknown target type',
      { name: 'P', repeat: 0, steps: [{ delayMinutes: 5, targets: [{ type: 'team', id: 1 }] }] },
      'steps.0.targets.0.type',
      'Unknown target type "team"',
    ],
    [
      'a repeat of 10',
      { name: 'P', repeat: 10, steps: [{ delayMinutes: 5, targets: [{ type: 'user', id: 1 }] }] },
      'repeat',
      'Repeat must be a whole number from 0 to 9',
    ],
  ])('%s: 400 naming the field, nothing written', async (_, body, field, message) => {
    const before = await policyCount();
    const res = await t.call(people.admin, 'POST', '/api/escalation-policies', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().fields[field]).toContain(message);
    expect(await policyCount()).toBe(before);
  });

  test('an unknown rotation or person: 400 naming the target, nothing written', async () => {
    const real = await rotation({ name: 'Real one' });
    const before = await policyCount();
    const res = await t.call(people.admin, 'POST', '/api/escalation-policies', {
      name: 'Ghosts',
      repeat: 0,
      steps: [
        oneStep([{ type: 'rotation-holder', id: real.id }]),
        oneStep([
          { type: 'user', id: people.noah.id },
          { type: 'rotation-next', id: 999_999 },
        ]),
        oneStep([{ type: 'user', id: 888_888 }]),
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'steps.1.targets.1.id: Rotation 999999 does not exist',
      fields: {
        'steps.1.targets.1.id': 'Rotation 999999 does not exist',
        'steps.2.targets.0.id': 'Person 888888 does not exist',
      },
    });
    expect(await policyCount()).toBe(before);
  });

  test('PATCH changes what it names; an unknown target is refused and the policy stays as it was', async () => {
    const created = await create(people.admin, {
      name: 'To change',
      repeat: 0,
      steps: [oneStep([{ type: 'user', id: people.noah.id }])],
    });
    const renamed = await t.call(people.admin, 'PATCH', `/api/escalation-policies/${created.id}`, {
      name: 'Changed',
      repeat: 2,
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Changed', repeat: 2, steps: created.steps });
    const refused = await t.call(people.admin, 'PATCH', `/api/escalation-policies/${created.id}`, {
      name: 'Not this',
      steps: [oneStep([{ type: 'rotation-members', id: 999_998 }])],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields['steps.0.targets.0.id']).toBe('Rotation 999998 does not exist');
    const read = await t.call(people.admin, 'GET', `/api/escalation-policies/${created.id}`);
    expect(read.json()).toMatchObject({ name: 'Changed', repeat: 2, steps: created.steps });
    const noSteps = await t.call(people.admin, 'PATCH', `/api/escalation-policies/${created.id}`, {
      steps: [],
    });
    expect(noSteps.statusCode).toBe(400);
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(created.id)))
      .orderBy(asc(auditEvents.id));
    expect(events.filter((e) => e.targetType === 'escalation_policy').map((e) => e.action)).toEqual(
      ['escalation_policy.created', 'escalation_policy.updated'],
    );
    expect(events.at(-1)?.details).toEqual({ name: 'Changed', fields: ['name', 'repeat'] });
    // The same steps sent again (in the client's key order) change nothing and record nothing.
    const same = await t.call(people.admin, 'PATCH', `/api/escalation-policies/${created.id}`, {
      steps: [{ targets: [{ id: people.noah.id, type: 'user' }], delayMinutes: 5 }],
    });
    expect(same.statusCode).toBe(200);
    const after = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.targetId, String(created.id)));
    expect(after.filter((e) => e.targetType === 'escalation_policy')).toHaveLength(2);
  });

  test('a missing policy is 404 for every call', async () => {
    for (const [method, url] of [
      ['GET', '/api/escalation-policies/999999'],
      ['PATCH', '/api/escalation-policies/999999'],
      ['DELETE', '/api/escalation-policies/999999'],
      ['GET', '/api/escalation-policies/999999/preview'],
    ] as const) {
      const res = await t.call(people.admin, method, url, method === 'PATCH' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().message).toBe('Escalation policy not found');
    }
  });
});

describe('rotations and their policies', () => {
  test('a new rotation gets its own default policy in the same transaction, and names it', async () => {
    const res = await t.call(people.manager, 'POST', '/api/rotations', {
      name: 'Payments',
      type: 'fixed',
    });
    expect(res.statusCode).toBe(201);
    const made = RotationSchema.parse(res.json());
    const policy = await t.call(
      people.manager,
      'GET',
      `/api/escalation-policies/${made.escalationPolicyId}`,
    );
    expect(policy.statusCode).toBe(200);
    expect(policy.json()).toEqual({
      id: made.escalationPolicyId,
      ...defaultEscalationPolicy({ id: made.id, name: 'Payments' }),
      rotations: [{ id: made.id, name: 'Payments' }],
    });
    // The factory (tests, the demo) gives one as well.
    const seeded = await rotation({ name: 'Seeded' });
    const [row] = await t.database.db
      .select()
      .from(escalationPolicies)
      .where(eq(escalationPolicies.id, seeded.escalationPolicyId));
    expect(row.steps).toEqual(defaultEscalationPolicy(seeded).steps);
  });

  test('PATCH /api/rotations/{id} sets escalationPolicyId (which must exist) and keeps its other fields', async () => {
    const team = await rotation({ name: 'Shared A', createdById: people.manager.id });
    const shared = await create(people.manager, {
      name: 'Shared',
      repeat: 0,
      steps: [oneStep([{ type: 'rotation-holder', id: team.id }])],
    });
    const res = await t.call(people.manager, 'PATCH', `/api/rotations/${team.id}`, {
      escalationPolicyId: shared.id,
      description: 'Now shared',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ escalationPolicyId: shared.id, description: 'Now shared' });
    const missing = await t.call(people.manager, 'PATCH', `/api/rotations/${team.id}`, {
      escalationPolicyId: 999_999,
      name: 'Not renamed',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { escalationPolicyId: 'That escalation policy does not exist' },
    });
    const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, team.id));
    expect(row).toMatchObject({ name: 'Shared A', escalationPolicyId: shared.id });
    const bad = await t.call(people.manager, 'PATCH', `/api/rotations/${team.id}`, {
      escalationPolicyId: 'one',
    });
    expect(bad.statusCode).toBe(400);
  });

  test('a policy in use cannot be deleted: 409 naming every rotation that uses it; unused, it goes', async () => {
    const a = await rotation({ name: 'Alpha team' });
    const b = await rotation({ name: 'Beta team' });
    const shared = await create(people.admin, {
      name: 'Used twice',
      repeat: 0,
      steps: [oneStep([{ type: 'rotation-holder', id: a.id }])],
    });
    for (const r of [a, b]) {
      const res = await t.call(people.admin, 'PATCH', `/api/rotations/${r.id}`, {
        escalationPolicyId: shared.id,
      });
      expect(res.statusCode).toBe(200);
    }
    const refused = await t.call(people.admin, 'DELETE', `/api/escalation-policies/${shared.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'ESCALATION_POLICY_IN_USE',
      message:
        'This policy is used by Alpha team, Beta team; give those rotations another policy first.',
    });
    expect(
      await t.call(people.admin, 'GET', `/api/escalation-policies/${shared.id}`),
    ).toMatchObject({
      statusCode: 200,
    });
    // A's own default policy is unused now: it can go, and the trail says so.
    const gone = await t.call(
      people.admin,
      'DELETE',
      `/api/escalation-policies/${a.escalationPolicyId}`,
    );
    expect(gone.statusCode).toBe(204);
    expect(
      (await t.call(people.admin, 'GET', `/api/escalation-policies/${a.escalationPolicyId}`))
        .statusCode,
    ).toBe(404);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'escalation_policy.deleted'))
      .orderBy(sql`${auditEvents.id} desc`)
      .limit(1);
    expect(event).toMatchObject({
      targetId: String(a.escalationPolicyId),
      details: { name: 'Alpha team (default)' },
    });
  });
});

test('a deletion racing an assignment ends in one clear answer each, never a 5xx', async () => {
  for (let i = 0; i < 8; i++) {
    const team = await rotation({ name: `Racing ${i}` });
    const spare = await create(people.admin, {
      name: `Spare ${i}`,
      repeat: 0,
      steps: [oneStep([{ type: 'rotation-holder', id: team.id }])],
    });
    const [deleted, assigned] = await Promise.all([
      t.call(people.admin, 'DELETE', `/api/escalation-policies/${spare.id}`),
      t.call(people.admin, 'PATCH', `/api/rotations/${team.id}`, { escalationPolicyId: spare.id }),
    ]);
    const [row] = await t.database.db.select().from(rotations).where(eq(rotations.id, team.id));
    if (deleted.statusCode === 204) {
      expect(assigned.statusCode, assigned.body).toBe(400);
      expect(row.escalationPolicyId).toBe(team.escalationPolicyId);
    } else {
      expect(deleted.statusCode, deleted.body).toBe(409);
      expect(assigned.statusCode, assigned.body).toBe(200);
      expect(row.escalationPolicyId).toBe(spare.id);
    }
  }
});
