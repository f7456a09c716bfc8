import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { selectRows } from '../../db/client';
import { auditEvents } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { admin, adminCookie, onCallCookie, setUpAuditSuite, t } from './audit-routes.fixtures';

setUpAuditSuite();

describe('GET /api/audit-log/admin-events', () => {
  test('lists the administrative trail newest first with actor and target names, paged', async () => {
    const invitee = await t.createUser({ name: 'Irene Invitee' });
    const rotation = await insertRotation(t.database.db, { name: 'Trail Rotation' });
    await t.database.db.insert(auditEvents).values([
      {
        actorUserId: admin.id,
        action: 'user.roles_changed',
        targetType: 'user',
        targetId: String(invitee.id),
        details: { roles: ['manager'] },
      },
      {
        actorUserId: admin.id,
        action: 'rotation.suspended',
        targetType: 'rotation',
        targetId: String(rotation.id),
        details: { userId: invitee.id, userIds: [admin.id, invitee.id], newHolderUserId: 999999 },
      },
      {
        actorUserId: null,
        action: 'rotation.deleted',
        targetType: 'rotation',
        targetId: '999999',
        details: { name: 'Gone Rotation' },
      },
      { actorUserId: admin.id, action: 'system.checked', targetType: 'system', targetId: null },
    ]);

    const res = await t.app.inject({
      url: '/api/audit-log/admin-events?limit=3',
      headers: { cookie: adminCookie },
    });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page.events.map((e: { action: string }) => e.action)).toEqual([
      'system.checked',
      'rotation.deleted',
      'rotation.suspended',
    ]);
    expect(page.events[0]).toMatchObject({
      actor: { id: admin.id, name: 'Avery Auditor' },
      target: 'system',
    });
    expect(page.events[1]).toMatchObject({ actor: null, target: 'Gone Rotation' });
    expect(page.events[2]).toMatchObject({
      target: 'Trail Rotation',
      targetId: String(rotation.id),
      details: {
        userId: invitee.id,
        userName: 'Irene Invitee',
        userIds: [admin.id, invitee.id],
        userNames: ['Avery Auditor', 'Irene Invitee'],
        newHolderUserName: 'Unknown user',
      },
    });
    expect(page.nextCursor).toBe(page.events[2].id);

    const next = await t.app.inject({
      url: `/api/audit-log/admin-events?limit=3&before=${page.nextCursor}`,
      headers: { cookie: adminCookie },
    });
    expect(next.json().events[0]).toMatchObject({
      action: 'user.roles_changed',
      target: 'Irene Invitee',
      details: { roles: ['manager'] },
    });

    const denied = await t.app.inject({
      url: '/api/audit-log/admin-events',
      headers: { cookie: onCallCookie },
    });
    expect(denied.statusCode).toBe(403);
    const bad = await t.app.inject({
      url: '/api/audit-log/admin-events?before=abc',
      headers: { cookie: adminCookie },
    });
    expect(bad.statusCode).toBe(400);
  });
});

describe('deletions in the administrative trail (decision 132)', () => {
  test('an administrator since deleted is still named as the one who acted (decision 172)', async () => {
    const former = await t.createUser({ name: 'Fiona Former', roles: ['admin'] });
    const formerCookie = await t.cookieFor(former);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/rotations',
      payload: { name: 'Made by Fiona' },
      headers: { cookie: formerCookie, origin: 'http://localhost:80' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${former.id}`,
      headers: { cookie: adminCookie, origin: 'http://localhost:80' },
    });
    expect(removed.statusCode).toBeLessThan(300);
    const events = (
      await t.app.inject({
        url: '/api/audit-log/admin-events?limit=2',
        headers: { cookie: adminCookie },
      })
    ).json().events;
    expect(events[0]).toMatchObject({ action: 'user.deleted', target: 'Fiona Former' });
    // The trail is append-only: the actor's id stays, and their deletion's sealed name names them.
    expect(events[1]).toMatchObject({
      action: 'rotation.created',
      actor: { id: former.id, name: 'Fiona Former' },
      target: 'Made by Fiona',
    });
  });

  test('a deleted user and a deleted invitation are named in the trail; the raw rows hold no clear name', async () => {
    const gone = await t.createUser({ name: 'Della Departed', roles: ['on-call'] });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/users/${gone.id}`,
      headers: { cookie: adminCookie },
    });
    expect(deleted.statusCode).toBeLessThan(300);
    const invited = await t.app.inject({
      method: 'POST',
      url: '/api/invitations',
      payload: { email: 'ivan.invitee@example.com', name: 'Ivan Invitee', role: 'member' },
      headers: { cookie: adminCookie },
    });
    expect(invited.statusCode).toBeLessThan(300);
    const invitationId = invited.json().id as number;
    const withdrawn = await t.app.inject({
      method: 'DELETE',
      url: `/api/invitations/${invitationId}`,
      headers: { cookie: adminCookie },
    });
    expect(withdrawn.statusCode).toBeLessThan(300);

    const trail = async () =>
      (
        await t.app.inject({
          url: '/api/audit-log/admin-events?limit=3',
          headers: { cookie: adminCookie },
        })
      ).json().events as { id: number; action: string; target: string; details: object }[];
    const [invitationEvent, invitedEvent, userEvent] = await trail();
    expect(invitationEvent).toMatchObject({
      action: 'invitation.deleted',
      actor: { id: admin.id, name: 'Avery Auditor' },
      targetId: String(invitationId),
      target: 'Ivan Invitee',
      details: {},
    });
    // Earlier events about the same invitation name the invitee too.
    expect(invitedEvent).toMatchObject({ action: 'user.invited', target: 'Ivan Invitee' });
    expect(userEvent).toMatchObject({
      action: 'user.deleted',
      targetId: String(gone.id),
      target: 'Della Departed',
      details: { roles: ['on-call'] },
    });
    // The envelope itself is never shown.
    expect(JSON.stringify(await trail())).not.toContain('v1.');

    const rows = await selectRows<{ id: number; details: string }>(
      t.database.db,
      sql`select id, details::text as details from audit_events
           where id in (${invitationEvent.id}, ${userEvent.id}) order by id`,
    );
    const text = JSON.stringify(rows);
    expect(text).not.toMatch(/Della|Departed|Ivan|Invitee/);
    expect(rows.map((r) => JSON.parse(r.details).targetNameEnc)).toEqual([
      expect.stringMatching(/^v1\./),
      expect.stringMatching(/^v1\./),
    ]);

    // Bound to its own event: copied onto another event it does not open there. (The trail
    // refuses updates, decision 172: only someone who can switch its triggers off gets this far.)
    const userEnvelope = JSON.parse(rows[0].details).targetNameEnc;
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table audit_events disable trigger user`);
      await tx.execute(
        sql`update audit_events set details = jsonb_build_object('targetNameEnc', ${userEnvelope}::text)
             where id = ${invitationEvent.id}`,
      );
      await tx.execute(sql`alter table audit_events enable trigger user`);
    });
    expect((await trail()).map((e) => e.target)).toEqual([
      `invitation #${invitationId}`,
      `invitation #${invitationId}`,
      'Della Departed',
    ]);
  });
});
