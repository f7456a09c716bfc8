import type { CoverCandidates, CoverPlanInput } from '../../../shared/contracts/cover-plans';
import type { CoverageRequestView } from '../../../shared/contracts/coverage';
import type { User } from '../../../shared/contracts/users';
import {
  COVER_CANDIDATE_HISTORY_DAYS,
  coverPlanRefusal,
  holdsThroughout,
  notHeldMessage,
  rankCoverCandidates,
} from '../../../shared/domain/cover-plans';
import { COVERAGE_MESSAGES } from '../../../shared/domain/coverage';
import { canArrangeCover } from '../../../shared/domain/permissions-rotation';
import { effectiveRoles } from '../../../shared/domain/roles';
import { canHoldBaton } from '../../../shared/domain/rotation';
import type { Config } from '../../core/config';
import { AppError, notFound } from '../../http/errors';
import { listAwayWindows } from '../calendar/calendar-repository';
import { projectedShifts } from '../calendar/calendar-service';
import { listMembersWithUsers } from '../members/member-reads';
import { announce } from '../notifications/announce';
import { nameOf, toldAs } from '../notifications/person-events';
import {
  findRotationRow,
  lockRotationRow,
  type RotationRow,
} from '../rotations/rotation-repository';
import { ROTATION_NOT_FOUND, refusalError } from '../rotations/rotation-service';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { personReader } from '../users/person-reader';
import { findUsers } from '../users/user-repository';
import { insertCoverageRequest, listCoverageFor, onCallHoursOf } from './coverage-repository';
import { type CoverageServiceDeps, overlapRefusal, toView } from './coverage-service';
import { startCoverageWindow } from './coverage-windows';

/**
 * Planned cover (issue 18, decision 218): a coverage request for a window of the requester's
 * future shifts, asked by them (pending until the covering member answers) or arranged by a
 * manager of the rotation or an administrator (accepted at once). The engine's coverage windows
 * (coverage-windows.ts) hand the baton over at its start and back at its end.
 */

const DAY = 86_400_000;

/** What the planned cover services need: the coverage services' deps and the handoff timings. */
export interface CoverPlanDeps extends CoverageServiceDeps {
  config: Pick<Config, 'publicUrl' | 'port' | 'handoffTimings'>;
}

/** managedFacts returns what decides whether someone manages a rotation. */
const managedFacts = (row: RotationRow, memberIds: number[]) => ({
  createdById: row.createdById,
  memberUserIds: memberIds,
});

/**
 * planCover stores a cover plan in one transaction under the rotation's lock, after every check:
 * who may ask or arrange, who may cover, the window (future, not overlapping other cover, held
 * throughout by the person covered by the calendar's projection). Asked: pending, and the
 * covering member is asked. Arranged: accepted, both are told, and a window already begun
 * starts at once.
 */
export async function planCover(
  deps: CoverPlanDeps,
  actor: User,
  rotationId: number,
  input: CoverPlanInput,
): Promise<CoverageRequestView> {
  const requesterId = input.requesterId ?? actor.id;
  const start = new Date(input.startTime);
  const end = new Date(input.endTime);
  const notes = input.notes?.trim() ? input.notes.trim() : null;
  const id = await deps.database.db.transaction(async (tx) => {
    const row = await lockRotationRow(tx, rotationId);
    if (!row) throw notFound(ROTATION_NOT_FOUND);
    const now = deps.clock.now();
    const members = await listMembersWithUsers(tx, [rotationId]);
    const memberIds = members.map((m) => m.member.userId);
    const coveringMember = members.find((m) => m.user.id === input.coveringUserId);
    const refusal = coverPlanRefusal(
      {
        suspended: row.suspended,
        memberIds,
        actorMayArrange: canArrangeCover(actor, managedFacts(row, memberIds)),
      },
      { id: actor.id, roles: actor.roles },
      {
        requesterId,
        covering: {
          id: input.coveringUserId,
          roles: coveringMember
            ? effectiveRoles(coveringMember.user.roles, coveringMember.user.role)
            : undefined,
        },
        startTime: start,
        endTime: end,
      },
      now,
    );
    if (refusal) throw refusalError(refusal);
    const overlap = await overlapRefusal(tx, deps, actor, rotationId, start, end);
    if (overlap) throw overlap;
    // The window from now on must be the requester's by the projection every screen shows.
    const from = new Date(Math.max(start.getTime(), now.getTime()));
    const shifts = await projectedShifts(deps, tx, rotationId, from, end);
    if (!holdsThroughout(shifts, requesterId, from, end)) {
      const requester = members.find((m) => m.user.id === requesterId);
      const name = requester ? personReader(deps.cipher, [actor])(requester.user).name : null;
      throw new AppError('NOT_ON_CALL', notHeldMessage(name, requesterId === actor.id), {
        startTime: 'Not within the shifts of the person covered',
      });
    }
    const arrangedById = requesterId === actor.id ? null : actor.id;
    // Arranged cover is in force at once: it moves the shifts it covers (decision 219).
    if (arrangedById !== null) await noteShiftChange(tx, deps, rotationId, now);
    const request = await insertCoverageRequest(tx, {
      rotationId,
      requesterId,
      coveringUserId: input.coveringUserId,
      startAt: start,
      endAt: end,
      notes,
      createdAt: now,
      arrangedById,
    });
    const ref = { id: row.id, name: row.name };
    const people = await findUsers(tx, deps.cipher, [
      arrangedById,
      requesterId,
      request.coveringUserId,
    ]);
    if (arrangedById === null) {
      await announce(tx, deps, now, {
        type: 'coverage.requested',
        key: `coverage:${request.id}:requested`,
        at: now,
        told: toldAs('to', [people.get(request.coveringUserId)]),
        rotation: ref,
        requesterName: nameOf(people, requesterId) ?? 'The on-call person',
        startAt: start,
        endAt: end,
        notes,
      });
    } else {
      await announce(tx, deps, now, {
        type: 'coverage.arranged',
        key: `coverage:${request.id}:arranged`,
        at: now,
        requestId: request.id,
        told: [
          ...toldAs('covering', [people.get(request.coveringUserId)]),
          ...toldAs('requester', [people.get(requesterId)]),
        ],
        rotation: ref,
        arrangerName: nameOf(people, arrangedById) ?? 'A manager',
        requesterName: nameOf(people, requesterId) ?? 'a teammate',
        coveringName: nameOf(people, request.coveringUserId) ?? 'A teammate',
        startAt: start,
        endAt: end,
        notes,
      });
      // In force at once: a window already begun (an ill holder) hands over now, not at a tick.
      if (start.getTime() <= now.getTime() && !row.suspended) {
        await startCoverageWindow(tx, deps, row, request, now);
      }
    }
    return request.id;
  });
  const [view] = await listCoverageFor(deps.database.db, { id });
  if (!view) throw notFound(COVERAGE_MESSAGES.notFound);
  return toView(view, personReader(deps.cipher, [actor]));
}

/**
 * coverCandidates returns who could cover [start, end) for `requesterId` (default the viewer):
 * the rotation's members who can hold the baton, other than them, each with their on-call hours
 * over the last 90 days and any time off in the window; available first, then fewest hours.
 */
export async function coverCandidates(
  deps: CoverageServiceDeps,
  viewer: User,
  rotationId: number,
  query: { startTime: string; endTime: string; requesterId?: number },
): Promise<CoverCandidates> {
  const db = deps.database.db;
  const now = deps.clock.now();
  const since = new Date(now.getTime() - COVER_CANDIDATE_HISTORY_DAYS * DAY);
  const members = await listMembersWithUsers(db, [rotationId]);
  if (members.length === 0 && !(await findRotationRow(db, rotationId))) {
    throw notFound(ROTATION_NOT_FOUND);
  }
  const requesterId = query.requesterId ?? viewer.id;
  const eligible = members.filter(
    (m) => m.user.id !== requesterId && canHoldBaton(effectiveRoles(m.user.roles, m.user.role)),
  );
  const ids = eligible.map((m) => m.user.id);
  const start = new Date(query.startTime);
  const end = new Date(query.endTime);
  const [hours, away] = await Promise.all([
    onCallHoursOf(db, ids, since, now),
    listAwayWindows(db, { userIds: ids, endsAfter: start, startsBefore: end }),
  ]);
  const readPerson = personReader(deps.cipher, [viewer]);
  const candidates = eligible.map((m) => {
    const user = readPerson(m.user);
    const timeOff = away
      .filter((t) => t.userId === m.user.id)
      .map((t) => ({ startTime: t.start.toISOString(), endTime: t.end.toISOString() }));
    return {
      userId: user.id,
      name: user.name,
      user,
      onCallHours: Math.round((hours.get(m.user.id) ?? 0) * 10) / 10,
      onTimeOff: timeOff.length > 0,
      timeOff,
    };
  });
  return {
    since: since.toISOString(),
    candidates: rankCoverCandidates(candidates).map(
      ({ user, onCallHours, onTimeOff, timeOff }) => ({
        user,
        onCallHours,
        onTimeOff,
        timeOff,
      }),
    ),
  };
}
