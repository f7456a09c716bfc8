import type { CoverageRequestList, CoverageRequestView } from '../../../shared/contracts/coverage';
import type { CoverageRequest } from '../../../shared/contracts/rotations';
import type { User } from '../../../shared/contracts/users';
import { overlapMessage } from '../../../shared/domain/cover-plans';
import {
  COVERAGE_MESSAGES,
  type CoverageAction,
  coverageResponseRefusal,
} from '../../../shared/domain/coverage';
import { coverageRefusal } from '../../../shared/domain/rotation';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database, Tx } from '../../db/client';
import { AppError, notFound } from '../../http/errors';
import { announce } from '../notifications/announce';
import { formatWhen } from '../notifications/message-layout';
import { nameOf, toldAs } from '../notifications/person-events';
import { receiverOf } from '../rotations/rotation-baton';
import { lockRotationRow } from '../rotations/rotation-repository';
import {
  inLockedRotation,
  type RotationDeps,
  refusalError,
  stateOf,
} from '../rotations/rotation-service';
import { noteShiftChange } from '../shift-changes/shift-changes';
import { type PersonReader, personReader } from '../users/person-reader';
import { findUserRows, findUsers } from '../users/user-repository';
import {
  type CoverageWithPeople,
  findCoverageRow,
  insertCoverageRequest,
  listCoverageFor,
  listOverlappingCover,
  setCoverageStatus,
} from './coverage-repository';
import { endCoverageWindow } from './coverage-windows';

export interface CoverageServiceDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'port' | 'handoffTimings'>;
}

const DAY = 86_400_000;
/** How long a finished request stays in the lists. */
const LIST_DAYS = 30;

/** toView answers a coverage request with its people, as the coverage calls read it. */
export function toView(row: CoverageWithPeople, readPerson: PersonReader): CoverageRequestView {
  const { request } = row;
  return {
    id: request.id,
    rotationId: request.rotationId,
    rotation: row.rotation,
    requester: readPerson(row.requester),
    coveringUser: readPerson(row.coveringUser),
    startTime: request.startAt.toISOString(),
    endTime: request.endAt.toISOString(),
    notes: request.notes,
    status: request.status,
    createdAt: request.createdAt.toISOString(),
    respondedAt: request.respondedAt ? request.respondedAt.toISOString() : null,
    arrangedBy: row.arrangedBy ? readPerson(row.arrangedBy) : null,
  };
}

/**
 * overlapRefusal returns the refusal for a window of `rotationId` that overlaps other accepted
 * or running cover (naming the earliest: who covers whom, and when, in the reader's zone), or
 * null. Read in the caller's transaction, under the rotation's lock.
 */
export async function overlapRefusal(
  tx: Tx,
  deps: Pick<CoverageServiceDeps, 'cipher'>,
  reader: User,
  rotationId: number,
  start: Date,
  end: Date,
  exceptId?: number,
): Promise<AppError | null> {
  const [other] = await listOverlappingCover(tx, rotationId, start, end, exceptId);
  if (!other) return null;
  const readPerson = personReader(deps.cipher, [reader]);
  const people = new Map(
    (await findUserRows(tx, [other.requesterId, other.coveringUserId])).map((u) => [
      u.id,
      readPerson(u),
    ]),
  );
  return new AppError(
    'CONFLICT',
    overlapMessage({
      coveringName: people.get(other.coveringUserId)?.name ?? 'A teammate',
      requesterName: people.get(other.requesterId)?.name ?? 'a teammate',
      from: formatWhen(other.startAt, reader.timezone),
      until: formatWhen(other.endAt, reader.timezone),
    }),
    { startTime: 'Overlaps other cover in this rotation' },
  );
}

/** listMyCoverage returns the requests the user was asked to cover and those they made (ending in the last 30 days or later). */
export async function listMyCoverage(
  deps: CoverageServiceDeps,
  viewer: User,
): Promise<CoverageRequestList> {
  const now = deps.clock.now();
  const rows = await listCoverageFor(deps.database.db, {
    userId: viewer.id,
    endsAfter: new Date(now.getTime() - LIST_DAYS * DAY),
  });
  const readPerson = personReader(deps.cipher, [viewer]);
  return {
    incoming: rows
      .filter((r) => r.request.coveringUserId === viewer.id)
      .map((r) => toView(r, readPerson)),
    outgoing: rows
      .filter((r) => r.request.requesterId === viewer.id)
      .map((r) => toView(r, readPerson)),
  };
}

/**
 * respondToCoverage accepts, declines or cancels a request, with the rotation row locked. The
 * requester hears of an acceptance or a refusal; cancelling a running window ends it now and the
 * baton goes where the rotation's rules name (as at its planned end).
 */
export async function respondToCoverage(
  deps: CoverageServiceDeps,
  actor: User,
  id: number,
  action: CoverageAction,
): Promise<CoverageRequestView> {
  const found = await findCoverageRow(deps.database.db, id);
  if (!found) throw notFound(COVERAGE_MESSAGES.notFound);
  await deps.database.db.transaction(async (tx) => {
    const rotation = await lockRotationRow(tx, found.rotationId);
    const request = await findCoverageRow(tx, id);
    if (!rotation || !request) throw notFound(COVERAGE_MESSAGES.notFound);
    const now = deps.clock.now();
    const refusal = coverageResponseRefusal(
      {
        status: request.status,
        requesterId: request.requesterId,
        coveringUserId: request.coveringUserId,
        start: request.startAt,
        end: request.endAt,
        arrangedById: request.arrangedById,
      },
      actor.id,
      action,
      now,
    );
    if (refusal) throw refusalError(refusal);
    // An accepted window moves the shifts it covers; so does withdrawing one accepted or running.
    if (action === 'accept' || request.status !== 'pending') {
      await noteShiftChange(tx, deps, rotation.id, now);
    }
    /** tellRequester announces the answer to the requester, in the transaction that records it. */
    const tellRequester = async (outcome: 'accepted' | 'declined') => {
      const people = await findUsers(tx, deps.cipher, [
        request.requesterId,
        request.coveringUserId,
      ]);
      await announce(tx, deps, now, {
        type: `coverage.${outcome}`,
        key: `coverage:${request.id}:${outcome}`,
        at: now,
        requestId: request.id,
        told: toldAs('to', [people.get(request.requesterId)]),
        rotation: { id: rotation.id, name: rotation.name },
        coveringName: nameOf(people, request.coveringUserId),
        requesterName: nameOf(people, request.requesterId),
        startAt: request.startAt,
        endAt: request.endAt,
      });
    };
    if (action === 'accept') {
      // Two accepted windows may not overlap in a rotation (decision 218), whoever asked.
      const overlap = await overlapRefusal(
        tx,
        deps,
        actor,
        rotation.id,
        request.startAt,
        request.endAt,
        request.id,
      );
      if (overlap) throw overlap;
      await setCoverageStatus(tx, id, 'accepted', now);
      await tellRequester('accepted');
    } else if (action === 'decline') {
      await setCoverageStatus(tx, id, 'declined', now);
      await tellRequester('declined');
    } else if (request.status === 'active') {
      await endCoverageWindow(tx, deps, rotation, request, now, now);
      await setCoverageStatus(tx, id, 'cancelled');
    } else {
      await setCoverageStatus(tx, id, 'cancelled');
    }
  });
  const [row] = await listCoverageFor(deps.database.db, { id });
  if (!row) throw notFound(COVERAGE_MESSAGES.notFound);
  return toView(row, personReader(deps.cipher, [actor]));
}

/** requestCoverage stores the holder's request for another member to cover a window (pending). */
export async function requestCoverage(
  deps: RotationDeps,
  actor: User,
  id: number,
  input: {
    coveringUserId: number;
    startTime: string;
    endTime: string;
    notes?: string | null;
  },
): Promise<CoverageRequest> {
  const row = await inLockedRotation(deps, id, async (locked) => {
    const refusal = coverageRefusal(
      stateOf(locked.row, locked.members),
      actor,
      {
        coveringUser: receiverOf(locked.members, input.coveringUserId),
        startTime: input.startTime,
        endTime: input.endTime,
      },
      locked.now,
    );
    if (refusal) throw refusalError(refusal);
    const request = await insertCoverageRequest(locked.tx, {
      rotationId: id,
      requesterId: actor.id,
      coveringUserId: input.coveringUserId,
      startAt: new Date(input.startTime),
      endAt: new Date(input.endTime),
      notes: input.notes?.trim() ? input.notes.trim() : null,
      createdAt: locked.now,
    });
    const people = await findUsers(locked.tx, deps.cipher, [actor.id, request.coveringUserId]);
    await announce(locked.tx, deps, locked.now, {
      type: 'coverage.requested',
      key: `coverage:${request.id}:requested`,
      at: locked.now,
      told: toldAs('to', [people.get(request.coveringUserId)]),
      rotation: { id: locked.row.id, name: locked.row.name },
      requesterName: nameOf(people, actor.id) ?? 'The on-call person',
      startAt: request.startAt,
      endAt: request.endAt,
      notes: request.notes || null,
    });
    return request;
  });
  const readPerson = personReader(deps.cipher, [actor]);
  const people = new Map(
    (await findUserRows(deps.database.db, [row.requesterId, row.coveringUserId])).map((u) => [
      u.id,
      readPerson(u),
    ]),
  );
  const requester = people.get(row.requesterId);
  const coveringUser = people.get(row.coveringUserId);
  if (!requester || !coveringUser) throw notFound('User not found');
  return {
    id: row.id,
    rotationId: row.rotationId,
    requester,
    coveringUser,
    startTime: row.startAt.toISOString(),
    endTime: row.endAt.toISOString(),
    notes: row.notes,
    status: row.status,
  };
}
