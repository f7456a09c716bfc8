import { TZDate } from '@date-fns/tz';
import { eq } from 'drizzle-orm';
import ical from 'ical-generator';
import type {
  Calendar,
  CalendarFeedLinks,
  CalendarFeedStatus,
  CalendarRotation,
} from '../../../shared/contracts/calendar';
import type { Person } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import {
  type CalendarShift,
  type HeldAtFrom,
  type RotationCalendarInput,
  rotationGaps,
  rotationShifts,
} from '../../../shared/domain/calendar';
import { DEFAULT_HANDOFF_TIMINGS } from '../../../shared/domain/handoff-flow';
import { effectiveRoles } from '../../../shared/domain/roles';
import { canHoldBaton } from '../../../shared/domain/rotation';
import {
  layerWindowsOf,
  patternInWords,
  projectionLayersOf,
} from '../../../shared/domain/rotation-layers';
import { type Span, TIME_OFF_LOOKBACK_MS } from '../../../shared/domain/time-off';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import { hashToken, newBearerSecret } from '../../crypto/bearer-secrets';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { listMembersWithPeople } from '../members/member-reads';
import { personReader } from '../users/person-reader';
import { findUserRows, type PersonRow } from '../users/user-repository';
import {
  type CalendarRotationRow,
  findFeedOwner,
  listAwayWindows,
  listCalendarRotations,
  listChangesBetween,
  listCoverageOverlapping,
  listEntriesOverlapping,
  listHoldersAt,
} from './calendar-repository';
import { vtimezone } from './vtimezone';

export interface CalendarDeps {
  /** the handle reads go through: the app's database, or a transaction's (decision 219) */
  database: Pick<Database, 'db'>;
  cipher: FieldCipher;
  clock: Clock;
  config?: Pick<Config, 'handoffTimings'>;
}

const DAY = 86_400_000;
/** A feed covers the last 30 days and the coming 90. */
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 90;
export const FEED_NOT_FOUND = 'Calendar feed not found';

interface Laid {
  row: CalendarRotationRow;
  /** the rotation's pattern in words */
  pattern: string;
  /** every member, in turn order */
  memberIds: number[];
  shifts: CalendarShift[];
  /** the stretches nobody available holds, from now on (decision 217) */
  gaps: Span[];
  /** who held the baton at `from` and since when, for `from` up to now (decision 226) */
  heldAtFrom: HeldAtFrom | null;
}

/** A member's time off overlapping the span laid out. */
export interface AwayRow {
  id: number;
  userId: number;
  start: Date;
  end: Date;
}

/**
 * layOut computes every rotation's shifts and gaps overlapping [from, to) (or one rotation's)
 * with the shared calendar functions, in a fixed number of statements; answers the people in them
 * too, decrypted once each (none when `viewer` is 'nobody': the engine's look for gaps). The
 * shift-change baselines (decision 219) and cover plans (decision 218) project with it too, in
 * their own transaction (`db`), so they agree with the calendar.
 */
export async function layOut(
  deps: CalendarDeps,
  from: Date,
  to: Date,
  viewer: User | null | 'nobody',
  rotationId?: number,
  db: Db = deps.database.db,
  /** time off not recorded yet, laid out as if it were (the impact of an entry, decision 256) */
  proposed: readonly AwayRow[] = [],
): Promise<{ laid: Laid[]; timeOff: AwayRow[]; people: Map<number, Person> }> {
  const now = deps.clock.now();
  const t = deps.config?.handoffTimings ?? DEFAULT_HANDOFF_TIMINGS;
  const rows = await listCalendarRotations(db, rotationId);
  const ids = new Set(rows.map((r) => r.id));
  const members = await listMembersWithPeople(db, [...ids]);
  const upcoming = new Date(Math.max(from.getTime(), now.getTime()));
  const entries =
    to.getTime() > now.getTime() ? await listEntriesOverlapping(db, upcoming, to) : [];
  const coverage =
    to.getTime() > now.getTime() ? await listCoverageOverlapping(db, upcoming, to) : [];
  const until = new Date(Math.min(now.getTime(), to.getTime()));
  const pastNeeded = from.getTime() < now.getTime();
  const changes = pastNeeded ? await listChangesBetween(db, from, until) : [];
  const holdersAtFrom = pastNeeded ? await listHoldersAt(db, from) : [];
  // Members' time off: what the span shows, and what the turns from each pending boundary go by.
  const pending = rows.flatMap((r) => (r.nextHandoffAt ? [r.nextHandoffAt.getTime()] : []));
  const awayFrom = Math.min(from.getTime(), now.getTime(), ...pending) - TIME_OFF_LOOKBACK_MS;
  const away = [
    ...(await listAwayWindows(db, {
      userIds: [...new Set(members.map((m) => m.member.userId))],
      endsAfter: new Date(awayFrom),
    })),
    ...proposed,
  ];

  const known = new Map<number, PersonRow>(members.map((m) => [m.user.id, m.user]));
  const missing = changes
    .map((c) => c.toUserId)
    .concat(holdersAtFrom.map((h) => h.toUserId))
    .filter((id): id is number => id !== null && !known.has(id));
  if (missing.length > 0) {
    for (const row of await findUserRows(db, missing)) known.set(row.id, row);
  }
  const people = new Map<number, Person>();
  if (viewer !== 'nobody') {
    const readPerson = personReader(deps.cipher, viewer ? [viewer] : []);
    for (const row of known.values()) people.set(row.id, readPerson(row));
  }

  const laid = rows.map((row) => {
    const own = members.filter((m) => m.member.rotationId === row.id);
    const memberIds = own
      .filter((m) => canHoldBaton(effectiveRoles(m.user.roles, m.user.role)))
      .map((m) => m.member.userId);
    const rotationChanges = changes.filter((c) => c.rotationId === row.id);
    const before = holdersAtFrom.find((h) => h.rotationId === row.id);
    // A holder with no recorded handoff at all (set up directly): they hold from when they took it.
    const synthetic =
      !before && rotationChanges.length === 0 && row.holderUserId !== null
        ? [
            {
              at: new Date(Math.max(row.holderSince?.getTime() ?? now.getTime(), from.getTime())),
              toUserId: row.holderUserId,
              kind: 'take',
            },
          ]
        : [];
    // A layered rotation lays out as a scheduled one: the holder keeps the baton until the
    // layers next change, then the layers' stretches rule (decision 247).
    const layers = row.layers ? projectionLayersOf(row, new Set(memberIds)) : null;
    const input: RotationCalendarInput = {
      type: layers ? 'scheduled' : row.type,
      layered: layers !== null,
      suspended: row.suspended,
      pattern: {
        // Hourly turns are a layered rotation's, which lays out from its layers instead.
        cadence: row.cadence === 'weekly' ? 'weekly' : 'daily',
        timeZone: row.timeZone,
        handoffTime: row.handoffTime,
        handoffWeekday: row.handoffWeekday,
      },
      memberIds,
      holderId: row.holderUserId,
      nextBoundary: row.nextHandoffAt,
      lastHandoffAt: row.lastHandoffAt,
      turnUserId: row.turnUserId,
      timeOff: away,
      entries: layers
        ? to.getTime() > now.getTime()
          ? layerWindowsOf(layers, row.timeZone, upcoming, new Date(to.getTime() + DAY))
          : []
        : entries.filter((e) => e.rotationId === row.id),
      coverage: coverage
        .filter((c) => c.rotationId === row.id)
        .map((c) => ({ ...c, requesterId: c.requesterId ?? c.userId })),
      holderAtFrom: before
        ? { userId: before.toUserId, kind: before.kind }
        : { userId: null, kind: null },
      changes: [...synthetic, ...rotationChanges],
    };
    const shifts = rotationShifts(input, from, to, now, t).filter((s) => known.has(s.userId));
    return {
      row,
      pattern: patternInWords(
        row,
        own.map((m) => m.member.userId),
      ),
      memberIds: own.map((m) => m.member.userId),
      shifts,
      gaps: rotationGaps(input, from, to, now, t),
      heldAtFrom: heldAtFromOf(row, from, now, pastNeeded ? (before ?? null) : undefined),
    };
  });
  const timeOff = away.filter(
    (w) =>
      w.start.getTime() < to.getTime() && w.end.getTime() > from.getTime() && known.has(w.userId),
  );
  return { laid, timeOff, people };
}

/**
 * heldAtFromOf returns who held a rotation's baton at `from` and since when: for a past `from`,
 * the handoff before it (`before`; none recorded: the holder set up directly, since holderSince);
 * for `from` at now (`before` not read), the rotation's holder. A later `from` lies in the
 * projection, which records no handoff: null.
 */
function heldAtFromOf(
  row: CalendarRotationRow,
  from: Date,
  now: Date,
  before: { toUserId: number | null; at: Date } | null | undefined,
): HeldAtFrom | null {
  if (from.getTime() > now.getTime()) return null;
  if (before) {
    return before.toUserId === null ? null : { userId: before.toUserId, since: before.at };
  }
  if (row.holderUserId === null || row.holderSince === null) return null;
  if (before === null && row.holderSince.getTime() > from.getTime()) return null;
  return { userId: row.holderUserId, since: row.holderSince };
}

/**
 * projectedShifts returns one rotation's shifts overlapping [from, to) exactly as the calendar
 * lays them out (history, projection, accepted cover), read with `db` (a transaction holding the
 * rotation's lock, for a rule that checks them before writing: decision 218).
 */
export async function projectedShifts(
  deps: CalendarDeps,
  db: Db | Tx,
  rotationId: number,
  from: Date,
  to: Date,
): Promise<CalendarShift[]> {
  const { laid } = await layOut(deps, from, to, null, rotationId, db);
  return laid[0]?.shifts ?? [];
}

const toApiShift = (s: CalendarShift) => ({
  userId: s.userId,
  start: s.start.toISOString(),
  end: s.end.toISOString(),
  source: s.source,
  ...(s.coveredUserId === undefined ? {} : { coveredUserId: s.coveredUserId }),
});

/** getCalendar returns every rotation's shifts in [from, to), and the people in them. */
export async function getCalendar(
  deps: CalendarDeps,
  viewer: User,
  from: Date,
  to: Date,
): Promise<Calendar> {
  const { laid, timeOff, people } = await layOut(deps, from, to, viewer);
  const rotations: CalendarRotation[] = laid.map(({ row, pattern, memberIds, shifts, gaps }) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    cadence: row.cadence,
    pattern,
    memberIds,
    suspended: row.suspended,
    timeZone: row.timeZone,
    shifts: shifts.map(toApiShift),
    gaps: gaps.map((g) => ({ start: g.start.toISOString(), end: g.end.toISOString() })),
  }));
  const seen = new Set([
    ...laid.flatMap((l) => l.shifts.flatMap((s) => [s.userId, s.coveredUserId ?? s.userId])),
    ...timeOff.map((w) => w.userId),
  ]);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    rotations,
    timeOff: timeOff.map((w) => ({
      id: w.id,
      userId: w.userId,
      start: w.start.toISOString(),
      end: w.end.toISOString(),
    })),
    people: [...people.values()].filter((p) => seen.has(p.id)),
  };
}

/** A stretch of a rotation that nobody available holds, with the rotation. */
export interface RotationGap {
  rotation: { id: number; name: string; timeZone: string };
  start: Date;
  end: Date;
}

/**
 * gapsBetween returns every rotation's gaps in [from, to) (or one rotation's), from now on, by
 * the calendar's own projection (decision 217): what the dashboard and the rotation page warn of
 * and what the rotation's managers are told. Nobody's personal data is decrypted.
 */
export async function gapsBetween(
  deps: CalendarDeps,
  from: Date,
  to: Date,
  rotationId?: number,
): Promise<RotationGap[]> {
  const { laid } = await layOut(deps, from, to, 'nobody', rotationId);
  return laid.flatMap(({ row, gaps }) =>
    gaps.map((g) => ({
      rotation: { id: row.id, name: row.name, timeZone: row.timeZone },
      start: g.start,
      end: g.end,
    })),
  );
}

// ---------------------------------------------------------------------------------------------
// Feeds: a per-user secret in the URL; only its SHA-256 is stored (decision 057).

/** feedStatus tells whether the user has feed links. */
export async function feedStatus(deps: CalendarDeps, user: User): Promise<CalendarFeedStatus> {
  const [row] = await deps.database.db
    .select({ hash: users.calendarTokenHash })
    .from(users)
    .where(eq(users.id, user.id));
  return { active: Boolean(row?.hash) };
}

/** resetFeedSecret makes a new feed secret for the user (old links stop working) and answers the links, once. */
export async function resetFeedSecret(
  deps: CalendarDeps,
  user: User,
  baseUrl: string,
): Promise<CalendarFeedLinks> {
  const token = newBearerSecret('calendar-feed');
  await deps.database.db
    .update(users)
    .set({ calendarTokenHash: hashToken(token), updatedAt: deps.clock.now() })
    .where(eq(users.id, user.id));
  const rows = await listCalendarRotations(deps.database.db);
  const base = `${baseUrl.replace(/\/$/, '')}/api/calendar/feeds/${token}`;
  return {
    personalUrl: `${base}/me.ics`,
    rotationUrlTemplate: `${base}/rotations/{rotationId}.ics`,
    rotations: rows.map((r) => ({ id: r.id, name: r.name, url: `${base}/rotations/${r.id}.ics` })),
  };
}

/** feedOwner returns the user a feed secret belongs to, or throws 404 (never 401/403: a bad link is simply not there). */
async function feedOwner(deps: CalendarDeps, token: string): Promise<number> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw notFound(FEED_NOT_FOUND);
  const id = await findFeedOwner(deps.database.db, hashToken(token));
  if (id === undefined) throw notFound(FEED_NOT_FOUND);
  return id;
}

function feedSpan(now: Date) {
  return {
    from: new Date(now.getTime() - FEED_PAST_DAYS * DAY),
    to: new Date(now.getTime() + FEED_FUTURE_DAYS * DAY),
  };
}

function feedCalendar(
  name: string,
  zone: string,
  span: { from: Date; to: Date },
  now: Date,
  events: {
    rotation: CalendarRotationRow;
    shift: CalendarShift;
    summary: string;
    description: string;
  }[],
): string {
  const years = [span.from.getUTCFullYear(), span.to.getUTCFullYear()] as const;
  const calendar = ical({
    name,
    prodId: { company: 'Baton', product: 'On-call rotations', language: 'EN' },
    timezone: { name: zone, generator: (tz) => vtimezone(tz, years[0], years[1]) },
    ttl: 60 * 60,
  });
  for (const { rotation, shift, summary, description } of events) {
    const zoneOf = rotation.timeZone;
    calendar.createEvent({
      id: `baton-${rotation.id}-${shift.userId}-${shift.start.toISOString()}`,
      start: new TZDate(shift.start.getTime(), zoneOf),
      end: new TZDate(shift.end.getTime(), zoneOf),
      timezone: zoneOf,
      stamp: now,
      summary,
      description,
    });
  }
  return calendar.toString();
}

/** personalFeed returns the iCalendar feed of the secret's owner's own shifts in every rotation. */
export async function personalFeed(deps: CalendarDeps, token: string): Promise<string> {
  const ownerId = await feedOwner(deps, token);
  const now = deps.clock.now();
  const span = feedSpan(now);
  const { laid, people } = await layOut(deps, span.from, span.to, null);
  const owner = people.get(ownerId);
  const events = laid.flatMap(({ row, shifts }) =>
    shifts
      .filter((s) => s.userId === ownerId)
      .map((shift) => ({
        rotation: row,
        shift,
        summary: `On call: ${row.name}${shift.source === 'coverage' ? ' (coverage)' : ''}`,
        description: `You hold the baton for ${row.name}. Times are in ${row.timeZone}.`,
      })),
  );
  const zone = events[0]?.rotation.timeZone ?? 'UTC';
  return feedCalendar(`Baton: ${owner?.name ?? 'my'} on-call shifts`, zone, span, now, events);
}

/** rotationFeed returns the iCalendar feed of one rotation's shifts. */
export async function rotationFeed(
  deps: CalendarDeps,
  token: string,
  rotationId: number,
): Promise<string> {
  await feedOwner(deps, token);
  const now = deps.clock.now();
  const span = feedSpan(now);
  const { laid, people } = await layOut(deps, span.from, span.to, null, rotationId);
  const [found] = laid;
  if (!found) throw notFound(FEED_NOT_FOUND);
  const events = found.shifts.map((shift) => {
    const name = people.get(shift.userId)?.name ?? 'Someone';
    return {
      rotation: found.row,
      shift,
      summary: `${found.row.name}: ${name}${shift.source === 'coverage' ? ' (coverage)' : ''}`,
      description: `${name} holds the baton for ${found.row.name}. Times are in ${found.row.timeZone}.`,
    };
  });
  return feedCalendar(`Baton: ${found.row.name}`, found.row.timeZone, span, now, events);
}
