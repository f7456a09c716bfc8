import { sql } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { databaseBefore } from '../../../tests/setup/migrate-to';
import { FieldCipher, generateMasterKey, parseMasterKey } from '../crypto/field-crypto';
import { verifyAuditChain } from '../modules/audit/audit-chain';
import { auditTargetNameCtx } from '../modules/audit/audit-sealed';
import { selectRows } from './client';

/**
 * The audit trail's migration (0006, audit_append_only) on a database that already has audit events (decision 172): it chains them in id
 * order, starts the head after the last one, and from then on refuses changes and chains new ones.
 */

test('the audit trail migration chains the audit events already there, then the trail is append-only', async () => {
  // The migrations up to 0006, without it.
  const database = await databaseBefore('audit_append_only');
  try {
    const { db } = database;
    const cipher = new FieldCipher(parseMasterKey(generateMasterKey()));
    // Event 3 is a deletion with its sealed name (decision 132).
    const sealed = JSON.stringify({ targetNameEnc: cipher.encrypt('Dana', auditTargetNameCtx(3)) });
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
