import { createHash, randomBytes } from 'node:crypto';
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
import { type CalendarShift, rotationShifts } from '../../../shared/domain/calendar';
import { DEFAULT_HANDOFF_TIMINGS } from '../../../shared/domain/handoff-flow';
import { effectiveRoles } from '../../../shared/domain/roles';
import { canHoldBaton } from '../../../shared/domain/rotation';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { notFound } from '../../http/errors';
import { listMembersWithUsers } from '../rotations/rotation-repository';
import { personReader } from '../rotations/rotation-view';
import { findUserRows } from '../users/user-repository';
import {
  type CalendarRotationRow,
  findFeedOwner,
  listCalendarRotations,
  listChangesBetween,
  listCoverageOverlapping,
  listEntriesOverlapping,
  listHoldersAt,
} from './calendar-repository';
import { vtimezone } from './vtimezone';

export interface CalendarDeps {
  database: Database;
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
  shifts: CalendarShift[];
}

/**
 * layOut computes every rotation's shifts overlapping [from, to) (or one rotation's) with the
 * shared calendar functions, in a fixed number of statements; answers the people in them too.
 */
async function layOut(
  deps: CalendarDeps,
  from: Date,
  to: Date,
  viewer: User | null,
  rotationId?: number,
): Promise<{ laid: Laid[]; people: Map<number, Person> }> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const t = deps.config?.handoffTimings ?? DEFAULT_HANDOFF_TIMINGS;
  const rows = await listCalendarRotations(db, rotationId);
  const ids = new Set(rows.map((r) => r.id));
  const members = await listMembersWithUsers(db, [...ids]);
  const upcoming = new Date(Math.max(from.getTime(), now.getTime()));
  const entries =
    to.getTime() > now.getTime() ? await listEntriesOverlapping(db, upcoming, to) : [];
  const coverage =
    to.getTime() > now.getTime() ? await listCoverageOverlapping(db, upcoming, to) : [];
  const until = new Date(Math.min(now.getTime(), to.getTime()));
  const pastNeeded = from.getTime() < now.getTime();
  const changes = pastNeeded ? await listChangesBetween(db, from, until) : [];
  const holdersAtFrom = pastNeeded ? await listHoldersAt(db, from) : [];

  const readPerson = personReader(deps.cipher, viewer ? [viewer] : []);
  const people = new Map<number, Person>();
  for (const m of members) people.set(m.user.id, readPerson(m.user));
  const missing = changes
    .map((c) => c.toUserId)
    .concat(holdersAtFrom.map((h) => h.toUserId))
    .filter((id): id is number => id !== null && !people.has(id));
  if (missing.length > 0) {
    for (const row of await findUserRows(db, missing)) people.set(row.id, readPerson(row));
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
    const shifts = rotationShifts(
      {
        type: row.type,
        suspended: row.suspended,
        pattern: {
          cadence: row.cadence,
          timeZone: row.timeZone,
          handoffTime: row.handoffTime,
          handoffWeekday: row.handoffWeekday,
        },
        memberIds,
        holderId: row.holderUserId,
        nextBoundary: row.nextHandoffAt,
        lastHandoffAt: row.lastHandoffAt,
        entries: entries.filter((e) => e.rotationId === row.id),
        coverage: coverage
          .filter((c) => c.rotationId === row.id)
          .map((c) => ({ ...c, requesterId: c.requesterId ?? c.userId })),
        holderAtFrom: before
          ? { userId: before.toUserId, kind: before.kind }
          : { userId: null, kind: null },
        changes: [...synthetic, ...rotationChanges],
      },
      from,
      to,
      now,
      t,
    ).filter((s) => people.has(s.userId));
    return { row, shifts };
  });
  return { laid, people };
}

const toApiShift = (s: CalendarShift) => ({
  userId: s.userId,
  start: s.start.toISOString(),
  end: s.end.toISOString(),
  source: s.source,
});

/** getCalendar returns every rotation's shifts in [from, to), and the people in them. */
export async function getCalendar(
  deps: CalendarDeps,
  viewer: User,
  from: Date,
  to: Date,
): Promise<Calendar> {
  const { laid, people } = await layOut(deps, from, to, viewer);
  const rotations: CalendarRotation[] = laid.map(({ row, shifts }) => ({
    id: row.id,
    name: row.name,
    type: row.type,
    cadence: row.cadence,
    suspended: row.suspended,
    timeZone: row.timeZone,
    shifts: shifts.map(toApiShift),
  }));
  const seen = new Set(laid.flatMap((l) => l.shifts.map((s) => s.userId)));
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    rotations,
    people: [...people.values()].filter((p) => seen.has(p.id)),
  };
}

// ---------------------------------------------------------------------------------------------
// Feeds: a per-user secret in the URL; only its SHA-256 is stored (decision 057).

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

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
  const token = randomBytes(32).toString('base64url');
  await deps.database.db
    .update(users)
    .set({ calendarTokenHash: hashOf(token), updatedAt: deps.clock.now() })
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
  const id = await findFeedOwner(deps.database.db, hashOf(token));
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
