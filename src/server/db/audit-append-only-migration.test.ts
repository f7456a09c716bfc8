import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, test } from 'vitest';
import { FieldCipher, generateMasterKey, parseMasterKey } from '../crypto/field-crypto';
import { auditTargetNameCtx } from '../crypto/key-rotation';
import { verifyAuditChain } from '../modules/audit/audit-chain';
import { migrationsFolder, selectRows, wrapPglite } from './client';

/**
 * The audit trail's migration (0006, audit_append_only) on a database that already has audit events (decision 172): it chains them in id
 * order, starts the head after the last one, and from then on refuses changes and chains new ones.
 */

let before: string | undefined;
afterAll(async () => {
  if (before) await rm(before, { recursive: true, force: true });
});

test('the audit trail migration chains the audit events already there, then the trail is append-only', async () => {
  // The migrations up to 0006, without it.
  before = await mkdtemp(path.join(os.tmpdir(), 'baton-before-0006-'));
  await cp(migrationsFolder(), before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: { tag: string }[];
  };
  const upTo = journal.entries.findIndex((e) => e.tag.endsWith('_audit_append_only'));
  expect(upTo).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, upTo);
  await writeFile(journalPath, JSON.stringify(journal));

  const database = wrapPglite(await PGlite.create(), 'pglite:memory');
  try {
    const { db } = database;
    const cipher = new FieldCipher(parseMasterKey(generateMasterKey()));
    // Event 3 is a deletion with its sealed name (decision 132).
    const sealed = JSON.stringify({ targetNameEnc: cipher.encrypt('Dana', auditTargetNameCtx(3)) });
    await migrate(db as never, { migrationsFolder: before });
    await db.execute(sql`insert into audit_events (action, target_type, target_id, details, created_at)
                         values ('rotation.created', 'rotation', '1', '{"name": "Old One"}', '2026-01-01T09:00:00Z'),
                                ('rotation.updated', 'rotation', '1', '{}', '2026-01-02T09:00:00Z'),
                                ('user.deleted', 'user', '7', ${sealed}::jsonb, '2026-01-03T09:00:00Z')`);
    // Before 0006 anything went: an event could be deleted.
    await db.execute(sql`delete from audit_events where action = 'rotation.updated'`);

    await database.migrate();
    const rows = await selectRows<{ id: number; chain_seq: number; prev_hash: string }>(
      db,
      sql`select id, chain_seq, prev_hash from audit_events order by id`,
    );
    expect(rows.map((r) => Number(r.chain_seq))).toEqual([1, 2]);
    expect(rows[0].prev_hash).toBe('0'.repeat(64));
    await db.execute(
      sql`insert into audit_events (action, target_type) values ('page.resolved', 'page')`,
    );
    expect(await verifyAuditChain(db, cipher)).toMatchObject({
      status: 'intact',
      eventsChecked: 3,
      head: { seq: 3 },
    });
    await expect(db.execute(sql`delete from audit_events`)).rejects.toThrow();
  } finally {
    await database.close();
  }
});
