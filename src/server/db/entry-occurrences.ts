import { type SQL, sql } from 'drizzle-orm';
import type { SeriesEntry } from '../../shared/domain/occurrences';
import { occurrencesOf } from '../../shared/domain/occurrences';
import { readRecurrenceRule } from '../../shared/domain/recurrence';
import { scheduleEntries } from './schema';

/**
 * The one way every read of schedule entries sees them (decision 250): SQL keeps the entries that
 * reach a span (a single entry by its own end, a series by its last occurrence's end, a series
 * that never ends always), and occurrenceRows expands them in the rotation's time zone into one
 * copy of the row per occurrence, its startAt and endAt the occurrence's. The engine, the
 * calendar and the on-call answers, the next on call, notices and time off all read through here.
 */

/** A stored entry as read by any query: its first window, its rule and its taken-out starts. */
export interface StoredSeries {
  id: number;
  userId: number;
  startAt: Date;
  endAt: Date;
  recurrence: string | null;
  takenOut: readonly string[];
}

/** seriesOf reads a stored entry for the expansion. */
export function seriesOf(row: StoredSeries): SeriesEntry {
  return {
    userId: row.userId,
    start: row.startAt,
    end: row.endAt,
    recurrence: row.recurrence === null ? null : readRecurrenceRule(row.recurrence),
    takenOut: row.takenOut,
  };
}

/**
 * occurrenceRows returns each occurrence of `rows` sharing an instant with [from, to) as a copy of
 * its row with the occurrence's startAt and endAt, earliest first (then by id).
 */
export function occurrenceRows<R extends StoredSeries>(
  rows: readonly R[],
  timeZoneOf: (row: R) => string,
  from: Date,
  to: Date,
): R[] {
  return rows
    .flatMap((row) =>
      occurrencesOf(seriesOf(row), timeZoneOf(row), from, to).map((o) => ({
        ...row,
        startAt: o.start,
        endAt: o.end,
      })),
    )
    .sort((a, b) => a.startAt.getTime() - b.startAt.getTime() || a.id - b.id);
}

/** The instant after which an entry has no occurrence: a single entry's end, a series' last end, or infinity. */
export const reachSql = (alias: string): SQL =>
  sql.raw(
    `coalesce(${alias}.series_end_at, case when ${alias}.recurrence is null then ${alias}.end_at else 'infinity'::timestamptz end)`,
  );

/** The same on the drizzle table (for queries written with the builder). */
export const reachOfEntries: SQL = sql`coalesce(${scheduleEntries.seriesEndAt}, case when ${scheduleEntries.recurrence} is null then ${scheduleEntries.endAt} else 'infinity'::timestamptz end)`;

/** The columns a raw query selects from schedule entries `alias` for occurrenceRows. */
export const seriesColumns = (alias: string): SQL =>
  sql.raw(
    `${alias}.id, ${alias}.rotation_id as "rotationId", ${alias}.user_id as "userId", ${alias}.start_at as "startAt", ${alias}.end_at as "endAt", ${alias}.recurrence, ${alias}.taken_out as "takenOut", (select time_zone from rotations tz where tz.id = ${alias}.rotation_id) as "timeZone"`,
  );

/** A row of seriesColumns as the driver answers it. */
export interface RawSeriesRow {
  id: number;
  rotationId: number;
  userId: number;
  startAt: Date | string;
  endAt: Date | string;
  recurrence: string | null;
  takenOut: string[] | string;
  timeZone: string;
}

/** A row of seriesColumns, read. */
export type SeriesRow = StoredSeries & { rotationId: number; timeZone: string };

/** readSeriesRow turns a raw row into dates and a list (JSON arrives as text on some paths). */
export function readSeriesRow(r: RawSeriesRow): SeriesRow {
  return {
    ...r,
    startAt: new Date(r.startAt),
    endAt: new Date(r.endAt),
    takenOut: typeof r.takenOut === 'string' ? JSON.parse(r.takenOut) : r.takenOut,
  };
}
