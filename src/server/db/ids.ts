import { sql } from 'drizzle-orm';
import { batchState } from './batch-transaction';
import { type Db, selectRows, type Tx } from './client';

type TableWithSerial =
  | 'users'
  | 'invitations'
  | 'notifications'
  | 'audit_events'
  | 'pages'
  | 'rotations'
  | 'integrations'
  | 'alerts'
  | 'time_off'
  | 'destinations'
  | 'token_syncs'
  | 'push_subscriptions'
  | 'imports';

/** How many ids a batch transaction (decision 277) takes from a sequence at once. */
const RESERVE = 64;

/**
 * allocateIds reserves `count` ids from a table's sequence. Encrypted columns bind their
 * ciphertext to the row id, so rows holding them get their id before the insert; a rotation gets
 * its id first because its default escalation policy names it (decision 202). A batch
 * transaction (decision 277) takes them 64 at a time and hands them out in order; the ones it
 * does not use are gaps, as a rolled-back transaction's are.
 */
export async function allocateIds(
  db: Db | Tx,
  table: TableWithSerial,
  count = 1,
): Promise<number[]> {
  const kept = batchState(db, `ids:${table}`, (): number[] => []);
  if (!kept) return nextIds(db, table, count);
  if (kept.length < count) {
    kept.push(...(await nextIds(db, table, Math.max(RESERVE, count - kept.length))));
  }
  return kept.splice(0, count);
}

async function nextIds(db: Db | Tx, table: TableWithSerial, count: number): Promise<number[]> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${count})`,
  );
  return rows.map((r) => Number(r.id));
}
