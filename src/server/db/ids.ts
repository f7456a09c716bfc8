import { sql } from 'drizzle-orm';
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

/**
 * allocateIds reserves `count` ids from a table's sequence. Encrypted columns bind their
 * ciphertext to the row id, so rows holding them get their id before the insert; a rotation gets
 * its id first because its default escalation policy names it (decision 202).
 */
export async function allocateIds(
  db: Db | Tx,
  table: TableWithSerial,
  count = 1,
): Promise<number[]> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${count})`,
  );
  return rows.map((r) => Number(r.id));
}
