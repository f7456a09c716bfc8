import { sql } from 'drizzle-orm';
import { type Db, selectRows } from '../../db/client';
import type { EngineTask } from '../../engine/engine-task';

/** at most this many expired sessions go on one tick (the rest go on the next) */
export const SESSION_SWEEP_BATCH = 1_000;

/**
 * sweepExpiredSessions deletes up to `limit` sessions whose idle or absolute expiry is at or
 * before `now` (the engine's clock, as sessions are judged expired when read), in one statement,
 * and returns how many. A synced session's token_syncs row is set null, and the token sync task
 * ends it and queues its DELETE as it does for any session row that is gone (decision 228).
 */
export async function sweepExpiredSessions(db: Db, now: Date, limit = SESSION_SWEEP_BATCH) {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`with gone as (
          delete from sessions where token_hash in (
            select token_hash from sessions
            where idle_expires_at <= ${now} or absolute_expires_at <= ${now}
            limit ${limit}
          ) returning 1
        ) select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * sessionSweepTask deletes expired sessions on every tick of every instance (decision 229): one
 * indexed delete of at most a thousand rows, usually of nothing. It runs after the token sync
 * task, so a synced session's DELETE is queued from its row on the tick it expires.
 */
export const sessionSweepTask: EngineTask = async (deps, now) => {
  await sweepExpiredSessions(deps.database.db, now);
};
