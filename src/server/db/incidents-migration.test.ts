import { asc, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { databaseBefore } from '../../../tests/setup/migrate-to';
import { selectRows } from './client';
import { pages } from './schema';

/**
 * The incidents migration (0010, decision 204) on a database that already has pages: each page
 * becomes an incident following a copy of its rotation's policy, at the step it had reached, with
 * the person it is with as its assignee, and a severity from its urgency.
 */

test('existing pages become incidents on a copy of their rotation policy', async () => {
  const database = await databaseBefore('incidents');
  try {
    const { db } = database;
    await db.execute(sql`insert into users (name_enc, email_enc, email_index)
                         values ('sealed', 'sealed', 'index-1'), ('sealed', 'sealed', 'index-2')`);
    const [grace, alan] = await selectRows<{ id: number }>(
      db,
      sql`select id from users order by id`,
    );
    await db.execute(sql`insert into escalation_policies (name, repeat, steps)
      values ('Platform (default)', 1, ${JSON.stringify([
        {
          delayMinutes: 5,
          assignment: 'everyone',
          activeHours: null,
          targets: [{ type: 'rotation-holder', id: 1 }],
        },
        {
          delayMinutes: 10,
          assignment: 'everyone',
          activeHours: null,
          targets: [{ type: 'rotation-next', id: 1 }],
        },
      ])}::jsonb)`);
    const [policy] = await selectRows<{ id: number }>(db, sql`select id from escalation_policies`);
    await db.execute(
      sql`insert into rotations (id, name, escalation_policy_id) values (1, 'Platform', ${policy.id})`,
    );
    await db.execute(sql`insert into pages
        (rotation_id, paged_by_id, target_user_id, message_enc, urgency, status, created_at, acknowledged_at, escalated_at)
      values
        (1, ${grace.id}, ${alan.id}, 'sealed', 'high', 'acknowledged', '2026-11-01T09:00:00Z', '2026-11-01T09:05:00Z', null),
        (1, ${grace.id}, ${grace.id}, 'sealed', 'medium', 'escalated', '2026-11-02T09:00:00Z', null, '2026-11-02T09:30:00Z'),
        (1, null, null, 'sealed', 'low', 'triggered', '2026-11-03T09:00:00Z', null, null)`);

    await database.migrate();

    const rows = await db.select().from(pages).orderBy(asc(pages.id));
    expect(rows.map((r) => r.severity)).toEqual(['P1', 'P2', 'P3']);
    for (const row of rows) {
      expect(row.escalationPolicyId).toBe(policy.id);
      expect(row.policy.name).toBe('Platform (default)');
      expect(row.policy.repeat).toBe(1);
      expect(row.policy.steps).toHaveLength(2);
      expect(row.loop).toBe(0);
      expect(row.titleEnc).toBeNull();
      expect(row.exhaustedAt).toBeNull();
    }
    // The escalated page is at the policy's last step (two steps: the third does not exist).
    expect(rows.map((r) => r.stepIndex)).toEqual([0, 1, 0]);
    expect(rows.map((r) => r.stepStartedAt.toISOString())).toEqual([
      '2026-11-01T09:00:00.000Z',
      '2026-11-02T09:30:00.000Z',
      '2026-11-03T09:00:00.000Z',
    ]);
    expect(rows.map((r) => r.assigneeIds)).toEqual([[alan.id], [grace.id], []]);
    expect(rows.map((r) => r.notifiedIds)).toEqual([[alan.id], [grace.id], []]);
    expect(rows.map((r) => r.acknowledgedById)).toEqual([alan.id, null, null]);
    // From now on an incident keeps a copy of its policy.
    await expect(
      db.execute(sql`insert into pages (rotation_id, message_enc) values (1, 'sealed')`),
    ).rejects.toThrow();
  } finally {
    await database.close();
  }
});
