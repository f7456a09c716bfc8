import { and, asc, gt, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { RotationLayer } from '../../../shared/contracts/rotations';
import { KINDS_HANDLING_A_BOUNDARY } from '../../../shared/domain/handoff-flow';
import type { AwayWindow } from '../../../shared/domain/time-off';
import { type Db, selectRows, type Tx } from '../../db/client';
import {
  occurrenceRows,
  type RawSeriesRow,
  reachSql,
  readSeriesRow,
  seriesColumns,
} from '../../db/entry-occurrences';
import { timeOff } from '../../db/schema';

/** The calendar's reads: a fixed number of statements whatever the number of rotations. */

const asDate = (value: Date | string | null): Date | null =>
  value === null ? null : value instanceof Date ? value : new Date(value);

export interface CalendarRotationRow {
  id: number;
  name: string;
  type: 'fixed' | 'scheduled';
  cadence: 'hourly' | 'daily' | 'weekly';
  cadenceEvery: number;
  /** a fixed rotation's layers (decision 247); null otherwise */
  layers: RotationLayer[] | null;
  createdAt: Date;
  suspended: boolean;
  timeZone: string;
  handoffTime: string;
  handoffWeekday: number;
  holderUserId: number | null;
  holderSince: Date | null;
  nextHandoffAt: Date | null;
  /** when the holder last changed in a way that handles a shift boundary */
  lastHandoffAt: Date | null;
  /** whose turn the current shift is (decision 256) */
  turnUserId: number | null;
}

const boundaryKinds = sql.join(
  KINDS_HANDLING_A_BOUNDARY.map((k) => sql`${k}`),
  sql`, `,
);

/** listCalendarRotations returns every rotation (or the one with `id`), by name. */
export async function listCalendarRotations(db: Db, id?: number): Promise<CalendarRotationRow[]> {
  const only: SQL = id === undefined ? sql`` : sql`where r.id = ${id}`;
  const rows = await selectRows<
    Omit<
      CalendarRotationRow,
      'holderSince' | 'nextHandoffAt' | 'lastHandoffAt' | 'layers' | 'createdAt'
    > & {
      layers: RotationLayer[] | string | null;
      createdAt: Date | string;
      holderSince: Date | string | null;
      nextHandoffAt: Date | string | null;
      lastHandoffAt: Date | string | null;
    }
  >(
    db,
    sql`select r.id, r.name, r.type, r.cadence, r.cadence_every as "cadenceEvery",
               case when r.type = 'fixed' then r.layers end as layers,
               r.created_at as "createdAt", r.suspended, r.time_zone as "timeZone",
               r.handoff_time as "handoffTime", r.handoff_weekday as "handoffWeekday",
               r.holder_user_id as "holderUserId", r.holder_since as "holderSince",
               r.next_handoff_at as "nextHandoffAt",
               r.turn_user_id as "turnUserId", lh.occurred_at as "lastHandoffAt"
          from rotations r
          left join lateral (select h.occurred_at from handoffs h
                              where h.rotation_id = r.id and h.kind in (${boundaryKinds})
                              order by h.occurred_at desc, h.id desc limit 1) lh on true
          ${only}
         order by lower(r.name), r.id`,
  );
  return rows.map((r) => ({
    ...r,
    layers: typeof r.layers === 'string' ? JSON.parse(r.layers) : r.layers,
    createdAt: asDate(r.createdAt) as Date,
    holderSince: asDate(r.holderSince),
    nextHandoffAt: asDate(r.nextHandoffAt),
    lastHandoffAt: asDate(r.lastHandoffAt),
  }));
}

export interface WindowRow {
  rotationId: number;
  userId: number;
  requesterId: number | null;
  start: Date;
  end: Date;
}

type RawWindow = Omit<WindowRow, 'start' | 'end'> & { start: Date | string; end: Date | string };
const toWindow = (r: RawWindow): WindowRow => ({
  ...r,
  start: asDate(r.start) as Date,
  end: asDate(r.end) as Date,
});

/** listEntriesOverlapping returns every schedule entry occurrence that overlaps [from, to). */
export async function listEntriesOverlapping(db: Db, from: Date, to: Date): Promise<WindowRow[]> {
  const rows = await selectRows<RawSeriesRow>(
    db,
    sql`select ${seriesColumns('e')} from schedule_entries e
         where e.start_at < ${to} and ${reachSql('e')} > ${from}`,
  );
  return occurrenceRows(rows.map(readSeriesRow), (r) => r.timeZone, from, to).map((r) => ({
    rotationId: r.rotationId,
    userId: r.userId,
    requesterId: null,
    start: r.startAt,
    end: r.endAt,
  }));
}

/** listCoverageOverlapping returns the accepted and running coverage windows that overlap [from, to). */
export async function listCoverageOverlapping(db: Db, from: Date, to: Date): Promise<WindowRow[]> {
  const rows = await selectRows<RawWindow>(
    db,
    sql`select rotation_id as "rotationId", covering_user_id as "userId",
               requester_id as "requesterId", start_at as start, end_at as "end"
          from coverage_requests
         where status in ('accepted', 'active') and start_at < ${to} and end_at > ${from}
         order by start_at, id`,
  );
  return rows.map(toWindow);
}

export interface ChangeRow {
  rotationId: number;
  toUserId: number | null;
  kind: string;
  at: Date;
}

type RawChange = Omit<ChangeRow, 'at'> & { at: Date | string };

/** listChangesBetween returns the handoffs of [from, until), oldest first. */
export async function listChangesBetween(db: Db, from: Date, until: Date): Promise<ChangeRow[]> {
  const rows = await selectRows<RawChange>(
    db,
    sql`select rotation_id as "rotationId", to_user_id as "toUserId", kind, occurred_at as at
          from handoffs where occurred_at >= ${from} and occurred_at < ${until}
         order by occurred_at, id`,
  );
  return rows.map((r) => ({ ...r, at: asDate(r.at) as Date }));
}

/** listHoldersAt returns, per rotation, its latest handoff before `at` (who held the baton then). */
export async function listHoldersAt(db: Db, at: Date): Promise<ChangeRow[]> {
  const rows = await selectRows<RawChange>(
    db,
    sql`select distinct on (rotation_id) rotation_id as "rotationId", to_user_id as "toUserId",
               kind, occurred_at as at
          from handoffs where occurred_at < ${at}
         order by rotation_id, occurred_at desc, id desc`,
  );
  return rows.map((r) => ({ ...r, at: asDate(r.at) as Date }));
}

/** findFeedOwner returns the id of the user whose calendar feed secret hashes to `hash`. */
export async function findFeedOwner(db: Db, hash: string): Promise<number | undefined> {
  const [row] = await selectRows<{ id: number }>(
    db,
    sql`select id from users where calendar_token_hash = ${hash} limit 1`,
  );
  return row?.id;
}

/**
 * listAwayWindows returns the time off of the people (every person's when `userIds` is absent)
 * that ends after `endsAfter` and starts before `startsBefore` (absent: any time), as the turn
 * rule reads it: who, from when, until when; no note. One query.
 */
export async function listAwayWindows(
  db: Db | Tx,
  filter: { userIds?: readonly number[]; endsAfter: Date; startsBefore?: Date },
): Promise<(AwayWindow & { id: number })[]> {
  if (filter.userIds !== undefined && filter.userIds.length === 0) return [];
  return db
    .select({ id: timeOff.id, userId: timeOff.userId, start: timeOff.startAt, end: timeOff.endAt })
    .from(timeOff)
    .where(
      and(
        filter.userIds === undefined ? undefined : inArray(timeOff.userId, [...filter.userIds]),
        gt(timeOff.endAt, filter.endsAfter),
        filter.startsBefore === undefined ? undefined : lt(timeOff.startAt, filter.startsBefore),
      ),
    )
    .orderBy(asc(timeOff.startAt), asc(timeOff.id));
}
