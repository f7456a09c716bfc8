import { describe, expect, test } from 'vitest';
import type { EscalationPolicy } from '../../../shared/contracts/escalation-policies';
import {
  create,
  oneStep,
  people,
  rotation,
  setUpEscalationPolicySuite,
  t,
} from './escalation-policy-routes.fixtures';

setUpEscalationPolicySuite();

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
