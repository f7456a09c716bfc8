import { asc, sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { databaseBefore } from '../../../tests/setup/migrate-to';
import { defaultEscalationPolicy } from '../../shared/domain/escalation';
import { selectRows } from './client';
import { escalationPolicies, rotations } from './schema';

/**
 * The escalation policies' migration (0009, decision 202) on a database that already has
 * rotations: each gets its own default policy, the one defaultEscalationPolicy writes for a new
 * rotation, and from then on a rotation without a policy is refused.
 */

test('the escalation policies migration gives every existing rotation its own default policy', async () => {
  const database = await databaseBefore('escalation_policies');
  try {
    const { db } = database;
    await db.execute(sql`insert into users (name_enc, email_enc, email_index)
                         values ('sealed', 'sealed', 'index-1')`);
    const [creator] = await selectRows<{ id: number }>(db, sql`select id from users`);
    await db.execute(sql`insert into rotations (name, created_by_id, created_at)
                         values ('Platform', ${creator.id}, '2026-01-01T09:00:00Z'),
                                ('Payments', null, '2026-02-01T09:00:00Z'),
                                ('Data', null, '2026-03-01T09:00:00Z')`);

    await database.migrate();

    const rows = await db.select().from(rotations).orderBy(asc(rotations.id));
    const policies = await db.select().from(escalationPolicies);
    expect(policies).toHaveLength(3);
    expect(new Set(rows.map((r) => r.escalationPolicyId)).size).toBe(3);
    for (const rotation of rows) {
      const policy = policies.find((p) => p.id === rotation.escalationPolicyId);
      expect({ name: policy?.name, repeat: policy?.repeat, steps: policy?.steps }).toEqual(
        defaultEscalationPolicy(rotation),
      );
      expect(policy?.createdById).toBe(rotation.createdById);
      expect(policy?.createdAt).toEqual(rotation.createdAt);
    }
    // From now on every rotation names a policy, and a policy in use cannot be deleted.
    await expect(
      db.execute(sql`insert into rotations (name) values ('No policy')`),
    ).rejects.toThrow();
    await expect(
      db.execute(sql`delete from escalation_policies where id = ${rows[0].escalationPolicyId}`),
    ).rejects.toThrow();
  } finally {
    await database.close();
  }
});
