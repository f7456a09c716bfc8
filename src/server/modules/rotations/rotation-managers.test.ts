import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from '../../../../tests/setup/test-app';
import type { User } from '../../../shared/contracts/users';
import { NOT_MANAGED_MESSAGE } from '../../../shared/domain/permissions-rotation';
import {
  escalationPolicies,
  integrations,
  notifications,
  rotationMembers,
  rotations,
} from '../../db/schema';
import { insertIntegration, insertRotation } from '../../seed/factories';
import { decryptContent } from '../notifications/outbox';

/**
 * Issue 30: managers act only on the rotations they manage (decision 233). A manager cannot make
 * a rotation theirs by adding themselves to it, so another team's integration, key and policy
 * stay out of reach; when an administrator who does not manage a rotation changes its policy or
 * its members, its managers are told by email, naming who changed what: the changes within a
 * digest window in one email each (decision 262).
 */

const PUBLIC_URL = 'https://baton.example.test';

let t: TestApp;
let admin: User;
let casey: User;
let alex: User;
let priya: User;
let olivia: User;
let noah: User;
let sam: User;

beforeAll(async () => {
  t = await createTestApp({ env: { PUBLIC_URL } });
  admin = await t.createUser({ name: 'Avery Admin', roles: ['admin'] });
  casey = await t.createUser({ name: 'Casey Manager', roles: ['manager'] });
  alex = await t.createUser({ name: 'Alex Manager', roles: ['manager'] });
  priya = await t.createUser({ name: 'Priya Patel', roles: ['on-call', 'manager'] });
  olivia = await t.createUser({ name: 'Olivia Ortiz', roles: ['on-call'] });
  noah = await t.createUser({ name: 'Noah Nakamura', roles: ['on-call'] });
  sam = await t.createUser({ name: 'Sam Sullivan', roles: ['on-call'] });
});
afterAll(() => t.close());
beforeEach(async () => {
  t.clock.set('2026-11-02T12:00:00Z');
  await t.database.db.delete(notifications);
});

/** Team C: created by Casey; Olivia holds the baton, Noah and Priya (a manager) are members. */
function teamC(name = 'Team C') {
  return insertRotation(t.database.db, {
    name,
    memberIds: [olivia.id, noah.id, priya.id],
    holderId: olivia.id,
    createdById: casey.id,
    now: t.clock.now(),
  });
}

const membersOf = async (rotationId: number) =>
  (
    await t.database.db
      .select({ userId: rotationMembers.userId })
      .from(rotationMembers)
      .where(eq(rotationMembers.rotationId, rotationId))
      .orderBy(asc(rotationMembers.order))
  ).map((m) => m.userId);

const rotationRow = async (id: number) =>
  (await t.database.db.select().from(rotations).where(eq(rotations.id, id)))[0];

const policyName = async (id: number) =>
  (
    await t.database.db
      .select({ name: escalationPolicies.name })
      .from(escalationPolicies)
      .where(eq(escalationPolicies.id, id))
  )[0].name;

/** The rotation-change notices in the outbox, opened. */
async function changeNotices() {
  const rows = await t.database.db
    .select()
    .from(notifications)
    .where(eq(notifications.kind, 'rotation.changed'))
    .orderBy(asc(notifications.id));
  return rows.map((r) => ({ ...r, content: decryptContent(r, t.cipher) }));
}

function expectRefused(res: Awaited<ReturnType<TestApp['call']>>) {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({ message: NOT_MANAGED_MESSAGE, code: 'FORBIDDEN' });
}

describe('a manager acts only on the rotations they manage', () => {
  test('manager A cannot point team C at a policy that pages nobody, nor remove its holder; C’s own manager can', async () => {
    const c = await teamC();
    const nobody = await t.call(admin, 'POST', '/api/escalation-policies', {
      name: 'Pages nobody',
      repeat: 0,
      steps: [{ delayMinutes: 5, targets: [{ type: 'user', id: alex.id }] }],
    });
    expect(nobody.statusCode, nobody.body).toBe(201);

    expectRefused(
      await t.call(alex, 'PATCH', `/api/rotations/${c.id}`, {
        escalationPolicyId: nobody.json().id,
      }),
    );
    expectRefused(await t.call(alex, 'DELETE', `/api/rotations/${c.id}/on-call/${olivia.id}`));
    expectRefused(
      await t.call(alex, 'POST', `/api/rotations/${c.id}/assign-oncall`, { toUserId: noah.id }),
    );

    const after = await rotationRow(c.id);
    expect(after.escalationPolicyId).toBe(c.escalationPolicyId);
    expect(after.holderUserId).toBe(olivia.id);
    expect(await membersOf(c.id)).toEqual([olivia.id, noah.id, priya.id]);

    // Priya, a manager and a member of team C, manages it: she does all of it, and her own
    // changes tell nobody.
    const patched = await t.call(priya, 'PATCH', `/api/rotations/${c.id}`, {
      escalationPolicyId: nobody.json().id,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const added = await t.call(priya, 'POST', `/api/rotations/${c.id}/on-call`, { userId: sam.id });
    expect(added.statusCode, added.body).toBe(200);
    const reassigned = await t.call(priya, 'POST', `/api/rotations/${c.id}/assign-oncall`, {
      toUserId: noah.id,
    });
    expect(reassigned.statusCode, reassigned.body).toBe(200);
    expect(await changeNotices()).toEqual([]);
  });

  test('manager A cannot add herself to team B, so B’s integration, policy and key stay out of reach', async () => {
    const b = await teamC('Team B');
    const { integration, key } = await insertIntegration(t.database.db, t.cipher, {
      rotationId: b.id,
      createdById: casey.id,
    });

    expectRefused(
      await t.call(alex, 'POST', `/api/rotations/${b.id}/on-call`, { userId: alex.id }),
    );
    expect(await membersOf(b.id)).toEqual([olivia.id, noah.id, priya.id]);

    const regenerated = await t.call(alex, 'POST', `/api/integrations/${integration.id}/key`);
    expect(regenerated.statusCode, regenerated.body).toBe(403);
    const renamed = await t.call(alex, 'PATCH', `/api/integrations/${integration.id}`, {
      name: 'Mine now',
    });
    expect(renamed.statusCode, renamed.body).toBe(403);
    const policy = await t.call(alex, 'PATCH', `/api/escalation-policies/${b.escalationPolicyId}`, {
      name: 'Mine now',
    });
    expect(policy.statusCode, policy.body).toBe(403);

    const [stored] = await t.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, integration.id));
    expect(stored).toEqual(integration);
    // The old key still opens the integration: nothing was regenerated.
    const alert = await t.app.inject({
      method: 'POST',
      url: '/api/alerts/generic',
      headers: { authorization: `Bearer ${key}` },
      payload: { summary: 'Still ours', dedupKey: 'still-ours' },
    });
    expect(alert.statusCode, alert.body).toBeLessThan(300);
  });
});

describe('an administrator’s change tells the rotation’s managers', () => {
  const recipients = async () => (await changeNotices()).map((n) => [n.userId, n.channel]).sort();
  const managers = () =>
    [
      [casey.id, 'email'],
      [priya.id, 'email'],
    ].sort();

  test('a new escalation policy: each manager gets one email naming who changed it, from what to what', async () => {
    const c = await teamC();
    const before = await policyName(c.escalationPolicyId);
    const next = await insertRotation(t.database.db, { name: 'Platform', createdById: admin.id });
    const res = await t.call(admin, 'PATCH', `/api/rotations/${c.id}`, {
      escalationPolicyId: next.escalationPolicyId,
    });
    expect(res.statusCode, res.body).toBe(200);
    const toName = await policyName(next.escalationPolicyId);

    // Casey created it, Priya is a manager member; Olivia and Noah hold no manager role.
    expect(await recipients()).toEqual(managers());
    const [notice] = await changeNotices();
    expect(notice.content.subject).toBe('Avery Admin changed the escalation policy of Team C');
    expect(notice.content.text).toContain(
      `Avery Admin changed the escalation policy of Team C from ${before} to ${toName}: its incidents now follow ${toName}.`,
    );
    expect(notice.content.text).toContain(
      'You are told because you manage this rotation and someone else made this change.',
    );
    expect(notice.content.text).toContain(`${PUBLIC_URL}/rotations/${c.id}`);
  });

  test('a member added, the holder removed, the order changed: one email each, naming who and what', async () => {
    const c = await teamC();
    const base = `/api/rotations/${c.id}`;

    expect((await t.call(admin, 'POST', `${base}/on-call`, { userId: sam.id })).statusCode).toBe(
      200,
    );
    expect(await recipients()).toEqual(managers());
    expect((await changeNotices())[0].content.subject).toBe(
      'Avery Admin added Sam Sullivan to Team C',
    );

    await t.database.db.delete(notifications);
    const removed = await t.call(admin, 'DELETE', `${base}/on-call/${olivia.id}`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await recipients()).toEqual(managers());
    const [gone] = await changeNotices();
    expect(gone.content.subject).toBe('Avery Admin removed Olivia Ortiz from Team C');
    expect(gone.content.text).toContain(
      'Avery Admin removed Olivia Ortiz from Team C. Olivia Ortiz held the baton; Noah Nakamura holds it now.',
    );

    await t.database.db.delete(notifications);
    const rows = await t.database.db
      .select({ id: rotationMembers.id, userId: rotationMembers.userId })
      .from(rotationMembers)
      .where(eq(rotationMembers.rotationId, c.id))
      .orderBy(asc(rotationMembers.order));
    const reordered = await t.call(admin, 'PATCH', `${base}/members/reorder`, {
      members: rows.map((m, i) => ({ id: m.id, order: rows.length - 1 - i })),
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(await recipients()).toEqual(managers());
    expect((await changeNotices())[0].content.text).toContain(
      'Avery Admin changed the turn order of Team C: Sam Sullivan, Priya Patel, Noah Nakamura.',
    );
  });

  test('two changes in the same instant are one digest each (decision 262); a rename alone, or an administrator who is a member, tells nobody', async () => {
    const c = await teamC();
    const base = `/api/rotations/${c.id}`;
    expect((await t.call(admin, 'POST', `${base}/on-call`, { userId: sam.id })).statusCode).toBe(
      200,
    );
    expect((await t.call(admin, 'DELETE', `${base}/on-call/${sam.id}`)).statusCode).toBe(200);
    const mine = (await changeNotices()).filter((n) => n.userId === casey.id);
    expect(mine.map((n) => n.content.subject)).toEqual(['Avery Admin made 2 changes to Team C']);
    expect(mine[0].content.text).toContain(
      'Avery Admin added Sam Sullivan to Team C.\n\nAvery Admin removed Sam Sullivan from Team C.',
    );

    await t.database.db.delete(notifications);
    expect((await t.call(admin, 'PATCH', base, { name: 'Team C renamed' })).statusCode).toBe(200);
    expect(await changeNotices()).toEqual([]);

    // Once a member, the administrator is one of its managers: her changes are her team's own.
    expect((await t.call(admin, 'POST', `${base}/on-call`, { userId: admin.id })).statusCode).toBe(
      200,
    );
    await t.database.db.delete(notifications);
    expect((await t.call(admin, 'DELETE', `${base}/on-call/${noah.id}`)).statusCode).toBe(200);
    expect(await changeNotices()).toEqual([]);
  });

  test('a refused change queues nothing', async () => {
    const c = await teamC();
    expectRefused(await t.call(alex, 'POST', `/api/rotations/${c.id}/on-call`, { userId: sam.id }));
    const queued = await t.database.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.kind, 'rotation.changed')));
    expect(queued).toEqual([]);
  });
});
