import {
  type TeamTimeOff,
  TIME_OFF_IMPACT_DAYS,
  type TimeOffEntry,
  type TimeOffImpact,
  type TimeOffInput,
  type TimeOffList,
  type TimeOffWarnings,
} from '../../../shared/contracts/time-off';
import type { User } from '../../../shared/contracts/users';
import { managesRotation } from '../../../shared/domain/permissions-rotation';
import { hasRole, isAdmin } from '../../../shared/domain/roles';
import {
  type AwayWindow,
  canManageTimeOff,
  GAP_WARNING_DAYS,
  scheduleCollisions,
  TIME_OFF_MESSAGES,
  timeOffImpact,
  timeOffRefusal,
} from '../../../shared/domain/time-off';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Db, Tx } from '../../db/client';
import { AppError, conflict, forbidden, notFound } from '../../http/errors';
import { recordAdminEvent } from '../audit/people-events';
import { listAwayWindows } from '../calendar/calendar-repository';
import { gapsBetween, layOut } from '../calendar/calendar-service';
import { announce } from '../notifications/announce';
import { formatWhen } from '../notifications/message-layout';
import { listRotationFactsOf, type RotationFacts } from '../rotations/rotation-repository';
import { listUpcomingEntries } from '../schedules/schedule-repository';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { findUserRows, lockUserRow, toUser } from '../users/user-repository';
import {
  deleteTimeOffRow,
  endTimeOffAt,
  findTimeOffRow,
  insertTimeOffRow,
  listOverlappingTimeOff,
  listTimeOffOf,
  listTimeOffOfPeople,
  type TimeOffRow,
  timeOffNoteCtx,
} from './time-off-repository';

/**
 * Time off (issue 18, decision 217): a person records it, a manager for the members of their
 * rotations, an administrator for anyone. Each change is one transaction, with the person's row
 * locked so two overlapping entries cannot both pass the check. The note is sealed at rest.
 */

export interface TimeOffDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  config?: Pick<Config, 'handoffTimings'> & Partial<Pick<Config, 'publicUrl' | 'port'>>;
}

const DAY = 86_400_000;

/** mayManage tells whether the actor may read and change the person's time off (canManageTimeOff). */
async function mayManage(db: Db | Tx, actor: User, personId: number): Promise<boolean> {
  const isManager = hasRole(actor.roles, 'manager');
  const facts = { id: actor.id, isAdmin: isAdmin(actor.roles), isManager };
  if (canManageTimeOff(facts, personId, false)) return true;
  if (!isManager) return false;
  const theirs = await listRotationFactsOf(db, personId);
  return canManageTimeOff(
    facts,
    personId,
    theirs.some((r) => managesRotation(actor, r)),
  );
}

/** requireManageable throws 404 for no such person, 403 when the actor may not manage their time off. */
async function requireManageable(
  db: Db | Tx,
  actor: User,
  personId: number,
  exists: boolean,
): Promise<void> {
  if (!exists) throw notFound(TIME_OFF_MESSAGES.personNotFound);
  if (!(await mayManage(db, actor, personId))) throw forbidden(TIME_OFF_MESSAGES.notAllowed);
}

/** toEntries answers rows as the API reads them: notes opened, who recorded them named. */
async function toEntries(
  deps: TimeOffDeps,
  db: Db | Tx,
  rows: readonly TimeOffRow[],
): Promise<TimeOffEntry[]> {
  const recorders = [
    ...new Set(
      rows
        .filter((r) => r.createdById !== null && r.createdById !== r.userId)
        .map((r) => r.createdById as number),
    ),
  ];
  const names = new Map(
    (await findUserRows(db, recorders)).map((u) => [u.id, toUser(u, deps.cipher).name]),
  );
  return rows.map((row) => {
    const recorder =
      row.createdById !== null && row.createdById !== row.userId ? row.createdById : null;
    const name = recorder === null ? undefined : names.get(recorder);
    return {
      id: row.id,
      userId: row.userId,
      startTime: row.startAt.toISOString(),
      endTime: row.endAt.toISOString(),
      note: row.noteEnc === null ? null : deps.cipher.decrypt(row.noteEnc, timeOffNoteCtx(row.id)),
      recordedBy: recorder !== null && name !== undefined ? { id: recorder, name } : null,
      createdAt: row.createdAt.toISOString(),
    };
  });
}

/**
 * listTimeOff returns a person's time off under way or to come, earliest first: to the person,
 * the managers of their rotations and administrators (403 for anyone else, 404 for nobody).
 */
export async function listTimeOff(
  deps: TimeOffDeps,
  actor: User,
  personId: number,
): Promise<TimeOffList> {
  const db = deps.database.db;
  const [person] = await findUserRows(db, [personId]);
  await requireManageable(db, actor, personId, person !== undefined);
  const rows = await listTimeOffOf(db, personId, deps.clock.now());
  return { entries: await toEntries(deps, db, rows) };
}

/** refuseTimeOff throws the refusal of new time off [start, end) for the person, if any (timeOffRefusal). */
async function refuseTimeOff(
  db: Db | Tx,
  actor: User,
  personId: number,
  start: Date,
  end: Date,
  now: Date,
): Promise<void> {
  const existing = await listOverlappingTimeOff(db, personId, start, end);
  const refusal = timeOffRefusal(
    { start, end },
    existing.map((e) => ({ start: e.startAt, end: e.endAt })),
    now,
    (s) => ({
      start: formatWhen(s.start, actor.timezone),
      end: formatWhen(s.end, actor.timezone),
    }),
  );
  if (refusal) {
    throw new AppError(
      refusal.code,
      refusal.message,
      refusal.field ? { [refusal.field]: refusal.message } : undefined,
    );
  }
}

/**
 * previewTimeOff answers what recording the entry would change in the next
 * TIME_OFF_IMPACT_DAYS, writing nothing (decision 256): each rotation the person is in laid out as
 * the calendar does, without and with the entry, and the stretches whose holder differs
 * (timeOffImpact). The same rights and refusals as addTimeOff.
 */
export async function previewTimeOff(
  deps: TimeOffDeps,
  actor: User,
  personId: number,
  input: TimeOffInput,
): Promise<TimeOffImpact> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const start = new Date(input.startTime);
  const end = new Date(input.endTime);
  const [person] = await findUserRows(db, [personId]);
  await requireManageable(db, actor, personId, person !== undefined);
  await refuseTimeOff(db, actor, personId, start, end, now);
  const to = new Date(now.getTime() + TIME_OFF_IMPACT_DAYS * DAY);
  const theirs = await listRotationFactsOf(db, personId);
  const moves: TimeOffImpact['moves'] = [];
  for (const rotation of theirs) {
    const [before] = (await layOut(deps, now, to, 'nobody', rotation.id)).laid;
    const [after] = (
      await layOut(deps, now, to, 'nobody', rotation.id, db, [
        { id: 0, userId: personId, start, end },
      ])
    ).laid;
    if (!before || !after) continue;
    for (const move of timeOffImpact(before.shifts, after.shifts)) {
      moves.push({
        rotationId: rotation.id,
        rotationName: rotation.name,
        timeZone: before.row.timeZone,
        start: move.start.toISOString(),
        end: move.end.toISOString(),
        from: { id: move.fromUserId, name: '' },
        to: move.toUserId === null ? null : { id: move.toUserId, name: '' },
      });
    }
  }
  const names = new Map(
    (
      await findUserRows(db, [...new Set(moves.flatMap((m) => [m.from.id, m.to?.id ?? m.from.id]))])
    ).map((u) => [u.id, toUser(u, deps.cipher).name]),
  );
  for (const m of moves) {
    m.from.name = names.get(m.from.id) ?? 'Someone';
    if (m.to) m.to.name = names.get(m.to.id) ?? 'Someone';
  }
  moves.sort((a, b) => a.start.localeCompare(b.start) || a.rotationId - b.rotationId);
  return { from: now.toISOString(), to: to.toISOString(), moves };
}

/**
 * listTeamTimeOff answers GET /api/time-off (decision 256): the time off under way or to come of
 * the people whose time off the caller manages, each with their name, earliest first:
 * administrators everyone's; managers that of the people in the rotations they manage
 * (managesRotation) and their own; anyone else their own.
 */
export async function listTeamTimeOff(deps: TimeOffDeps, actor: User): Promise<TeamTimeOff> {
  const db = deps.database.db;
  const now = deps.clock.now();
  let people: number[] | undefined;
  if (!isAdmin(actor.roles)) {
    const team = new Set([actor.id]);
    if (hasRole(actor.roles, 'manager')) {
      for (const r of await listRotationFactsOf(db)) {
        if (managesRotation(actor, r)) for (const id of r.memberUserIds) team.add(id);
      }
    }
    people = [...team];
  }
  const rows = await listTimeOffOfPeople(db, people, now);
  const entries = await toEntries(deps, db, rows);
  const names = new Map(
    (await findUserRows(db, [...new Set(rows.map((r) => r.userId))])).map((u) => [
      u.id,
      toUser(u, deps.cipher).name,
    ]),
  );
  return {
    entries: entries.map((e) => ({
      ...e,
      person: { id: e.userId, name: names.get(e.userId) ?? 'Someone' },
    })),
  };
}

/**
 * addTimeOff records time off for a person, in one transaction: the person's row locked, the
 * rights and the rules checked (timeOffRefusal: it ends after it starts and after now, spans at
 * most a year, overlaps none of theirs), the entry with its sealed note, and the audit event.
 * The rotations' projections read it from the next read on: the turns go round it.
 */
export async function addTimeOff(
  deps: TimeOffDeps,
  actor: User,
  personId: number,
  input: TimeOffInput,
): Promise<TimeOffEntry> {
  const start = new Date(input.startTime);
  const end = new Date(input.endTime);
  const note = input.note?.trim() ? input.note.trim() : null;
  const row = await deps.database.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const person = await lockUserRow(tx, personId);
    await requireManageable(tx, actor, personId, person !== undefined);
    await refuseTimeOff(tx, actor, personId, start, end, now);
    await noteShiftChanges(tx, deps, personId, now);
    const created = await insertTimeOffRow(
      tx,
      { userId: personId, startAt: start, endAt: end, createdById: actor.id, createdAt: now },
      (id) => (note === null ? null : deps.cipher.encrypt(note, timeOffNoteCtx(id))),
    );
    await recordAdminEvent(tx, {
      actorUserId: actor.id,
      action: 'user.time_off_added',
      targetType: 'user',
      targetId: personId,
      details: {
        timeOffId: created.id,
        startTime: start.toISOString(),
        endTime: end.toISOString(),
      },
      at: now,
    });
    await postTimeOff(tx, deps, {
      timeOffId: created.id,
      personId,
      personName: person ? toUser(person, deps.cipher).name : 'A member',
      startAt: start,
      endAt: end,
      now,
    });
    return created;
  });
  const [entry] = await toEntries(deps, deps.database.db, [row]);
  return entry;
}

/**
 * postTimeOff posts new time off to the chat and webhook destinations of each of the person's
 * rotations that want it (decision 221), in the transaction that records it, once per entry.
 */
async function postTimeOff(
  tx: Tx,
  deps: TimeOffDeps,
  event: {
    timeOffId: number;
    personId: number;
    personName: string;
    startAt: Date;
    endAt: Date;
    now: Date;
  },
) {
  for (const rotation of await listRotationFactsOf(tx, event.personId)) {
    await announce(tx, deps, event.now, {
      type: 'time-off',
      key: `time-off:${event.timeOffId}`,
      at: event.now,
      timeOffId: event.timeOffId,
      rotation: { id: rotation.id, name: rotation.name },
      personName: event.personName,
      startAt: event.startAt,
      endAt: event.endAt,
    });
  }
}

/**
 * noteShiftChanges keeps a shift-change baseline of each of the person's rotations (decision 219),
 * in rotation id order, before their time off changes: the turns go round time off, so adding or
 * taking it back may move their shifts and their colleagues'.
 */
async function noteShiftChanges(tx: Tx, deps: TimeOffDeps, personId: number, now: Date) {
  const rotations = await listRotationFactsOf(tx, personId);
  for (const id of rotations.map((r) => r.id).sort((a, b) => a - b)) {
    await noteShiftChange(tx, deps, id, now);
  }
}

/**
 * removeTimeOff takes an entry back, in one transaction: one still to come is deleted; one under
 * way ends now (the part already past stays on record: the rotation went round it); one already
 * over is refused (409). 404 when the person has no such entry.
 */
export async function removeTimeOff(
  deps: TimeOffDeps,
  actor: User,
  personId: number,
  entryId: number,
): Promise<void> {
  await deps.database.db.transaction(async (tx) => {
    const now = deps.clock.now();
    const person = await lockUserRow(tx, personId);
    await requireManageable(tx, actor, personId, person !== undefined);
    const entry = await findTimeOffRow(tx, personId, entryId);
    if (!entry) throw notFound(TIME_OFF_MESSAGES.notFound);
    if (entry.endAt.getTime() <= now.getTime()) throw conflict(TIME_OFF_MESSAGES.deletePast);
    const underWay = entry.startAt.getTime() < now.getTime();
    await noteShiftChanges(tx, deps, personId, now);
    if (underWay) await endTimeOffAt(tx, entry.id, now);
    else await deleteTimeOffRow(tx, entry.id);
    await recordAdminEvent(tx, {
      actorUserId: actor.id,
      action: 'user.time_off_removed',
      targetType: 'user',
      targetId: personId,
      details: {
        timeOffId: entry.id,
        startTime: entry.startAt.toISOString(),
        endTime: entry.endAt.toISOString(),
        ...(underWay ? { endedAt: now.toISOString() } : {}),
      },
      at: now,
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Warnings: gaps ahead and schedule entries that collide with time off.

/** A scheduled rotation's entry whose person is away, as the warnings and notices read it. */
export interface FoundCollision {
  rotation: { id: number; name: string };
  entry: { id: number; userId: number; start: Date; end: Date };
  timeOff: AwayWindow & { id: number };
}

/** What findWarnings answers: gaps in [from, to) and upcoming entries that collide with time off. */
export interface FoundWarnings {
  from: Date;
  to: Date;
  gaps: Awaited<ReturnType<typeof gapsBetween>>;
  collisions: FoundCollision[];
}

/**
 * findWarnings returns the gaps of the next GAP_WARNING_DAYS (the calendar's projection) and the
 * upcoming entries of active scheduled rotations whose person is away for part of them, for every
 * rotation (or `rotationId`). Nothing when nobody has time off ahead: one statement then.
 */
export async function findWarnings(
  deps: TimeOffDeps,
  now: Date,
  rotationId?: number,
): Promise<FoundWarnings> {
  const db = deps.database.db;
  const to = new Date(now.getTime() + GAP_WARNING_DAYS * DAY);
  const none: FoundWarnings = { from: now, to, gaps: [], collisions: [] };
  const away = await listAwayWindows(db, { endsAfter: now });
  if (away.length === 0) return none;
  const gaps = await gapsBetween(deps, now, to, rotationId);
  // A series' occurrences are read as far as the last time off ahead ends.
  const awayUntil = new Date(Math.max(...away.map((w) => w.end.getTime())));
  const entries = await listUpcomingEntries(db, now, awayUntil, rotationId);
  const awayUsers = new Set(away.map((w) => w.userId));
  const candidates = entries.filter((e) => awayUsers.has(e.userId));
  let collisions: FoundCollision[] = [];
  if (candidates.length > 0) {
    const rotations = new Map<number, RotationFacts>(
      (await listRotationFactsOf(db)).map((r) => [r.id, r]),
    );
    collisions = scheduleCollisions(
      candidates
        .filter((e) => {
          const r = rotations.get(e.rotationId);
          return r?.type === 'scheduled' && !r.suspended && r.memberUserIds.includes(e.userId);
        })
        .map((e) => ({
          id: e.id,
          rotationId: e.rotationId,
          userId: e.userId,
          start: e.startAt,
          end: e.endAt,
        })),
      away,
    ).map(({ entry, timeOff }) => ({
      rotation: { id: entry.rotationId, name: rotations.get(entry.rotationId)?.name ?? '' },
      entry: { id: entry.id, userId: entry.userId, start: entry.start, end: entry.end },
      timeOff: timeOff as AwayWindow & { id: number },
    }));
  }
  return { from: now, to, gaps, collisions };
}

/**
 * timeOffWarnings answers GET /api/time-off/warnings: the gaps ahead and the schedule entries
 * that collide with time off, of every rotation (or `rotationId`), with the people named.
 */
export async function timeOffWarnings(
  deps: TimeOffDeps,
  rotationId?: number,
): Promise<TimeOffWarnings> {
  const found = await findWarnings(deps, deps.clock.now(), rotationId);
  const people = new Map(
    (
      await findUserRows(deps.database.db, [
        ...new Set(found.collisions.map((c) => c.entry.userId)),
      ])
    ).map((u) => [u.id, toUser(u, deps.cipher).name]),
  );
  return {
    from: found.from.toISOString(),
    to: found.to.toISOString(),
    gaps: found.gaps.map((g) => ({
      rotationId: g.rotation.id,
      rotationName: g.rotation.name,
      start: g.start.toISOString(),
      end: g.end.toISOString(),
    })),
    collisions: found.collisions.map((c) => ({
      rotationId: c.rotation.id,
      rotationName: c.rotation.name,
      scheduleEntryId: c.entry.id,
      person: { id: c.entry.userId, name: people.get(c.entry.userId) ?? 'Someone' },
      entryStart: c.entry.start.toISOString(),
      entryEnd: c.entry.end.toISOString(),
      awayStart: c.timeOff.start.toISOString(),
      awayEnd: c.timeOff.end.toISOString(),
    })),
  };
}
