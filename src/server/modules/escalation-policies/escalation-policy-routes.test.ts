import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import {
  type EscalationPolicy,
  EscalationPolicySchema,
  EscalationPreviewSchema,
} from '../../../shared/contracts/escalation-policies';
import { RotationSchema } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { defaultEscalationPolicy } from '../../../shared/domain/escalation';
import { auditEvents, escalationPolicies, rotations } from '../../db/schema';
import { insertRotation, type RotationSeed } from '../../seed/factories';

/**
 * The escalation policy API (issue 16, decision 202): storage, validation that writes nothing,
 * who may read and change which policy, the in-use refusal, the rotation's policy, the audit
 * trail, and the preview that resolves each step now.
 */

let t: TestApp;
let statements = 0;
let counting = false;
const people = {} as Record<
  'admin' | 'manager' | 'otherManager' | 'priya' | 'noah' | 'sam' | 'iris' | 'outsider',
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
      manager: {},
      otherManager: {},
      priya: {
        name: 'Priya Shah',
        roles: ['on-call'],
        phone: '+15551234567',
        notificationPreference: 'both',
      },
      noah: {},
      sam: {},
      iris: {},
      outsider: {},
    }),
  );
});
afterAll(() => t.close());
beforeEach(() => {
  t.clock.set('2026-11-02T12:00:00Z');
});

function rotation(seed: RotationSeed = {}) {
  return insertRotation(t.database.db, { now: t.clock.now(), ...seed });
}

async function policyCount() {
  const [row] = await t.database.db
    .select({ n: sql<number>`count(*)::int` })
    .from(escalationPolicies);
  return Number(row.n);
}

const oneStep = (targets: { type: string; id: number }[], delayMinutes = 5) => ({
  delayMinutes,
  targets,
});

async function create(user: User, body: unknown) {
  const res = await t.call(user, 'POST', '/api/escalation-policies', body);
  expect(res.statusCode, res.body).toBe(201);
  return EscalationPolicySchema.parse(res.json());
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

describe('who may read and change which policy', () => {
  test('on-call members read their rotations’ policies only; incident managers and managers read all', async () => {
    const mine = await rotation({ name: 'Noah’s', memberIds: [people.noah.id] });
    const theirs = await rotation({ name: 'Not Noah’s', memberIds: [people.sam.id] });
    const url = (r: { escalationPolicyId: number }) =>
      `/api/escalation-policies/${r.escalationPolicyId}`;
    expect((await t.call(people.noah, 'GET', url(mine))).statusCode).toBe(200);
    expect((await t.call(people.noah, 'GET', `${url(mine)}/preview`)).statusCode).toBe(200);
    const denied = await t.call(people.noah, 'GET', url(theirs));
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(
      'You can only view the escalation policies of your rotations.',
    );
    expect((await t.call(people.noah, 'GET', `${url(theirs)}/preview`)).statusCode).toBe(403);
    const list = await t.call(people.noah, 'GET', '/api/escalation-policies');
    const listed = (list.json() as EscalationPolicy[]).map((p) => p.id);
    expect(listed).toContain(mine.escalationPolicyId);
    expect(listed).not.toContain(theirs.escalationPolicyId);
    for (const reader of [people.iris, people.otherManager, people.admin]) {
      expect((await t.call(reader, 'GET', url(theirs))).statusCode).toBe(200);
      const all = (await t.call(reader, 'GET', '/api/escalation-policies')).json() as {
        id: number;
      }[];
      expect(all.map((p) => p.id)).toEqual(
        expect.arrayContaining([mine.escalationPolicyId, theirs.escalationPolicyId]),
      );
    }
    // Incident managers and on-call members change nothing.
    for (const user of [people.iris, people.noah]) {
      const res = await t.call(user, 'PATCH', url(mine), { name: 'Mine now' });
      expect(res.statusCode).toBe(403);
    }
  });

  test('a manager edits the policy of rotations they manage, not one another team follows too', async () => {
    const managed = await rotation({ name: 'Managed', createdById: people.manager.id });
    const asMember = await rotation({ name: 'As member', memberIds: [people.manager.id] });
    const other = await rotation({ name: 'Other team', createdById: people.otherManager.id });
    for (const r of [managed, asMember]) {
      const res = await t.call(
        people.manager,
        'PATCH',
        `/api/escalation-policies/${r.escalationPolicyId}`,
        {
          repeat: 1,
        },
      );
      expect(res.statusCode, res.body).toBe(200);
    }
    const refused = await t.call(
      people.manager,
      'PATCH',
      `/api/escalation-policies/${other.escalationPolicyId}`,
      { repeat: 1 },
    );
    expect(refused.statusCode).toBe(403);
    // Shared with a rotation they do not manage: no longer theirs alone.
    await t.call(people.admin, 'PATCH', `/api/rotations/${other.id}`, {
      escalationPolicyId: managed.escalationPolicyId,
    });
    const shared = await t.call(
      people.manager,
      'PATCH',
      `/api/escalation-policies/${managed.escalationPolicyId}`,
      { repeat: 2 },
    );
    expect(shared.statusCode).toBe(403);
    expect(
      (
        await t.call(
          people.admin,
          'PATCH',
          `/api/escalation-policies/${managed.escalationPolicyId}`,
          {
            repeat: 2,
          },
        )
      ).statusCode,
    ).toBe(200);
    // An unused policy is its creator's: another manager may not delete it.
    const own = await create(people.manager, {
      name: 'Spare',
      repeat: 0,
      steps: [oneStep([{ type: 'user', id: people.noah.id }])],
    });
    expect(
      (await t.call(people.otherManager, 'DELETE', `/api/escalation-policies/${own.id}`))
        .statusCode,
    ).toBe(403);
    expect(
      (await t.call(people.manager, 'DELETE', `/api/escalation-policies/${own.id}`)).statusCode,
    ).toBe(204);
  });
});

describe('the preview', () => {
  test('each step resolves now: people by reason with their channels, skips with their reasons', async () => {
    const platform = await rotation({
      name: 'Preview platform',
      memberIds: [people.priya.id, people.noah.id, people.sam.id],
      holderId: people.priya.id,
      timeZone: 'Europe/Berlin',
    });
    const quiet = await rotation({
      name: 'Preview quiet',
      suspended: true,
      memberIds: [people.sam.id],
    });
    const policy = await create(people.admin, {
      name: 'Preview',
      repeat: 0,
      steps: [
        oneStep([
          { type: 'rotation-holder', id: platform.id },
          { type: 'rotation-members', id: platform.id },
        ]),
        oneStep([{ type: 'rotation-next', id: platform.id }]),
        oneStep([
          { type: 'rotation-holder', id: quiet.id },
          { type: 'rotation-backup', id: platform.id },
        ]),
        {
          delayMinutes: 5,
          targets: [{ type: 'user', id: people.manager.id }],
          // Nights only, Berlin time: 12:00 UTC is 13:00 there.
          activeHours: [
            { daysOfWeek: [0, 1, 2, 3, 4, 5, 6], startTime: '22:00', endTime: '07:00' },
          ],
        },
      ],
    });
    await t.call(people.admin, 'PATCH', `/api/rotations/${platform.id}`, {
      escalationPolicyId: policy.id,
    });
    const res = await t.call(people.noah, 'GET', `/api/escalation-policies/${policy.id}/preview`);
    expect(res.statusCode, res.body).toBe(200);
    const preview = EscalationPreviewSchema.parse(res.json());
    expect(preview).toMatchObject({
      policyId: policy.id,
      at: '2026-11-02T12:00:00.000Z',
      timeZone: 'Europe/Berlin',
    });
    expect(preview.steps[0]).toMatchObject({
      status: 'notify',
      skipReason: null,
      recipients: [
        {
          userId: people.priya.id,
          name: 'Priya Shah',
          reasons: ['holder', 'member'],
          channels: ['email', 'sms'],
        },
        { userId: people.noah.id, name: 'Noah Nakamura', reasons: ['member'], channels: ['email'] },
        { userId: people.sam.id, name: 'Sam Sullivan', reasons: ['member'], channels: ['email'] },
      ],
      skipped: [],
    });
    expect(preview.steps[1]).toMatchObject({
      status: 'notify',
      recipients: [{ userId: people.noah.id, reasons: ['next on call'] }],
    });
    expect(preview.steps[2]).toMatchObject({
      status: 'skip',
      skipReason: 'nobody to notify',
      recipients: [],
      skipped: [
        {
          target: { type: 'rotation-holder', id: quiet.id },
          reason: 'rotation suspended',
          userId: null,
        },
        {
          target: { type: 'rotation-backup', id: platform.id },
          reason: 'nobody to notify',
          userId: null,
        },
      ],
    });
    expect(preview.steps[3]).toMatchObject({
      status: 'skip',
      skipReason: 'outside the step hours',
    });
    // 23:00 in Berlin the night step reaches the manager.
    t.clock.set('2026-11-02T22:00:00Z');
    const night = EscalationPreviewSchema.parse(
      (await t.call(people.admin, 'GET', `/api/escalation-policies/${policy.id}/preview`)).json(),
    );
    expect(night.steps[3]).toMatchObject({
      status: 'notify',
      recipients: [{ userId: people.manager.id, reasons: ['named'] }],
    });
  });

  test('the preview and the list run the same number of statements for one target and for twenty', async () => {
    const members = [people.priya.id, people.noah.id, people.sam.id];
    const count = async (url: string) => {
      statements = 0;
      counting = true;
      const res = await t.call(people.admin, 'GET', url);
      counting = false;
      expect(res.statusCode).toBe(200);
      return statements;
    };
    const small = await rotation({ name: 'Small', memberIds: members, holderId: people.priya.id });
    const one = await create(people.admin, {
      name: 'One target',
      repeat: 0,
      steps: [oneStep([{ type: 'rotation-members', id: small.id }])],
    });
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        rotation({ name: `Many ${i}`, memberIds: members, holderId: people.noah.id }),
      ),
    );
    const twenty = await create(people.admin, {
      name: 'Twenty targets',
      repeat: 0,
      steps: [
        oneStep(many.map((r) => ({ type: 'rotation-members', id: r.id }))),
        oneStep(many.map((r) => ({ type: 'rotation-next', id: r.id }))),
      ],
    });
    // Both in use, so both read the members of the rotations that follow them.
    await t.call(people.admin, 'PATCH', `/api/rotations/${small.id}`, {
      escalationPolicyId: one.id,
    });
    await t.call(people.admin, 'PATCH', `/api/rotations/${many[0].id}`, {
      escalationPolicyId: twenty.id,
    });
    // A first read after a write looks the session up; the reads compared come after it.
    await count(`/api/escalation-policies/${one.id}/preview`);
    const first = await count(`/api/escalation-policies/${one.id}/preview`);
    expect(await count(`/api/escalation-policies/${twenty.id}/preview`)).toBe(first);
    const listBefore = await count('/api/escalation-policies');
    await Promise.all(Array.from({ length: 5 }, (_, i) => rotation({ name: `More ${i}` })));
    await count('/api/escalation-policies');
    expect(await count('/api/escalation-policies')).toBe(listBefore);
  });
});
