import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { INTEGRATION_MESSAGES, type Integration } from '../../../shared/contracts/integrations';
import { escalationPolicies, rotations } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import {
  auditOf,
  create,
  list,
  people,
  rotation,
  setUpIntegrationSuite,
  suffix,
  t,
} from './integration-routes.fixtures';

setUpIntegrationSuite();

describe('who may', () => {
  test('viewing: managers, incident managers and administrators all; on-call their rotations’', async () => {
    const mine = await rotation();
    const theirs = await insertRotation(t.database.db, {
      name: `Elsewhere ${suffix()}`,
      memberIds: [people.outsider.id],
      createdById: people.otherManager.id,
    });
    const a = await create(people.manager, { name: 'Mine', rotationId: mine.id });
    const b = await create(people.otherManager, { name: 'Theirs', rotationId: theirs.id });
    for (const user of [people.admin, people.manager, people.otherManager, people.iris]) {
      expect((await list(user)).map((i) => i.name)).toEqual(['Mine', 'Theirs']);
      expect((await t.call(user, 'GET', `/api/integrations/${b.id}`)).statusCode).toBe(200);
    }
    expect((await list(people.olivia)).map((i) => i.name)).toEqual(['Mine']);
    expect((await list(people.outsider)).map((i) => i.name)).toEqual(['Theirs']);
    const refused = await t.call(people.olivia, 'GET', `/api/integrations/${b.id}`);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(INTEGRATION_MESSAGES.mayNotView);
    expect(
      (await t.call(people.olivia, 'GET', `/api/integrations/${b.id}/alerts`)).statusCode,
    ).toBe(403);
    // 404 before 403: a missing integration is missing to everyone.
    expect((await t.call(people.olivia, 'GET', '/api/integrations/999999')).statusCode).toBe(404);
    expect((await t.call(people.olivia, 'GET', `/api/integrations/${a.id}`)).statusCode).toBe(200);
    // canManage: who may change each one
    const byName = (l: Integration[]) => Object.fromEntries(l.map((i) => [i.name, i.canManage]));
    expect(byName(await list(people.manager))).toEqual({ Mine: true, Theirs: false });
    expect(byName(await list(people.admin))).toEqual({ Mine: true, Theirs: true });
    expect(byName(await list(people.iris))).toEqual({ Mine: false, Theirs: false });
    expect(byName(await list(people.olivia))).toEqual({ Mine: false });
  });

  test('managing: administrators any, managers what they manage, nobody else (404 first)', async () => {
    const mine = await rotation();
    const theirs = await insertRotation(t.database.db, {
      name: `Elsewhere ${suffix()}`,
      memberIds: [people.outsider.id],
      createdById: people.otherManager.id,
    });
    const b = await create(people.otherManager, { name: 'Theirs', rotationId: theirs.id });
    const writes = (id: number) =>
      [
        ['PATCH', `/api/integrations/${id}`, { name: 'Renamed' }],
        ['POST', `/api/integrations/${id}/key`, undefined],
        ['DELETE', `/api/integrations/${id}`, undefined],
      ] as const;
    for (const user of [people.manager, people.olivia, people.iris]) {
      for (const [method, url, body] of writes(b.id)) {
        const res = await t.call(user, method, url, body);
        expect(res.statusCode, `${user.name} ${method} ${url}`).toBe(403);
        expect(res.json().message).toBe(INTEGRATION_MESSAGES.mayNotManage);
      }
      const made = await t.call(user, 'POST', '/api/integrations', {
        name: 'Not theirs',
        rotationId: theirs.id,
      });
      expect(made.statusCode).toBe(403);
      expect(made.json().message).toBe(INTEGRATION_MESSAGES.mayNotManage);
    }
    // A manager on a missing integration: 404, not 403.
    for (const [method, url, body] of writes(999_999)) {
      expect((await t.call(people.manager, method, url, body)).statusCode).toBe(404);
    }
    // On-call members and incident managers are refused before anything is looked up.
    expect(
      (await t.call(people.olivia, 'POST', '/api/integrations', { name: 'X' })).statusCode,
    ).toBe(403);
    expect(await auditOf(b.id)).toHaveLength(1);
    // The other manager manages theirs; the administrator manages any; Morgan manages his own.
    expect(
      (await t.call(people.otherManager, 'PATCH', `/api/integrations/${b.id}`, { name: 'Hers' }))
        .statusCode,
    ).toBe(200);
    expect((await t.call(people.admin, 'POST', `/api/integrations/${b.id}/key`)).statusCode).toBe(
      200,
    );
    await create(people.manager, { name: 'His', rotationId: mine.id });
  });

  test('a policy’s integration: its followers’ members view it; a manager of every follower manages it', async () => {
    const mine = await rotation();
    const theirs = await insertRotation(t.database.db, {
      name: `Elsewhere ${suffix()}`,
      memberIds: [people.outsider.id],
      createdById: people.otherManager.id,
    });
    const [policy] = await t.database.db
      .select()
      .from(escalationPolicies)
      .where(eq(escalationPolicies.id, mine.escalationPolicyId as number));
    const created = await create(people.manager, {
      name: 'On policy',
      escalationPolicyId: policy.id,
    });
    expect((await t.call(people.olivia, 'GET', `/api/integrations/${created.id}`)).statusCode).toBe(
      200,
    );
    expect(
      (await t.call(people.outsider, 'GET', `/api/integrations/${created.id}`)).statusCode,
    ).toBe(403);
    // Once another team's rotation follows the policy too, Morgan alone no longer manages it.
    await t.database.db
      .update(rotations)
      .set({ escalationPolicyId: policy.id })
      .where(eq(rotations.id, theirs.id));
    expect(
      (await t.call(people.outsider, 'GET', `/api/integrations/${created.id}`)).statusCode,
    ).toBe(200);
    const refused = await t.call(people.manager, 'PATCH', `/api/integrations/${created.id}`, {
      name: 'Renamed',
    });
    expect(refused.statusCode).toBe(403);
  });

  test('anonymous: 401', async () => {
    expect((await t.call(null, 'GET', '/api/integrations')).statusCode).toBe(401);
    expect((await t.call(null, 'POST', '/api/integrations', {})).statusCode).toBe(401);
  });
});
