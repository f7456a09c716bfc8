import { sql } from 'drizzle-orm';
import { type Db, selectRows } from '../../db/client';
import type { EngineTask } from '../../engine/engine-task';

/** at most this many alerts lose their raw payload on one tick (the rest on the next) */
export const ALERT_PAYLOAD_SWEEP_BATCH = 1_000;

/**
 * dropOldAlertPayloads drops the raw payload of up to `limit` alerts last seen before `cutoff`
 * whose incident was resolved before it, or that raised none (decision 232), oldest first, in one
 * statement, and returns how many. The alert stays, with its summary, details, links and counts:
 * only the payload, up to ALERT_PAYLOAD_KEEP of sealed text each, goes.
 */
export async function dropOldAlertPayloads(
  db: Db,
  cutoff: Date,
  limit = ALERT_PAYLOAD_SWEEP_BATCH,
): Promise<number> {
  const rows = await selectRows<{ n: number }>(
    db,
    sql`with dropped as (
          update alerts set payload_enc = null where id in (
            select a.id from alerts a left join pages p on p.id = a.page_id
            where a.payload_enc is not null and a.last_seen_at < ${cutoff}
              and (a.page_id is null or (p.status = 'resolved' and p.resolved_at < ${cutoff}))
            order by a.last_seen_at
            limit ${limit}
          ) returning 1
        ) select count(*)::int as n from dropped`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * alertPayloadSweepTask drops, on every tick of every instance, the raw payloads kept longer than
 * ALERT_PAYLOAD_DAYS (decision 232): one indexed update of at most a thousand rows, usually of
 * nothing. Two instances at once at worst set the same payloads null twice.
 */
export const alertPayloadSweepTask: EngineTask = async (deps, now) => {
  await dropOldAlertPayloads(
    deps.database.db,
    new Date(now.getTime() - deps.config.alertPayloadKeepMs),
  );
};
