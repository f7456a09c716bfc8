import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Db, selectRows, type Tx } from '../../db/client';
import { alertKeys, alerts, integrations, pages } from '../../db/schema';

/**
 * The alert intake's queries (issue 17, decision 209). Each runs in the intake's transaction; the
 * lock order is alert key, then integration, then incident, so two deliveries never wait on each
 * other in a circle.
 */

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlertRow = typeof alerts.$inferInsert;

/** An integration's dedup key, as locked by upsertAlertKey, with its incident's status. */
export interface LockedAlertKey {
  pageId: number | null;
  lastAlertId: number | null;
  lastEventHash: string | null;
  resolvedAt: Date | null;
  /** its incident's status, read unlocked (null: no incident) */
  pageStatus: string | null;
}

/**
 * upsertAlertKey takes the row of (integration, key), making it when new, and holds its lock to
 * the end of the transaction: a second delivery of the same new key waits here, then finds the
 * incident the first one raised. Its incident's status is read by the next statement: one joined
 * here would be read from this statement's snapshot, taken before the wait, when that incident
 * did not exist yet (PostgreSQL, READ COMMITTED).
 */
export async function upsertAlertKey(
  tx: Tx,
  integrationId: number,
  dedupKeyHash: string,
  now: Date,
): Promise<Omit<LockedAlertKey, 'pageStatus'>> {
  const [row] = await tx
    .insert(alertKeys)
    .values({ integrationId, dedupKeyHash, lastSeenAt: now })
    .onConflictDoUpdate({
      target: [alertKeys.integrationId, alertKeys.dedupKeyHash],
      set: { lastSeenAt: now },
    })
    .returning(keyColumns);
  return row;
}

/** findAlertKey reads and locks an existing key (acknowledge and resolve never make one). */
export async function findAlertKey(
  tx: Tx,
  integrationId: number,
  dedupKeyHash: string,
): Promise<Omit<LockedAlertKey, 'pageStatus'> | undefined> {
  const [row] = await tx
    .select(keyColumns)
    .from(alertKeys)
    .where(
      and(eq(alertKeys.integrationId, integrationId), eq(alertKeys.dedupKeyHash, dedupKeyHash)),
    )
    .for('update');
  return row;
}

const keyColumns = {
  pageId: alertKeys.pageId,
  lastAlertId: alertKeys.lastAlertId,
  lastEventHash: alertKeys.lastEventHash,
  resolvedAt: alertKeys.resolvedAt,
};

/** incidentStatus reads an incident's status without locking it (a resolved one closes its keys). */
export async function incidentStatus(tx: Tx, pageId: number): Promise<string | null> {
  const [row] = await tx.select({ status: pages.status }).from(pages).where(eq(pages.id, pageId));
  return row?.status ?? null;
}

/** updateAlertKey points a key at its incident and its latest alert. */
export async function updateAlertKey(
  tx: Tx,
  integrationId: number,
  dedupKeyHash: string,
  values: Partial<typeof alertKeys.$inferInsert>,
): Promise<void> {
  await tx
    .update(alertKeys)
    .set(values)
    .where(
      and(eq(alertKeys.integrationId, integrationId), eq(alertKeys.dedupKeyHash, dedupKeyHash)),
    );
}

/** countOpenKeys: how many of an incident's keys are still open (a storm's, after one resolves). */
export async function countOpenKeys(tx: Tx, pageId: number): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    tx,
    sql`select count(*)::int as n from ${alertKeys}
         where ${alertKeys.pageId} = ${pageId} and ${alertKeys.resolvedAt} is null`,
  );
  return Number(row?.n ?? 0);
}

/** insertAlert records one alert event; the id is allocated first (its texts are sealed with it). */
export async function insertAlert(tx: Tx, row: NewAlertRow): Promise<void> {
  await tx.insert(alerts).values(row);
}

/** repeatAlert: the same event arrived again; only its last-seen time and count change. */
export async function repeatAlert(tx: Tx, alertId: number, now: Date): Promise<void> {
  await tx
    .update(alerts)
    .set({ lastSeenAt: now, seenCount: sql`${alerts.seenCount} + 1` })
    .where(eq(alerts.id, alertId));
}

/** countAlertOnIncident adds one distinct alert to an incident's count and last-alert time. */
export async function countAlertOnIncident(tx: Tx, pageId: number, now: Date): Promise<void> {
  await tx
    .update(pages)
    .set({ alertCount: sql`${pages.alertCount} + 1`, lastAlertAt: now })
    .where(eq(pages.id, pageId));
}

/**
 * lockIntegration holds an integration's row: new incidents of one integration are counted in line.
 * FOR NO KEY UPDATE, not FOR UPDATE: every new alert key's foreign key holds KEY SHARE on this row,
 * which FOR UPDATE would wait on, so two new keys would deadlock (PostgreSQL 40P01).
 */
export async function lockIntegration(tx: Tx, integrationId: number): Promise<void> {
  await tx
    .select({ id: integrations.id })
    .from(integrations)
    .where(eq(integrations.id, integrationId))
    .for('no key update');
}

/**
 * stormState, in one statement: how many incidents (not storms) an integration raised since
 * `since`, and its open alert storm incident, if any.
 */
export async function stormState(
  tx: Tx,
  integrationId: number,
  since: Date,
): Promise<{ recent: number; storm: number | undefined }> {
  const [row] = await selectRows<{ recent: number | string; storm: number | null }>(
    tx,
    sql`select
          (select count(*) from ${pages}
            where integration_id = ${integrationId} and created_at > ${since.toISOString()}
              and not storm) as recent,
          (select id from ${pages}
            where integration_id = ${integrationId} and storm and status <> 'resolved'
            order by id desc limit 1) as storm`,
  );
  return { recent: Number(row.recent), storm: row.storm === null ? undefined : Number(row.storm) };
}

/** touchIntegration records when an integration's key was last used. */
export async function touchIntegration(tx: Tx, integrationId: number, now: Date): Promise<void> {
  await tx.update(integrations).set({ lastUsedAt: now }).where(eq(integrations.id, integrationId));
}

/** openKeysOfIncident: the hashes of an integration's keys still open on one incident. */
export async function openKeysOfIncident(
  db: Db | Tx,
  integrationId: number,
  pageId: number,
): Promise<string[]> {
  const rows = await db
    .select({ hash: alertKeys.dedupKeyHash })
    .from(alertKeys)
    .where(
      and(
        eq(alertKeys.integrationId, integrationId),
        eq(alertKeys.pageId, pageId),
        isNull(alertKeys.resolvedAt),
      ),
    );
  return rows.map((r) => r.hash);
}

/**
 * repeatIfSame is the whole of a repeat, in one statement outside any transaction: when the key is
 * open on an incident that is not resolved and its latest event is this one, that alert's last-seen
 * time and count move on. Answers the alert and the incident, or undefined when it is no repeat
 * (the caller then takes the full path, in a transaction, under the key's lock).
 */
export async function repeatIfSame(
  db: Db | Tx,
  key: { integrationId: number; dedupKeyHash: string; eventHash: string },
  now: Date,
): Promise<{ alertId: number; pageId: number } | undefined> {
  const at = now.toISOString();
  const [row] = await selectRows<{ alertId: number | string; pageId: number }>(
    db,
    sql`with k as (
          update ${alertKeys} set last_seen_at = ${at}
           where integration_id = ${key.integrationId}
             and dedup_key_hash = ${key.dedupKeyHash}
             and last_event_hash = ${key.eventHash}
             and resolved_at is null and page_id is not null and last_alert_id is not null
             and exists (select 1 from ${pages} p
                          where p.id = ${alertKeys.pageId} and p.status <> 'resolved')
          returning last_alert_id, page_id)
        update ${alerts} a set last_seen_at = ${at}, seen_count = a.seen_count + 1
          from k where a.id = k.last_alert_id
        returning a.id as "alertId", k.page_id as "pageId"`,
  );
  return row ? { alertId: Number(row.alertId), pageId: Number(row.pageId) } : undefined;
}
