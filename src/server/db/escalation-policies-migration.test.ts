import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { asc, sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, test } from 'vitest';
import { defaultEscalationPolicy } from '../../shared/domain/escalation';
import { migrationsFolder, selectRows, wrapPglite } from './client';
import { escalationPolicies, rotations } from './schema';

/**
 * The escalation policies' migration (0009, decision 202) on a database that already has
 * rotations: each gets its own default policy, the one defaultEscalationPolicy writes for a new
 * rotation, and from then on a rotation without a policy is refused.
 */

let before: string | undefined;
afterAll(async () => {
  if (before) await rm(before, { recursive: true, force: true });
});

test('the escalation policies migration gives every existing rotation its own default policy', async () => {
  before = await mkdtemp(path.join(os.tmpdir(), 'baton-before-0009-'));
  await cp(migrationsFolder(), before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: { tag: string }[];
  };
  const upTo = journal.entries.findIndex((e) => e.tag.endsWith('_escalation_policies'));
  expect(upTo).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, upTo);
  await writeFile(journalPath, JSON.stringify(journal));

  const database = wrapPglite(await PGlite.create(), 'pglite:memory');
  try {
    const { db } = database;
    await migrate(db as never, { migrationsFolder: before });
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
