import { and, asc, desc, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { User } from '../../../shared/contracts/users';
import { auditEvents, pages, rotations } from '../../db/schema';
import { insertPolicyRow } from '../escalation-policies/escalation-policy-repository';
import { pageMessageOf } from '../incidents/incident-text';
import { ids, people, rotation, setUpRotationApp, t } from './rotation-routes.fixtures';

setUpRotationApp();

describe('paging', () => {
  test('an incident manager pages any rotation: the page is recorded and the answer names the holder', async () => {
    const r = await rotation({
      memberIds: ids(people.olivia, people.noah),
      holderId: people.noah.id,
      createdById: people.admin.id,
    });
    const res = await t.call(people.iris, 'POST', `/api/rotations/${r.id}/page`, {
      message: 'Checkout is failing',
      urgency: 'medium',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ sentTo: { name: 'Noah Nakamura' } });
    const [page] = await t.database.db.select().from(pages).where(eq(pages.rotationId, r.id));
    expect(page).toMatchObject({
      pagedById: people.iris.id,
      targetUserId: people.noah.id,
      legacyMessage: null,
      urgency: 'medium',
      status: 'triggered',
    });
    // Sealed at rest (decision 163), bound to the page's row.
    expect(pageMessageOf(page, t.cipher)).toBe('Checkout is failing');
    const byAdmin = await t.call(people.admin, 'POST', `/api/rotations/${r.id}/page`, {
      message: 'Again',
    });
    expect(byAdmin.statusCode).toBe(201);
    const [latest] = await t.database.db
      .select()
      .from(pages)
      .where(eq(pages.rotationId, r.id))
      .orderBy(desc(pages.id));
    expect(latest.urgency).toBe('high'); // the default
  });

  test('managers page only the rotations they manage (created or member of)', async () => {
    const created = await rotation({
      memberIds: ids(people.olivia),
      holderId: people.olivia.id,
      createdById: people.manager.id,
    });
    const memberOf = await rotation({
      memberIds: ids(people.olivia, people.priya),
      holderId: people.olivia.id,
      createdById: people.admin.id,
    });
    const page = (user: User, id: number) =>
      t.call(user, 'POST', `/api/rotations/${id}/page`, { message: 'Help', urgency: 'low' });
    expect((await page(people.manager, created.id)).statusCode).toBe(201);
    expect((await page(people.priya, memberOf.id)).statusCode).toBe(201);
    const notManaged = await page(people.otherManager, created.id);
    expect(notManaged.statusCode).toBe(403);
    expect(notManaged.json().message).toBe('Managers can page only the rotations they manage.');
    expect((await page(people.olivia, created.id)).statusCode).toBe(403);
  });

  test('paging a rotation with no holder or a suspended one is refused with a message; an empty message is 400', async () => {
    const empty = await rotation({ memberIds: ids(people.olivia) });
    const nobody = await t.call(people.iris, 'POST', `/api/rotations/${empty.id}/page`, {
      message: 'Anyone?',
    });
    expect(nobody.statusCode).toBe(409);
    expect(nobody.json()).toEqual({
      message: 'No one is on call for this rotation, so there is no one to page.',
      code: 'NO_ONE_ON_CALL',
    });
    const suspended = await rotation({
      suspended: true,
      memberIds: ids(people.olivia),
      holderId: people.olivia.id,
    });
    const paused = await t.call(people.iris, 'POST', `/api/rotations/${suspended.id}/page`, {
      message: 'Anyone?',
    });
    expect(paused.statusCode).toBe(409);
    expect(paused.json().code).toBe('ROTATION_SUSPENDED');
    const blank = await t.call(people.iris, 'POST', `/api/rotations/${empty.id}/page`, {
      message: '   ',
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fields.message).toBe('Please enter a message');
    const rows = await t.database.db.select().from(pages).where(eq(pages.rotationId, empty.id));
    expect(rows).toEqual([]);
    const missing = await t.call(people.iris, 'POST', '/api/rotations/999999/page', {
      message: 'x',
    });
    expect(missing.statusCode).toBe(404);
  });

  test('a rotation with members and nobody on call: the page goes on to the policy’s next step and names who it reached', async () => {
    const r = await rotation({ memberIds: ids(people.olivia, people.noah) });
    const policy = await t.database.db.transaction((tx) =>
      insertPolicyRow(
        tx,
        {
          name: `Policy of ${r.name}`,
          repeat: 0,
          steps: [
            {
              delayMinutes: 5,
              targets: [{ type: 'rotation-holder', id: r.id }],
              assignment: 'everyone',
              activeHours: null,
            },
            {
              delayMinutes: 10,
              targets: [{ type: 'user', id: people.manager.id }],
              assignment: 'everyone',
              activeHours: null,
            },
          ],
        },
        people.admin.id,
        t.clock.now(),
      ),
    );
    await t.database.db
      .update(rotations)
      .set({ escalationPolicyId: policy.id })
      .where(eq(rotations.id, r.id));
    const res = await t.call(people.iris, 'POST', `/api/rotations/${r.id}/page`, {
      message: 'Anyone?',
      urgency: 'high',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ sentTo: { name: people.manager.name } });
    const [page] = await t.database.db.select().from(pages).where(eq(pages.rotationId, r.id));
    expect(page).toMatchObject({ targetUserId: people.manager.id, stepIndex: 1 });
    const events = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.targetType, 'page'), eq(auditEvents.targetId, String(page.id))))
      .orderBy(asc(auditEvents.id));
    expect(events.map((e) => e.action)).toEqual([
      'incident.raised',
      'incident.step_skipped',
      'incident.step_reached',
    ]);
    expect(events[1].details).toMatchObject({ step: 0, reason: 'nobody to notify' });
  });
});
