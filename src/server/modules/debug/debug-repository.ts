import { sql } from 'drizzle-orm';
import type { DebugRotation } from '../../../shared/contracts/debug';
import { type Db, selectRows } from '../../db/client';
import { listMembersWithUsers } from '../members/member-reads';
import { listRotationsWithLatest } from '../rotations/rotation-repository';

/**
 * The two reads the diagnostics compare: the rotations table read with plain SQL, as the driver
 * returns its rows, and the storage layer's read that GET /api/rotations really uses (the
 * rotation repository's list read and its member read), mapped to the same fields. A row the
 * app's read drops, or a field it maps differently, shows as a difference (decision 133).
 */

const iso = (value: unknown): string | null =>
  value === null || value === undefined ? null : new Date(value as string | Date).toISOString();

type DirectRow = Record<string, unknown>;

/** readRotationsDirect reads every rotation with one plain SQL statement, ordered by id. */
export async function readRotationsDirect(db: Db): Promise<DebugRotation[]> {
  const rows = await selectRows<DirectRow>(
    db,
    sql`select r.id, r.name, r.description, r.cadence, r.type, r.suspended, r.holder_user_id,
               r.next_handoff_at, r.time_zone, r.handoff_time, r.handoff_weekday,
               (select count(*) from rotation_members m where m.rotation_id = r.id)::int as member_count
          from rotations r
         order by r.id`,
  );
  // Only what JSON cannot carry is converted (timestamps); anything else the driver gives
  // stays as it is, so a type surprise surfaces as a field difference.
  return rows.map((r) => ({
    id: r.id as number,
    name: r.name as string,
    description: (r.description ?? null) as string | null,
    cadence: r.cadence as string,
    type: r.type as string,
    suspended: r.suspended as boolean,
    holderUserId: (r.holder_user_id ?? null) as number | null,
    nextHandoffAt: iso(r.next_handoff_at),
    timeZone: r.time_zone as string,
    handoffTime: r.handoff_time as string,
    handoffWeekday: r.handoff_weekday as number,
    memberCount: r.member_count as number,
  }));
}

/** A read of every rotation in the diagnostics' shape, ordered by id. */
export type RotationsRead = (db: Db) => Promise<DebugRotation[]>;

/**
 * readRotationsStorage reads every rotation the way GET /api/rotations does: the rotation
 * repository's list read (`listRotationsWithLatest`) and its member read (`listMembersWithUsers`),
 * mapped to the diagnostics' shape, ordered by id.
 */
export const readRotationsStorage: RotationsRead = async (db) => {
  const found = await listRotationsWithLatest(db);
  const members = await listMembersWithUsers(
    db,
    found.map((f) => f.row.id),
  );
  const memberCount = new Map<number, number>();
  for (const m of members) {
    memberCount.set(m.member.rotationId, (memberCount.get(m.member.rotationId) ?? 0) + 1);
  }
  return found
    .map(({ row }) => ({
      id: row.id,
      name: row.name,
      description: row.description,
      cadence: row.cadence,
      type: row.type,
      suspended: row.suspended,
      holderUserId: row.holderUserId,
      nextHandoffAt: iso(row.nextHandoffAt),
      timeZone: row.timeZone,
      handoffTime: row.handoffTime,
      handoffWeekday: row.handoffWeekday,
      memberCount: memberCount.get(row.id) ?? 0,
    }))
    .sort((a, b) => a.id - b.id);
};

/** fieldDifferences returns the names of the fields whose values differ between two reads. */
export function fieldDifferences(direct: DebugRotation, storage: DebugRotation): string[] {
  return (Object.keys(direct) as (keyof DebugRotation)[]).filter(
    (key) => !Object.is(direct[key], storage[key]),
  );
}

/** readDatabaseFacts returns the server version, applied migrations and row counts. */
export async function readDatabaseFacts(db: Db) {
  const [versionRows, migrationRows, tableRows] = await Promise.all([
    selectRows<{ version: string }>(db, sql`select version() as version`),
    selectRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
    selectRows<{ name: string; rows: number }>(
      db,
      sql.raw(
        TABLES.map((t) => `select '${t}' as name, count(*)::int as rows from ${t}`).join(
          ' union all ',
        ),
      ),
    ),
  ]);
  return {
    serverVersion: versionRows[0]?.version ?? 'unknown',
    migrationsApplied: Number(migrationRows[0]?.n ?? 0),
    tables: tableRows.map((t) => ({ name: t.name, rows: Number(t.rows) })),
  };
}

// A fixed list of our own table names: nothing from a request reaches the raw SQL above.
const TABLES = [
  'users',
  'rotations',
  'escalation_policies',
  'rotation_members',
  'schedule_entries',
  'handoffs',
  'coverage_requests',
  'pages',
  'invitations',
  'sessions',
  'notifications',
  'audit_events',
] as const;
