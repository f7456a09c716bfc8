import { asc, inArray, type SQL, sql } from 'drizzle-orm';
import type { RotationLayer } from '../../../shared/contracts/rotations';
import {
  type HandoffFlowTimings,
  KINDS_HANDLING_A_BOUNDARY,
} from '../../../shared/domain/handoff-flow';
import { effectiveRoles } from '../../../shared/domain/roles';
import { canHoldBaton } from '../../../shared/domain/rotation';
import {
  isLayered,
  layerWindowsOf,
  projectionLayersOf,
} from '../../../shared/domain/rotation-layers';
import type { TimeWindow } from '../../../shared/domain/shifts';
import { type AwayWindow, TIME_OFF_LOOKBACK_MS } from '../../../shared/domain/time-off';
import { type Db, selectRows, type Tx } from '../../db/client';
import {
  occurrenceRows,
  type RawSeriesRow,
  reachSql,
  readSeriesRow,
  type StoredSeries,
  seriesColumns,
} from '../../db/entry-occurrences';
import { rotations } from '../../db/schema';
import {
  listMemberRoleRows,
  type MemberRoleJson,
  memberRoleRowsOfRotation,
} from '../members/member-reads';
import type { RotationRow } from '../rotations/rotation-repository';

/**
 * The engine's reads. Each task finds what is due in one statement over every rotation (the
 * index on next_handoff_at keeps it cheap), then works on each due rotation in its own
 * transaction, re-reading it under a row lock taken with SKIP LOCKED: two engines never work on
 * the same rotation at once, and one never waits for the other.
 */

const asDate = (value: Date | string | null): Date | null =>
  value === null ? null : value instanceof Date ? value : new Date(value);

/** lockRotationOrSkip locks a rotation row for this transaction, or answers undefined when another holds it. */
export async function lockRotationOrSkip(tx: Tx, id: number): Promise<RotationRow | undefined> {
  const [row] = await lockRotationsOrSkip(tx, [id]);
  return row;
}

/** lockRotationsOrSkip: lockRotationOrSkip of several rotations in one statement, in id order. */
export function lockRotationsOrSkip(tx: Tx, ids: readonly number[]): Promise<RotationRow[]> {
  return tx
    .select()
    .from(rotations)
    .where(inArray(rotations.id, [...ids]))
    .orderBy(asc(rotations.id))
    .for('update', { skipLocked: true });
}

/** A member as the engine reads them: whether they can hold the baton, and their own notice lead. */
export interface EngineMember {
  userId: number;
  canHold: boolean;
  reminderMinutes: number;
}

/** What the fixed-rotation flow plans from. */
export interface FixedFlowRow {
  id: number;
  name: string;
  cadence: 'daily' | 'weekly';
  timeZone: string;
  handoffTime: string;
  handoffWeekday: number;
  holderUserId: number | null;
  nextHandoffAt: Date;
  members: EngineMember[];
  /** when the holder last changed in a way that handles a boundary */
  lastHandoffAt: Date | null;
  /** whose turn the current shift is (decision 256) */
  turnUserId: number | null;
  /** the members' time off from the shift before the pending boundary on (decision 217) */
  timeOff: AwayWindow[];
  /** a coverage window is running: the covering member holds the baton, the flow waits */
  coverageActive: boolean;
}

/** jsonArray reads a JSON column: parsed already by node-postgres, text on some paths. */
const jsonArray = <T>(value: T[] | string): T[] =>
  typeof value === 'string' ? (JSON.parse(value) as T[]) : value;

/** toEngineMember reads a member's rights and notice lead from their roles and settings. */
const toEngineMember = (m: MemberRoleJson): EngineMember => ({
  userId: m.userId,
  canHold: canHoldBaton(effectiveRoles(m.roles, m.role)),
  reminderMinutes: m.reminderMinutes,
});

/**
 * The time off of rotation `r`'s members that ends after the shift before its pending boundary
 * begins (TIME_OFF_LOOKBACK_MS), as a JSON array of RawWindow (a select-list item).
 */
const membersTimeOff = sql`coalesce((select json_agg(json_build_object('userId', t.user_id,
      'start', t.start_at, 'end', t.end_at) order by t.start_at, t.id)
    from time_off t
   where t.user_id in (select m.user_id from rotation_members m where m.rotation_id = r.id)
     and t.end_at > r.next_handoff_at - ${TIME_OFF_LOOKBACK_MS / 1000}::int * interval '1 second'),
  '[]'::json)`;

const boundaryKinds = sql.join(
  KINDS_HANDLING_A_BOUNDARY.map((k) => sql`${k}`),
  sql`, `,
);

/**
 * listFixedFlowRows returns the active fixed rotations whose next boundary is at or before
 * `horizon` (one statement), or just the rotations `ids`, locked first (`for update skip locked`:
 * a rotation another transaction holds is left out) and then read.
 */
export async function listFixedFlowRows(
  db: Db | Tx,
  horizon: Date,
  ids?: readonly number[],
): Promise<FixedFlowRow[]> {
  let only: SQL = sql``;
  if (ids !== undefined) {
    // The rotations are read under their row locks, skipped when another engine holds one. The
    // lock is taken by a statement of its own: in READ COMMITTED a `for update` that waited for
    // a pass to commit returns the row as the pass left it, but the same statement's subqueries
    // (the latest handoff, the members) still see the snapshot from before the pass, and the
    // engine would hand over a boundary the pass had already handled. The read below starts
    // after the lock is held, so it sees everything committed before.
    const locked = await selectRows<{ id: number }>(
      db,
      sql`select id from rotations where id = any(${sql.param(ids)}::int[])
           order by id for update skip locked`,
    );
    if (locked.length === 0) return [];
    only = sql`and r.id = any(${sql.param(locked.map((r) => r.id))}::int[])`;
  }
  const order: SQL = ids === undefined ? sql`order by r.next_handoff_at, r.id` : sql``;
  const rows = await selectRows<{
    id: number;
    name: string;
    cadence: 'daily' | 'weekly';
    timeZone: string;
    handoffTime: string;
    handoffWeekday: number;
    holderUserId: number | null;
    nextHandoffAt: Date | string;
    members: MemberRoleJson[] | string;
    lastHandoffAt: Date | string | null;
    turnUserId: number | null;
    timeOff: RawWindow[] | string;
    coverageActive: boolean;
  }>(
    db,
    sql`select r.id, r.name, r.cadence, r.time_zone as "timeZone", r.handoff_time as "handoffTime",
               r.handoff_weekday as "handoffWeekday", r.holder_user_id as "holderUserId",
               r.next_handoff_at as "nextHandoffAt",
               ${memberRoleRowsOfRotation} as members,
               (select max(h.occurred_at) from handoffs h
                 where h.rotation_id = r.id and h.kind in (${boundaryKinds})) as "lastHandoffAt",
               r.turn_user_id as "turnUserId",
               ${membersTimeOff} as "timeOff",
               exists (select 1 from coverage_requests c
                        where c.rotation_id = r.id and c.status = 'active') as "coverageActive"
          from rotations r
         where r.type = 'fixed' and r.layers is null and not r.suspended
           and r.next_handoff_at <= ${horizon} ${only}
         ${order}`,
  );
  return rows.map((r) => ({
    ...r,
    nextHandoffAt: asDate(r.nextHandoffAt) as Date,
    lastHandoffAt: asDate(r.lastHandoffAt),
    timeOff: jsonArray(r.timeOff).map((w) => ({
      userId: w.userId,
      start: new Date(w.start),
      end: new Date(w.end),
    })),
    members: jsonArray(r.members).map(toEngineMember),
  }));
}

/** listDueScheduledRotations returns the ids of active scheduled or layered rotations with a change due at `now`. */
export async function listDueScheduledRotations(db: Db | Tx, now: Date): Promise<number[]> {
  const rows = await selectRows<{ id: number }>(
    db,
    sql`select id from rotations
         where (type = 'scheduled' or layers is not null) and not suspended
           and next_handoff_at <= ${now}
         order by next_handoff_at, id`,
  );
  return rows.map((r) => r.id);
}

/** What a scheduled rotation's handoff notices are planned from. */
export interface ScheduleNoticeRow {
  id: number;
  name: string;
  holderUserId: number | null;
  timeZone: string;
  /** a layered rotation's layers (decision 247); null for a scheduled rotation */
  layers: RotationLayer[] | null;
  /** a scheduled rotation's entries ending at or after now and starting by the horizon */
  entries: { userId: number; start: Date; end: Date }[];
  /** running coverage windows */
  running: { userId: number; start: Date; end: Date }[];
  members: EngineMember[];
}

type RawWindow = { userId: number; start: string; end: string };
type RawEntry = Omit<StoredSeries, 'startAt' | 'endAt'> & { startAt: string; endAt: string };

/**
 * listScheduleNoticeRows returns the active scheduled rotations with an entry starting or ending
 * in (now, horizon], each with those entries, and the active layered rotations whose layers next
 * change in (now, horizon], each with its layers; each with its running coverage and its members
 * (one statement), or just rotation `id`, locked first (`for update skip locked`: nothing when another
 * transaction holds it) and then read.
 */
export async function listScheduleNoticeRows(
  db: Db | Tx,
  now: Date,
  horizon: Date,
  id?: number,
): Promise<ScheduleNoticeRow[]> {
  if (id !== undefined) {
    // Locked by a statement of its own, then read: see listFixedFlowRows.
    const locked = await selectRows<{ id: number }>(
      db,
      sql`select id from rotations where id = ${id} for update skip locked`,
    );
    if (locked.length === 0) return [];
  }
  const only: SQL = id === undefined ? sql`` : sql`and r.id = ${id}`;
  const rows = await selectRows<{
    id: number;
    name: string;
    holderUserId: number | null;
    timeZone: string;
    layers: RotationLayer[] | string | null;
    entries: RawEntry[] | string;
    running: RawWindow[] | string;
    members: MemberRoleJson[] | string;
  }>(
    db,
    sql`select r.id, r.name, r.holder_user_id as "holderUserId", r.time_zone as "timeZone",
               case when r.type = 'fixed' then r.layers end as layers,
               coalesce((select json_agg(json_build_object('id', e.id, 'userId', e.user_id,
                                 'startAt', e.start_at, 'endAt', e.end_at,
                                 'recurrence', e.recurrence, 'takenOut', e.taken_out)
                                 order by e.start_at, e.id)
                           from schedule_entries e
                          where e.rotation_id = r.id and ${reachSql('e')} >= ${now}
                            and e.start_at <= ${horizon}), '[]'::json) as entries,
               coalesce((select json_agg(json_build_object('userId', c.covering_user_id,
                                 'start', c.start_at, 'end', c.end_at))
                           from coverage_requests c
                          where c.rotation_id = r.id and c.status = 'active'), '[]'::json) as running,
               ${memberRoleRowsOfRotation} as members
          from rotations r
         where not r.suspended ${only}
           and ((r.type = 'scheduled'
                 and exists (select 1 from schedule_entries e
                              where e.rotation_id = r.id and e.start_at <= ${horizon}
                                and ${reachSql('e')} > ${now}))
             or (r.type = 'fixed' and r.layers is not null
                 and r.next_handoff_at > ${now} and r.next_handoff_at <= ${horizon}))
         order by r.id`,
  );
  const windows = (value: RawWindow[] | string) =>
    jsonArray(value).map((w) => ({
      userId: w.userId,
      start: new Date(w.start),
      end: new Date(w.end),
    }));
  // A series is expanded here (decision 250): its occurrences ending at or after now and
  // starting by the horizon; a rotation none of whose occurrences starts or ends in (now,
  // horizon] has nothing to tell.
  const inHorizon = (t: Date) => t.getTime() > now.getTime() && t.getTime() <= horizon.getTime();
  return rows
    .map((r) => ({
      id: r.id,
      name: r.name,
      holderUserId: r.holderUserId,
      timeZone: r.timeZone,
      layers: typeof r.layers === 'string' ? JSON.parse(r.layers) : r.layers,
      entries: occurrenceRows(
        jsonArray(r.entries).map((e) => ({
          ...e,
          startAt: new Date(e.startAt),
          endAt: new Date(e.endAt),
        })),
        () => r.timeZone,
        new Date(now.getTime() - 1),
        new Date(horizon.getTime() + 1),
      ).map((e) => ({ userId: e.userId, start: e.startAt, end: e.endAt })),
      running: windows(r.running),
      members: jsonArray(r.members).map(toEngineMember),
    }))
    .filter((r) => r.layers || r.entries.some((e) => inHorizon(e.start) || inHorizon(e.end)));
}

/** A fixed rotation's new holder and next boundary, as the handoff flow writes them. */
export interface FlowRowUpdate {
  id: number;
  holderUserId?: number;
  holderSince?: Date;
  nextHandoffAt?: Date;
  /** whose turn the shift now under way is (decision 256) */
  turnUserId?: number;
}

/**
 * updateFlowRows writes the rotations' new holders and next boundaries in one statement; a
 * value left out keeps the rotation's own.
 */
export async function updateFlowRows(tx: Tx, updates: FlowRowUpdate[], now: Date): Promise<void> {
  if (updates.length === 0) return;
  const column = <T>(pick: (u: FlowRowUpdate) => T | undefined) =>
    sql.param(updates.map((u) => pick(u) ?? null));
  const isoOf = (d: Date | undefined) => d?.toISOString();
  await tx.execute(sql`
    update rotations r
       set holder_user_id = coalesce(v.holder_user_id, r.holder_user_id),
           holder_since = coalesce(v.holder_since, r.holder_since),
           next_handoff_at = coalesce(v.next_handoff_at, r.next_handoff_at),
           turn_user_id = coalesce(v.turn_user_id, r.turn_user_id),
           updated_at = ${now}
      from unnest(${column((u) => u.id)}::int[], ${column((u) => u.holderUserId)}::int[],
                  ${column((u) => isoOf(u.holderSince))}::timestamptz[],
                  ${column((u) => isoOf(u.nextHandoffAt))}::timestamptz[],
                  ${column((u) => u.turnUserId)}::int[])
           as v(id, holder_user_id, holder_since, next_handoff_at, turn_user_id)
     where r.id = v.id`);
}

/** A schedule entry or coverage window as the engine reads it. */
export interface EngineWindow {
  id: number;
  userId: number;
  start: Date;
  end: Date;
}

/**
 * listNamedWindowsFrom returns who a scheduled or layered rotation names over [from, to): its
 * schedule entries' occurrences, or its layers' stretches (their turn orders kept to `eligible`,
 * decision 247).
 */
export async function listNamedWindowsFrom(
  tx: Tx,
  rotation: RotationRow,
  eligible: ReadonlySet<number>,
  from: Date,
  to: Date,
): Promise<TimeWindow[]> {
  if (!isLayered(rotation)) return listEntriesEndingFrom(tx, rotation, from, to);
  return layerWindowsOf(projectionLayersOf(rotation, eligible), rotation.timeZone, from, to);
}

/**
 * listEntriesEndingFrom returns the occurrences of a rotation's schedule entries that end at or
 * after `from` and start before `to`, earliest first.
 */
export async function listEntriesEndingFrom(
  tx: Tx,
  rotation: { id: number; timeZone: string },
  from: Date,
  to: Date,
): Promise<EngineWindow[]> {
  const rows = await selectRows<RawSeriesRow>(
    tx,
    sql`select ${seriesColumns('e')} from schedule_entries e
         where e.rotation_id = ${rotation.id} and ${reachSql('e')} >= ${from}
           and e.start_at < ${to}`,
  );
  return occurrenceRows(
    rows.map(readSeriesRow),
    () => rotation.timeZone,
    new Date(from.getTime() - 1),
    to,
  ).map((r) => ({ id: r.id, userId: r.userId, start: r.startAt, end: r.endAt }));
}

/** listRunningCoverage returns a rotation's running (active) coverage windows. */
export async function listRunningCoverage(tx: Tx, rotationId: number): Promise<EngineWindow[]> {
  return (await listRunningCoverageOf(tx, [rotationId])).get(rotationId) ?? [];
}

/** listRunningCoverageOf: listRunningCoverage of several rotations in one statement, by rotation. */
export async function listRunningCoverageOf(
  tx: Tx,
  rotationIds: readonly number[],
): Promise<Map<number, EngineWindow[]>> {
  const rows = await selectRows<{
    id: number;
    rotationId: number;
    userId: number;
    start: Date | string;
    end: Date | string;
  }>(
    tx,
    sql`select id, rotation_id as "rotationId", covering_user_id as "userId",
               start_at as start, end_at as "end"
          from coverage_requests
         where rotation_id = any(${sql.param([...rotationIds])}::int[]) and status = 'active'`,
  );
  const byRotation = new Map<number, EngineWindow[]>();
  for (const { rotationId, ...r } of rows) {
    const window = { ...r, start: asDate(r.start) as Date, end: asDate(r.end) as Date };
    byRotation.set(rotationId, [...(byRotation.get(rotationId) ?? []), window]);
  }
  return byRotation;
}

/** listMembers returns a rotation's members in order, with whether each can hold the baton. */
export async function listEngineMembers(tx: Db | Tx, rotationId: number): Promise<EngineMember[]> {
  return (await listEngineMembersOf(tx, [rotationId])).get(rotationId) ?? [];
}

/** listEngineMembersOf: listEngineMembers of several rotations in one statement, by rotation. */
export async function listEngineMembersOf(
  tx: Db | Tx,
  rotationIds: readonly number[],
): Promise<Map<number, EngineMember[]>> {
  const byRotation = new Map<number, EngineMember[]>();
  for (const m of await listMemberRoleRows(tx, rotationIds)) {
    const member = toEngineMember({
      userId: m.member.userId,
      roles: m.roles,
      role: m.role,
      reminderMinutes: m.handoffReminderMinutes,
    });
    byRotation.set(m.member.rotationId, [...(byRotation.get(m.member.rotationId) ?? []), member]);
  }
  return byRotation;
}

/** listDueCoverage returns the coverage windows of active rotations due to start or end at `now`. */
export async function listDueCoverage(
  db: Db | Tx,
  now: Date,
): Promise<{ id: number; rotationId: number }[]> {
  return selectRows<{ id: number; rotationId: number }>(
    db,
    sql`select c.id, c.rotation_id as "rotationId"
          from coverage_requests c join rotations r on r.id = c.rotation_id
         where not r.suspended
           and ((c.status = 'accepted' and c.start_at <= ${now})
             or (c.status = 'active' and c.end_at <= ${now}))
         order by least(c.start_at, c.end_at), c.id`,
  );
}

/**
 * The moments the rotation tasks next have work, after `now` (null: none), for the engine to wake
 * then (decisions 275 and 278); each one statement. Work due at or before `now` is the tick's.
 */
const firstAfter = async (db: Db | Tx, query: SQL): Promise<Date | null> => {
  const [row] = await selectRows<{ ms: number | null }>(
    db,
    sql`select (extract(epoch from min(x.at)) * 1000)::float8 as ms from (${query}) x`,
  );
  return row?.ms == null ? null : new Date(Number(row.ms));
};

/** nextCoverageDueAt: the earliest start of an accepted coverage window, or end of one, after `now`. */
export function nextCoverageDueAt(db: Db | Tx, now: Date): Promise<Date | null> {
  return firstAfter(
    db,
    sql`select least(case when c.start_at > ${now} then c.start_at end,
                     case when c.end_at > ${now} then c.end_at end) as at
          from coverage_requests c join rotations r on r.id = c.rotation_id
         where not r.suspended and c.status in ('accepted', 'active')`,
  );
}

/** nextScheduledChangeAt: the earliest next change of an active scheduled or layered rotation after `now`. */
export function nextScheduledChangeAt(db: Db | Tx, now: Date): Promise<Date | null> {
  return firstAfter(
    db,
    sql`select next_handoff_at as at from rotations
         where (type = 'scheduled' or layers is not null) and not suspended
           and next_handoff_at > ${now}`,
  );
}

/**
 * nextFixedFlowAt: the earliest moment after `now` of a fixed rotation's flow for its next
 * boundary, by the server's timings: the notice before it, the boundary, the escalation after it
 * and the automatic transfer. Personal notice leads (a member's own reminder) are not among them:
 * those notices keep the interval.
 */
export function nextFixedFlowAt(
  db: Db | Tx,
  now: Date,
  t: HandoffFlowTimings,
): Promise<Date | null> {
  const ms = (n: number) => sql`make_interval(secs => ${n / 1000})`;
  return firstAfter(
    db,
    sql`select v.at from rotations r
          cross join lateral (values (r.next_handoff_at - ${ms(t.noticeBeforeMs)}),
                                     (r.next_handoff_at),
                                     (r.next_handoff_at + ${ms(t.escalateAfterMs)}),
                                     (r.next_handoff_at + ${ms(t.autoTransferAfterMs)})) v(at)
         where r.type = 'fixed' and r.layers is null and not r.suspended and v.at > ${now}`,
  );
}

/** The latest handoff of a rotation while its receiver holds the baton and has not acknowledged it. */
export interface AwaitingHandoff {
  id: number;
  rotationId: number;
  rotationName: string;
  fromUserId: number | null;
  toUserId: number;
  urgent: boolean;
  occurredAt: Date;
}

/**
 * listOverdueAcknowledgements returns, per active rotation, its latest handoff when the receiver
 * still holds the baton, has not acknowledged it, and it happened at or before `occurredBy`
 * (one statement; a lateral read of each rotation's latest handoff by index), or just rotation `id`.
 */
export async function listOverdueAcknowledgements(
  db: Db | Tx,
  occurredBy: Date,
  id?: number,
): Promise<AwaitingHandoff[]> {
  const only: SQL = id === undefined ? sql`` : sql`and r.id = ${id}`;
  const rows = await selectRows<AwaitingHandoff & { occurredAt: Date | string }>(
    db,
    sql`select h.id, r.id as "rotationId", r.name as "rotationName", h.from_user_id as "fromUserId",
               h.to_user_id as "toUserId", h.urgent, h.occurred_at as "occurredAt"
          from rotations r
          join lateral (select * from handoffs x where x.rotation_id = r.id
                         order by x.occurred_at desc, x.id desc limit 1) h on true
         where not r.suspended and h.status = 'success' and h.acknowledged_at is null
           and h.kind <> 'take' and h.to_user_id = r.holder_user_id
           and h.occurred_at <= ${occurredBy} ${only}
         order by h.occurred_at, h.id`,
  );
  return rows.map((r) => ({ ...r, occurredAt: asDate(r.occurredAt) as Date }));
}
