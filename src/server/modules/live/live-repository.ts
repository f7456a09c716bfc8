import { sql } from 'drizzle-orm';
import type { ChangeEvent, ChangeKind } from '../../../shared/contracts/live-events';
import { type Db, selectRows } from '../../db/client';

/** The live stream's queries (decision 220): the change log and the streams' sessions. */

interface ChangeRow {
  id: string | number;
  kind: ChangeKind;
  entityId: number | null;
  rotationId: number | null;
}

const toEvent = (row: ChangeRow): ChangeEvent => ({
  id: Number(row.id),
  kind: row.kind,
  entityId: row.entityId,
  rotationId: row.rotationId,
});

/** latestChangeId returns the id of the newest change event kept (0 when there is none). */
export async function latestChangeId(db: Db): Promise<number> {
  const [row] = await selectRows<{ id: string | number | null }>(
    db,
    sql`select max(id) as id from change_events`,
  );
  return Number(row?.id ?? 0);
}

/**
 * changesSince returns what a browser that saw `lastId` may have missed, in one statement:
 * whether `lastId` is still in the log (pruning decides how long), and the events after it plus
 * those written up to `marginMs` before it (an earlier id may commit later: decision 220), at
 * most `limit` + 1 of them, oldest first.
 */
export async function changesSince(
  db: Db,
  lastId: number,
  { marginMs, limit }: { marginMs: number; limit: number },
): Promise<{ known: boolean; events: ChangeEvent[] }> {
  const rows = await selectRows<ChangeRow & { known: boolean }>(
    db,
    sql`with anchor as (select created_at from change_events where id = ${lastId})
        select true as known, null::bigint as id, null::text as kind,
               null::integer as "entityId", null::integer as "rotationId"
        from anchor
        union all
        (select false, c.id, c.kind, c.entity_id, c.rotation_id
         from change_events c, anchor a
         where c.id > ${lastId}
            or (c.id < ${lastId} and c.created_at >= a.created_at - make_interval(secs => ${marginMs / 1000}))
         order by c.id
         limit ${limit + 1})`,
  );
  const known = rows.some((row) => row.known);
  return { known, events: rows.filter((row) => !row.known).map(toEvent) };
}

/** A stream's session as it stands: absent when signed out, expired or the user deleted. */
export interface StreamSession {
  tokenHash: string;
  userId: number;
  roles: string[];
  role: string;
}

/**
 * liveSessions returns those of the sessions, and of the personal API tokens (decision 223), that
 * still hold at `now`, in one query: a stream opened with a token ends when it is revoked.
 */
export async function liveSessions(
  db: Db,
  tokenHashes: string[],
  now: Date,
): Promise<StreamSession[]> {
  if (tokenHashes.length === 0) return [];
  return selectRows<StreamSession>(
    db,
    sql`select s.token_hash as "tokenHash", u.id as "userId", u.roles, u.role
        from sessions s join users u on u.id = s.user_id
        where s.token_hash = any(${sql.param(tokenHashes)}::text[])
          and s.idle_expires_at > ${now} and s.absolute_expires_at > ${now}
        union all
        select t.token_hash, u.id, u.roles, u.role
        from api_tokens t join users u on u.id = t.user_id
        where t.token_hash = any(${sql.param(tokenHashes)}::text[]) and t.expires_at > ${now}`,
  );
}

/**
 * pruneChangeEvents deletes the change events older than `keepMs` (database time: the log's
 * `created_at` is the database's) but the newest, and returns how many. The newest stays so that
 * a browser of a quiet team, whose last event is the newest, is known to have missed nothing.
 */
export async function pruneChangeEvents(db: Db, keepMs: number): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from change_events
          where created_at < now() - make_interval(secs => ${keepMs / 1000})
            and id < (select max(id) from change_events)
          returning 1
        ) select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * whomIncidentsConcern returns, for each of these incidents (pages) that still exists, the people
 * it concerns (decision 287): whoever it notified, its assignees, its target and its pager, and the
 * members of its rotation. One statement.
 */
export async function whomIncidentsConcern(
  db: Db,
  pageIds: readonly number[],
): Promise<Map<number, Set<number>>> {
  if (pageIds.length === 0) return new Map();
  const rows = await selectRows<{ pageId: number; userIds: number[] }>(
    db,
    sql`select p.id as "pageId",
               array(select distinct u
                     from unnest(p.notified_ids || p.assignee_ids
                                 || array[p.target_user_id, p.paged_by_id]
                                 || array(select m.user_id from rotation_members m
                                          where m.rotation_id = p.rotation_id)) as u
                     where u is not null) as "userIds"
        from pages p
        where p.id = any(${sql.param([...pageIds])}::int[])`,
  );
  return new Map(rows.map((row) => [Number(row.pageId), new Set(row.userIds.map(Number))]));
}
