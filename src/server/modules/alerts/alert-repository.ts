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

/** An integration's storm state: its incidents (not storms) since a time, and its open storm. */
export interface StormState {
  recent: number;
  storm: number | undefined;
}

/**
 * upsertAlertKey takes the row of (integration, key), making it when new, and holds its lock to
 * the end of the transaction: a second delivery of the same new key waits here, then finds the
 * incident the first one raised. In the same round trip it checks that the integration still has
 * the key it was opened with (undefined: regenerated or deleted since; nothing written), reserves
 * the id of the alert the trigger will record (allocateIds), and reads the integration's storm
 * state as a hint. The hint and any status read here come from this statement's snapshot, taken
 * before a wait for the lock (PostgreSQL, READ COMMITTED): its incident's status is read by the
 * next statement, and the storm state again under the integration's lock before anything is
 * raised (alert-intake.ts).
 */
export async function upsertAlertKey(
  tx: Tx,
  integration: { id: number; keyHash: string; unsigned?: boolean },
  dedupKeyHash: string,
  now: Date,
  stormSince: Date,
): Promise<
  (Omit<LockedAlertKey, 'pageStatus'> & { reservedAlertId: number; storm: StormState }) | undefined
> {
  const [row] = await selectRows<{
    pageId: number | null;
    lastAlertId: number | string | null;
    lastEventHash: string | null;
    resolvedAt: string | Date | null;
    reservedAlertId: number | string;
    recent: number | string;
    storm: number | null;
  }>(
    tx,
    sql`insert into ${alertKeys} (integration_id, dedup_key_hash, last_seen_at)
        select i.id, ${dedupKeyHash}, ${now.toISOString()} from ${integrations} i
         where i.id = ${integration.id} and i.key_hash = ${integration.keyHash}
           and (not ${integration.unsigned === true}::boolean or i.signing_secret_enc is null)
        on conflict (integration_id, dedup_key_hash) do update set last_seen_at = excluded.last_seen_at
        returning page_id as "pageId", last_alert_id as "lastAlertId",
                  last_event_hash as "lastEventHash", resolved_at as "resolvedAt",
                  nextval(pg_get_serial_sequence('alerts', 'id')) as "reservedAlertId",
                  ${stormStateColumns(integration.id, stormSince)}`,
  );
  if (!row) return undefined;
  return {
    pageId: row.pageId === null ? null : Number(row.pageId),
    lastAlertId: row.lastAlertId === null ? null : Number(row.lastAlertId),
    lastEventHash: row.lastEventHash,
    resolvedAt: row.resolvedAt === null ? null : new Date(row.resolvedAt),
    reservedAlertId: Number(row.reservedAlertId),
    storm: stormStateOf(row),
  };
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

/**
 * recordAlertRow writes one alert event (its id allocated first: its texts are sealed with it)
 * and, in the same statement, its key's new values (it points at this alert, and its incident).
 * Nothing else changes: an incident's count of distinct alerts is counted from these rows
 * (countIncidentAlerts), so a storm's many folds never queue on the storm's row.
 */
export async function recordAlertRow(
  tx: Tx,
  row: NewAlertRow & { id: number },
  key?: Partial<typeof alertKeys.$inferInsert>,
): Promise<void> {
  const keyUpdate = key
    ? sql`, k as (update ${alertKeys} set ${sql.join(
        Object.entries(key).map(([field, value]) => {
          const column = alertKeys[field as keyof typeof key];
          return sql`${sql.identifier(column.name)} = ${value instanceof Date ? value.toISOString() : value}`;
        }),
        sql`, `,
      )} where integration_id = ${row.integrationId} and dedup_key_hash = ${row.dedupKeyHash})`
    : sql``;
  await tx.execute(
    sql`with a as (insert into ${alerts}
          (id, integration_id, page_id, format, action, outcome, dedup_key_hash, event_hash,
           severity, event_enc, payload_enc, payload_cut, received_at, last_seen_at)
          values (${row.id}, ${row.integrationId}, ${row.pageId ?? null}, ${row.format},
                  ${row.action}, ${row.outcome}, ${row.dedupKeyHash}, ${row.eventHash},
                  ${row.severity ?? null}, ${row.eventEnc}, ${row.payloadEnc},
                  ${row.payloadCut ?? false}, ${row.receivedAt.toISOString()},
                  ${row.lastSeenAt.toISOString()})
          returning id)${keyUpdate}
        select id from a`,
  );
}

/** repeatAlert: the same event arrived again; only its last-seen time and count change. */
export async function repeatAlert(tx: Tx, alertId: number, now: Date): Promise<void> {
  await tx
    .update(alerts)
    .set({ lastSeenAt: now, seenCount: sql`${alerts.seenCount} + 1` })
    .where(eq(alerts.id, alertId));
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

/** The storm state's two columns, as subqueries of a statement (stormState, upsertAlertKey). */
function stormStateColumns(integrationId: number, since: Date) {
  return sql`(select count(*) from ${pages}
               where integration_id = ${integrationId} and created_at > ${since.toISOString()}
                 and not storm) as recent,
             (select id from ${pages}
               where integration_id = ${integrationId} and storm and status <> 'resolved'
               order by id desc limit 1) as storm`;
}

const stormStateOf = (row: { recent: number | string; storm: number | null }): StormState => ({
  recent: Number(row.recent),
  storm: row.storm === null ? undefined : Number(row.storm),
});

/**
 * stormState, in one statement: how many incidents (not storms) an integration raised since
 * `since`, and its open alert storm incident, if any.
 */
export async function stormState(tx: Tx, integrationId: number, since: Date): Promise<StormState> {
  const [row] = await selectRows<{ recent: number | string; storm: number | null }>(
    tx,
    sql`select ${stormStateColumns(integrationId, since)}`,
  );
  return stormStateOf(row);
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

/** A delivery that may repeat an open key's latest event (repeatAlerts). */
export interface RepeatProbe {
  integrationId: number;
  /** the integration's key as stored: a key regenerated or deleted since it was read repeats nothing */
  keyHash: string;
  dedupKeyHash: string;
  eventHash: string;
  /** an unsigned request: the key of an integration given a signing secret since repeats nothing */
  unsigned?: boolean;
}

/** What a repeat touched: the alert it repeats and that alert's incident. */
export interface RepeatHit {
  alertId: number;
  pageId: number;
}

/**
 * repeatAlerts is the whole of any number of repeats, in one statement outside any transaction:
 * for each probe whose key still opens its integration, whose dedup key is open on an incident
 * that is not resolved, and whose latest event is this one, that alert's last-seen time moves on
 * and its seen count grows by the times it was probed. The keys are locked in one order (the
 * intake's: integration, then dedup key hash), so a batch never waits in a circle with another
 * batch or an intake transaction. Answers each probe's hit, or undefined where it is no repeat
 * (the caller then takes the full path, in a transaction, under the key's lock).
 */
export async function repeatAlerts(
  db: Db | Tx,
  probes: readonly RepeatProbe[],
  now: Date,
): Promise<(RepeatHit | undefined)[]> {
  const identity = (p: RepeatProbe) =>
    `${p.integrationId}:${p.keyHash}:${p.dedupKeyHash}:${p.eventHash}:${p.unsigned === true}`;
  const times = new Map<string, { probe: RepeatProbe; n: number }>();
  for (const probe of probes) {
    const seen = times.get(identity(probe));
    if (seen) seen.n += 1;
    else times.set(identity(probe), { probe, n: 1 });
  }
  const values = sql.join(
    [...times.values()].map(
      ({ probe, n }) =>
        sql`(${probe.integrationId}::int, ${probe.keyHash}, ${probe.dedupKeyHash}, ${probe.eventHash}, ${n}::int, ${probe.unsigned === true}::boolean)`,
    ),
    sql`, `,
  );
  const at = now.toISOString();
  const rows = await selectRows<{
    integrationId: number | string;
    keyHash: string;
    dedupKeyHash: string;
    eventHash: string;
    unsigned: boolean;
    alertId: number | string;
    pageId: number | string;
  }>(
    db,
    sql`with probe (integration_id, key_hash, dedup_key_hash, event_hash, n, unsigned) as (values ${values}),
        open_key as (
          select ak.integration_id, ak.dedup_key_hash, ak.last_alert_id, ak.page_id,
                 p.key_hash, p.event_hash, p.n, p.unsigned
            from ${alertKeys} ak
            join probe p on p.integration_id = ak.integration_id
                        and p.dedup_key_hash = ak.dedup_key_hash
                        and p.event_hash = ak.last_event_hash
            join ${integrations} i on i.id = p.integration_id and i.key_hash = p.key_hash
                                  and (not p.unsigned or i.signing_secret_enc is null)
           where ak.resolved_at is null and ak.page_id is not null and ak.last_alert_id is not null
             and exists (select 1 from ${pages} pg where pg.id = ak.page_id and pg.status <> 'resolved')
           order by ak.integration_id, ak.dedup_key_hash
             for update of ak),
        k as (
          update ${alertKeys} ak set last_seen_at = ${at}
            from open_key o
           where ak.integration_id = o.integration_id and ak.dedup_key_hash = o.dedup_key_hash
          returning o.*)
        update ${alerts} a set last_seen_at = ${at}, seen_count = a.seen_count + k.n
          from k where a.id = k.last_alert_id
        returning k.integration_id as "integrationId", k.key_hash as "keyHash",
                  k.dedup_key_hash as "dedupKeyHash", k.event_hash as "eventHash",
                  k.unsigned, a.id as "alertId", k.page_id as "pageId"`,
  );
  const hits = new Map<string, RepeatHit>();
  for (const row of rows) {
    hits.set(
      identity({
        integrationId: Number(row.integrationId),
        keyHash: row.keyHash,
        dedupKeyHash: row.dedupKeyHash,
        eventHash: row.eventHash,
        unsigned: row.unsigned === true,
      }),
      { alertId: Number(row.alertId), pageId: Number(row.pageId) },
    );
  }
  return probes.map((probe) => hits.get(identity(probe)));
}

/**
 * A new key's trigger tried as a fold into its integration's open alert storm, its id reserved
 * and its texts sealed with that id (foldIntoStorms, alert-intake.ts).
 */
export interface FoldRow {
  integrationId: number;
  /** the integration's key hash as the request presented it: checked as the rows are written */
  keyHash: string;
  dedupKeyHash: string;
  eventHash: string;
  alertId: number;
  format: string;
  severity: string;
  eventEnc: string;
  payloadEnc: string;
  payloadCut: boolean;
  /** an unsigned request: an integration given a signing secret since folds nothing of it */
  unsigned?: boolean;
}

/** Where a fold went: the storm incident and the alert recorded on it. */
export interface FoldHit {
  alertId: number;
  pageId: number;
}

/**
 * foldAlerts records, in one statement, each row whose key the integration has never seen while
 * the integration is in a storm (its limit of new incidents reached within the minute since
 * `stormSince`, its storm incident open): the key is made pointing at the storm and this alert,
 * and the alert is recorded as folded, as the full path's fold does (decision 216). Every other
 * row writes nothing and answers undefined: a known key, an integration not in a storm, or a key
 * regenerated or deleted since the request was let in. Keys are made in one order (integration,
 * then dedup key hash, as everywhere in the intake), so two batches never wait in a circle; a key
 * another transaction is making meanwhile is waited for, then found known. The storm state is
 * read from the statement's snapshot, as the full path's hint is: folding raises nothing, so it
 * needs no integration lock.
 */
export async function foldAlerts(
  db: Db | Tx,
  rows: readonly FoldRow[],
  at: Date,
  stormSince: Date,
): Promise<(FoldHit | undefined)[]> {
  if (rows.length === 0) return [];
  const when = at.toISOString();
  const values = sql.join(
    rows.map(
      (r) =>
        sql`(${r.integrationId}::int, ${r.keyHash}, ${r.dedupKeyHash}, ${r.eventHash}, ${r.alertId}::bigint, ${r.format}, ${r.severity}, ${r.eventEnc}, ${r.payloadEnc}, ${r.payloadCut}::boolean, ${r.unsigned === true}::boolean)`,
    ),
    sql`, `,
  );
  const found = await selectRows<{ alertId: number | string; pageId: number | string }>(
    db,
    sql`with probe (integration_id, key_hash, dedup_key_hash, event_hash, alert_id, format, severity,
                    event_enc, payload_enc, payload_cut, unsigned) as (values ${values}),
        state as (
          select i.id,
                 (select count(*) from ${pages}
                   where integration_id = i.id and created_at > ${stormSince.toISOString()}
                     and not storm) >= i.storm_limit as limit_reached,
                 (select id from ${pages}
                   where integration_id = i.id and storm and status <> 'resolved'
                   order by id desc limit 1) as storm
            from ${integrations} i
           where i.id in (select integration_id from probe)),
        k as (
          insert into ${alertKeys}
            (integration_id, dedup_key_hash, last_seen_at, page_id, last_alert_id, last_event_hash)
          select p.integration_id, p.dedup_key_hash, ${when}, s.storm, p.alert_id, p.event_hash
            from probe p
            join ${integrations} i on i.id = p.integration_id and i.key_hash = p.key_hash
                                  and (not p.unsigned or i.signing_secret_enc is null)
            join state s on s.id = p.integration_id
           where s.limit_reached and s.storm is not null
           order by p.integration_id, p.dedup_key_hash
          on conflict (integration_id, dedup_key_hash) do nothing
          returning integration_id, dedup_key_hash, page_id, last_alert_id)
        insert into ${alerts}
          (id, integration_id, page_id, format, action, outcome, dedup_key_hash, event_hash,
           severity, event_enc, payload_enc, payload_cut, received_at, last_seen_at)
        select p.alert_id, p.integration_id, k.page_id, p.format, 'trigger', 'folded',
               p.dedup_key_hash, p.event_hash, p.severity, p.event_enc, p.payload_enc,
               p.payload_cut, ${when}, ${when}
          from probe p
          join k on k.integration_id = p.integration_id and k.dedup_key_hash = p.dedup_key_hash
                and k.last_alert_id = p.alert_id
        returning id as "alertId", page_id as "pageId"`,
  );
  const hits = new Map(
    found.map((f) => [Number(f.alertId), { alertId: Number(f.alertId), pageId: Number(f.pageId) }]),
  );
  return rows.map((r) => hits.get(r.alertId));
}
