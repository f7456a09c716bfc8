import type { CoverageRequestList, CoverageRequestView } from '../../../shared/contracts/coverage';
import type { User } from '../../../shared/contracts/users';
import {
  COVERAGE_MESSAGES,
  type CoverageAction,
  coverageResponseRefusal,
} from '../../../shared/domain/coverage';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Database } from '../../db/client';
import { notFound } from '../../http/errors';
import { notifyCoverageOutcome } from '../notifications/notify';
import { lockRotationRow } from '../rotations/rotation-repository';
import { refusalError } from '../rotations/rotation-service';
import { type PersonReader, personReader } from '../rotations/rotation-view';
import {
  type CoverageWithPeople,
  findCoverageRow,
  listCoverageFor,
  setCoverageStatus,
} from './coverage-repository';
import { endCoverageWindow } from './coverage-windows';

export interface CoverageServiceDeps {
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  config: Pick<Config, 'publicUrl' | 'port'>;
}

const DAY = 86_400_000;
/** How long a finished request stays in the lists. */
const LIST_DAYS = 30;

function toView(row: CoverageWithPeople, readPerson: PersonReader): CoverageRequestView {
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
  };
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
      },
      actor.id,
      action,
      now,
    );
    if (refusal) throw refusalError(refusal);
    const outcome = {
      requestId: request.id,
      rotation: { id: rotation.id, name: rotation.name },
      requesterId: request.requesterId,
      coveringUserId: request.coveringUserId,
      startAt: request.startAt,
      endAt: request.endAt,
      now,
    };
    if (action === 'accept') {
      await setCoverageStatus(tx, id, 'accepted', now);
      await notifyCoverageOutcome(tx, deps, { ...outcome, outcome: 'accepted' });
    } else if (action === 'decline') {
      await setCoverageStatus(tx, id, 'declined', now);
      await notifyCoverageOutcome(tx, deps, { ...outcome, outcome: 'declined' });
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
