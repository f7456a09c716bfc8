import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * allowAuditReseal lets the calling transaction, and only it, re-seal the sealed values of audit
 * events (a deleted person's name, a page's escalation reason). The audit trail refuses every
 * other UPDATE, and even with this setting an update may change nothing its hash covers
 * (decision 172, migration 0006).
 */
export async function allowAuditReseal(tx: Db): Promise<void> {
  await tx.execute(sql`select set_config('baton.audit_reseal', 'on', true)`);
}
