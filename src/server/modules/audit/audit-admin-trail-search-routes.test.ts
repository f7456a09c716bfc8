import Papa from 'papaparse';
import { beforeAll, describe, expect, test } from 'vitest';
import { ADMIN_EVENTS_CSV_COLUMNS } from '../../../shared/contracts/audit';
import type { User } from '../../../shared/contracts/users';
import { auditEvents } from '../../db/schema';
import { insertRotation } from '../../seed/factories';
import { admin, adminCookie, onCallCookie, setUpAuditSuite, t } from './audit-routes.fixtures';

let queries: string[] = [];
setUpAuditSuite((q) => queries.push(q));

describe('searching, filtering and exporting the administrative trail (decision 188)', () => {
  type Shown = { id: number; action: string; target: string; actor: { name: string } | null };
  const trailOf = async (
    query: string,
  ): Promise<{ events: Shown[]; nextCursor: number | null }> => {
    const res = await t.app.inject({
      url: `/api/audit-log/admin-events?${query}`,
      headers: { cookie: adminCookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const write = (method: 'POST' | 'DELETE', url: string, payload?: object, cookie = adminCookie) =>
    t.app.inject({ method, url, payload, headers: { cookie, origin: 'http://localhost:80' } });

  let searcher: User;
  let quentin: User;
  let desk: { id: number };
  let firstId: number;

  beforeAll(async () => {
    searcher = await t.createUser({ name: 'Sabine Searcher', roles: ['admin'] });
    quentin = await t.createUser({ name: 'Quentin Quarry', roles: ['on-call'] });
    desk = await insertRotation(t.database.db, { name: 'Zephyr Desk' });
    const inserted = await t.database.db
      .insert(auditEvents)
      .values([
        {
          actorUserId: searcher.id,
          action: 'rotation.member_added',
          targetType: 'rotation',
          targetId: String(desk.id),
          details: { userId: quentin.id, order: 1 },
        },
        {
          actorUserId: admin.id,
          action: 'user.roles_changed',
          targetType: 'user',
          targetId: String(quentin.id),
          details: { roles: ['on-call'] },
        },
        // A rotation since deleted: every event about it takes the name its deletion recorded.
        {
          actorUserId: admin.id,
          action: 'rotation.suspended',
          targetType: 'rotation',
          targetId: '888888',
          details: {},
        },
        {
          actorUserId: admin.id,
          action: 'rotation.deleted',
          targetType: 'rotation',
          targetId: '888888',
          details: { name: 'Zephyr Gone' },
        },
        // A page of a rotation since deleted: named after the rotation its events recorded.
        {
          actorUserId: null,
          action: 'page.resolved',
          targetType: 'page',
          targetId: '777777',
          details: { rotationName: 'Zephyr Desk', from: 'triggered' },
        },
        {
          actorUserId: admin.id,
          action: 'rotation.schedule_added',
          targetType: 'rotation',
          targetId: String(desk.id),
          details: {
            userId: quentin.id,
            startTime: '2026-03-01T08:00:00.000Z',
            endTime: '2026-03-02T08:00:00.000Z',
          },
        },
      ])
      .returning({ id: auditEvents.id });
    firstId = Math.min(...inserted.map((e) => e.id));
    const invited = await write('POST', '/api/invitations', {
      email: 'yolanda.yarrow@example.com',
      name: 'Yolanda Yarrow',
      role: 'member',
    });
    expect(invited.statusCode, invited.body).toBeLessThan(300);
    const xavier = await t.createUser({ name: 'Xavier Xylo', roles: ['on-call'] });
    expect((await write('DELETE', `/api/users/${xavier.id}`)).statusCode).toBeLessThan(300);
  });

  test('names every target type: users, invitees, rotations (deleted too) and pages', async () => {
    const { events } = await trailOf('limit=20');
    const byAction = (action: string) => events.find((e) => e.action === action);
    expect(byAction('rotation.member_added')).toMatchObject({ target: 'Zephyr Desk' });
    expect(byAction('rotation.suspended')).toMatchObject({ target: 'Zephyr Gone' });
    expect(byAction('page.resolved')).toMatchObject({ target: 'Page on Zephyr Desk' });
    expect(byAction('user.invited')).toMatchObject({ target: 'Yolanda Yarrow' });
    expect(byAction('user.deleted')).toMatchObject({ target: 'Xavier Xylo' });
    expect(byAction('user.roles_changed')).toMatchObject({ target: 'Quentin Quarry' });
    const ours = events.filter((e) => e.id >= firstId);
    expect(ours).toHaveLength(8);
    expect(ours.map((e) => e.target).join('|')).not.toMatch(/#\d/);
  });

  test.each([
    // a rotation by its name, a deleted one by its recorded name, a page by its rotation
    [
      'zEpHyR',
      [
        'rotation.schedule_added',
        'page.resolved',
        'rotation.deleted',
        'rotation.suspended',
        'rotation.member_added',
      ],
    ],
    ['zephyr gone', ['rotation.deleted', 'rotation.suspended']],
    // the target person (not the people named in details)
    ['QUENTIN', ['user.roles_changed']],
    // the actor
    ['sabine searcher', ['rotation.member_added']],
    // an invitee (sealed at rest) and a deleted user (their deletion's sealed name)
    ['yarrow', ['user.invited']],
    ['xylo', ['user.deleted']],
    // wildcards are literal
    ['zephyr%', []],
  ])('search %j matches actor, target or action', async (search, actions) => {
    const { events } = await trailOf(`search=${encodeURIComponent(search)}&limit=100`);
    expect(events.map((e) => e.action)).toEqual(actions);
  });

  test('searches an action by its key or its label, and filters by action', async () => {
    for (const search of ['roles_changed', 'Changed ROLES']) {
      const { events } = await trailOf(`search=${encodeURIComponent(search)}&limit=100`);
      expect(events.map((e) => e.target)).toContain('Quentin Quarry');
      expect(events.every((e) => e.action === 'user.roles_changed')).toBe(true);
    }
    const suspended = await trailOf('action=rotation.suspended&limit=100');
    expect(suspended.events.map((e) => e.target)).toContain('Zephyr Gone');
    expect(suspended.events.every((e) => e.action === 'rotation.suspended')).toBe(true);
    const both = await trailOf('action=rotation.suspended&search=zephyr');
    expect(both.events.map((e) => e.target)).toEqual(['Zephyr Gone']);
    expect((await trailOf('action=all&search=xylo')).events).toHaveLength(1);
    expect((await trailOf('action=&search=xylo')).events).toHaveLength(1);
  });

  test('pages a search with the before cursor', async () => {
    const first = await trailOf('search=zephyr&limit=2');
    expect(first.events.map((e) => e.action)).toEqual(['rotation.schedule_added', 'page.resolved']);
    expect(first.nextCursor).toBe(first.events[1].id);
    const rest = await trailOf(`search=zephyr&limit=2&before=${first.nextCursor}`);
    expect(rest.events.map((e) => e.action)).toEqual(['rotation.deleted', 'rotation.suspended']);
    const last = await trailOf(`search=zephyr&limit=2&before=${rest.nextCursor}`);
    expect(last.events.map((e) => e.action)).toEqual(['rotation.member_added']);
    expect(last.nextCursor).toBeNull();
  });

  test.each([
    ['action=user.exploded', /Action must be one of/],
    [`search=${'x'.repeat(201)}`, /Search must be at most 200 characters/],
  ])('refuses %s with 400', async (query, message) => {
    for (const path of ['admin-events', 'admin-events.csv']) {
      const res = await t.app.inject({
        url: `/api/audit-log/${path}?${query}`,
        headers: { cookie: adminCookie },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
  });

  test('reads a page in a fixed number of queries, however many targets of each type it names', async () => {
    const count = async (query: string) => {
      await trailOf(query);
      queries = [];
      const { events } = await trailOf(query);
      return { n: queries.length, events: events.length };
    };
    const before = await count('limit=100');
    // More events of every target type, a deleted rotation and a page among them.
    const more = await Promise.all(
      Array.from({ length: 4 }, (_, i) => t.createUser({ name: `Counted Admin ${i}` })),
    );
    await t.database.db.insert(auditEvents).values(
      more.flatMap((person, i) => [
        {
          actorUserId: person.id,
          action: 'user.roles_changed',
          targetType: 'user',
          targetId: String(quentin.id),
          details: { userIds: more.map((p) => p.id) },
        },
        {
          actorUserId: person.id,
          action: 'rotation.activated',
          targetType: 'rotation',
          targetId: String(desk.id),
        },
        {
          actorUserId: person.id,
          action: 'rotation.deleted',
          targetType: 'rotation',
          targetId: String(700000 + i),
          details: { name: `Counted Gone ${i}` },
        },
        {
          actorUserId: null,
          action: 'page.acknowledged',
          targetType: 'page',
          targetId: String(600000 + i),
          details: { rotationName: 'Zephyr Desk' },
        },
      ]),
    );
    const after = await count('limit=100');
    expect(after.events).toBe(before.events + 16);
    // The events, then one query for each kind of name (people, rotations, invitations, pages,
    // the names deletions recorded), however many of each.
    expect(after.n).toBe(before.n);
    const searched = await count('search=zephyr&limit=100');
    expect(searched.events).toBe(5 + 8);
    expect((await count('search=zephyr&limit=1')).n).toBeLessThanOrEqual(searched.n);
  });

  test('exports the filtered trail as CSV, names and details readable, formulas neutralised', async () => {
    await insertRotation(t.database.db, { name: '=HYPERLINK("http://evil.example","z")' }).then(
      (r) =>
        t.database.db.insert(auditEvents).values({
          actorUserId: searcher.id,
          action: 'rotation.activated',
          targetType: 'rotation',
          targetId: String(r.id),
          details: {},
        }),
    );
    const res = await t.app.inject({
      url: '/api/audit-log/admin-events.csv?search=sabine',
      headers: { cookie: adminCookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="baton-admin-trail-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(res.body.endsWith('\r\n')).toBe(true);
    const parsed = Papa.parse<Record<string, string>>(res.body.replace(/^\ufeff/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(parsed.errors).toEqual([]);
    expect(parsed.meta.fields).toEqual([...ADMIN_EVENTS_CSV_COLUMNS]);
    expect(parsed.data).toHaveLength(2);
    const [activated, added] = parsed.data;
    expect(activated).toMatchObject({
      actor: 'Sabine Searcher',
      action: 'rotation.activated',
      action_label: 'Activated a rotation',
      target: `'=HYPERLINK("http://evil.example","z")`,
    });
    expect(added).toMatchObject({
      action_label: 'Added a member',
      target_type: 'rotation',
      target_id: String(desk.id),
      target: 'Zephyr Desk',
      details: 'order: 1; user name: Quentin Quarry',
    });
    expect(Date.parse(added.time)).not.toBeNaN();

    const scheduled = await t.app.inject({
      url: '/api/audit-log/admin-events.csv?action=rotation.schedule_added&search=zephyr',
      headers: { cookie: adminCookie },
    });
    const [entry] = Papa.parse<Record<string, string>>(scheduled.body.replace(/^\ufeff/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(entry.details).toBe(
      'end time: 2026-03-02T08:00:00.000Z; start time: 2026-03-01T08:00:00.000Z; user name: Quentin Quarry',
    );

    const denied = await t.app.inject({
      url: '/api/audit-log/admin-events.csv',
      headers: { cookie: onCallCookie },
    });
    expect(denied.statusCode).toBe(403);
  });
});
