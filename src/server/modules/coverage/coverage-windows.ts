import {
  holderAfterFixedCoverage,
  holderAfterScheduledCoverage,
} from '../../../shared/domain/coverage';
import { nextHandoffAt } from '../../../shared/domain/shifts';
import type { Config } from '../../config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Tx } from '../../db/client';
import {
  EffectAlreadyDone,
  listEngineMembers,
  listEntriesEndingFrom,
} from '../../engine/engine-repository';
import { insertKeyedHandoff } from '../handoffs/handoff-repository';
import {
  batonArrivedMessage,
  batonLeftMessage,
  coverageNotStartedMessage,
  type MessageContext,
} from '../notifications/messages';
import { loadRecipients, sendNotices } from '../notifications/notify';
import { type RotationRow, setHolder, updateRotationRow } from '../rotations/rotation-repository';
import { patternOf } from '../rotations/rotation-service';
import { type CoverageRow, setCoverageStatus } from './coverage-repository';

/**
 * What happens at a coverage window's start and end (decision 053), for the engine and for a
 * cancelled window alike. Both run inside the caller's transaction with the rotation row locked.
 */

export interface CoverageDeps {
  cipher: FieldCipher;
  config: Pick<Config, 'publicUrl' | 'port'>;
}

/**
 * startCoverageWindow gives the baton to the covering member (a handoff of kind coverage, at the
 * window's start or, for a late acceptance, when it was accepted) when the requester still holds
 * it; otherwise the request is cancelled and both are told.
 */
export async function startCoverageWindow(
  tx: Tx,
  deps: CoverageDeps,
  rotation: RotationRow,
  request: CoverageRow,
  now: Date,
): Promise<void> {
  const ref = { id: rotation.id, name: rotation.name };
  const members = await listEngineMembers(tx, rotation.id);
  const covering = members.find((m) => m.userId === request.coveringUserId);
  const people = await loadRecipients(tx, deps.cipher, [
    request.requesterId,
    request.coveringUserId,
  ]);
  if (rotation.holderUserId !== request.requesterId || !covering?.canHold) {
    await setCoverageStatus(tx, request.id, 'cancelled');
    const notice = {
      eventKey: `coverage:${request.id}:not-started`,
      kind: 'coverage.cancelled',
      message: (c: MessageContext) =>
        coverageNotStartedMessage({
          ...c,
          requesterName: people.get(request.requesterId)?.name ?? null,
          start: request.startAt,
        }),
    };
    await sendNotices(tx, deps, now, ref, [
      { ...notice, recipient: people.get(request.requesterId) },
      { ...notice, recipient: people.get(request.coveringUserId) },
    ]);
    return;
  }
  const accepted = request.respondedAt ?? request.startAt;
  const at = accepted.getTime() > request.startAt.getTime() ? accepted : request.startAt;
  const effectKey = `coverage:${request.id}:start`;
  const handoff = await insertKeyedHandoff(tx, {
    rotationId: rotation.id,
    fromUserId: request.requesterId,
    toUserId: request.coveringUserId,
    kind: 'coverage',
    notes: request.notes,
    occurredAt: at,
    effectKey,
  });
  if (!handoff) throw new EffectAlreadyDone(effectKey);
  await setHolder(tx, rotation.id, request.coveringUserId, at);
  await setCoverageStatus(tx, request.id, 'active');
  rotation.holderUserId = request.coveringUserId;
  await sendNotices(tx, deps, now, ref, [
    {
      eventKey: `handoff:${handoff.id}`,
      kind: 'coverage.started',
      recipient: people.get(request.coveringUserId),
      message: (c) => batonArrivedMessage({ ...c, reason: 'coverage', until: request.endAt }),
    },
    {
      eventKey: `handoff:${handoff.id}`,
      kind: 'coverage.started',
      recipient: people.get(request.requesterId),
      message: (c) =>
        batonLeftMessage({
          ...c,
          reason: 'coverage',
          toName: people.get(request.coveringUserId)?.name ?? null,
        }),
    },
  ]);
}

/**
 * endCoverageWindow ends a running window at `at`: when the covering member still holds the
 * baton it goes to whoever the rotation's rules name at that moment (a fixed rotation's member in
 * order, counting the boundaries passed in the window; a scheduled rotation's entry, or nobody),
 * as a handoff of kind coverage_end. When someone moved the baton by hand meanwhile, it stays.
 */
export async function endCoverageWindow(
  tx: Tx,
  deps: CoverageDeps,
  rotation: RotationRow,
  request: CoverageRow,
  at: Date,
  now: Date,
): Promise<void> {
  await setCoverageStatus(tx, request.id, 'completed');
  if (rotation.holderUserId !== request.coveringUserId) return;
  const members = await listEngineMembers(tx, rotation.id);
  const eligible = members.filter((m) => m.canHold).map((m) => m.userId);
  let returning: number | null;
  if (rotation.type === 'fixed') {
    const after = holderAfterFixedCoverage({
      pattern: patternOf(rotation),
      memberIds: eligible,
      requesterId: request.requesterId,
      pendingBoundary: rotation.suspended ? null : rotation.nextHandoffAt,
      end: at,
    });
    returning = after.holderId;
    if (after.boundariesPassed > 0) {
      // The boundaries inside the window were the window's; the flow goes on from the next one.
      await updateRotationRow(
        tx,
        rotation.id,
        { nextHandoffAt: nextHandoffAt(patternOf(rotation), at) },
        now,
      );
    }
  } else {
    const entries = await listEntriesEndingFrom(tx, rotation.id, at);
    const named = holderAfterScheduledCoverage(entries, at);
    returning = named !== null && eligible.includes(named) ? named : null;
  }
  if (returning === request.coveringUserId) return;
  const effectKey = `coverage:${request.id}:end`;
  const handoff = await insertKeyedHandoff(tx, {
    rotationId: rotation.id,
    fromUserId: request.coveringUserId,
    toUserId: returning,
    kind: 'coverage_end',
    occurredAt: at,
    effectKey,
  });
  if (!handoff) throw new EffectAlreadyDone(effectKey);
  await setHolder(tx, rotation.id, returning, at);
  rotation.holderUserId = returning;
  const people = await loadRecipients(tx, deps.cipher, [request.coveringUserId, returning]);
  await sendNotices(tx, deps, now, { id: rotation.id, name: rotation.name }, [
    {
      eventKey: `handoff:${handoff.id}`,
      kind: 'coverage.ended',
      recipient: returning === null ? undefined : people.get(returning),
      message: (c) => batonArrivedMessage({ ...c, reason: 'coverage_end', until: null }),
    },
    {
      eventKey: `handoff:${handoff.id}`,
      kind: 'coverage.ended',
      recipient: people.get(request.coveringUserId),
      message: (c) =>
        batonLeftMessage({
          ...c,
          reason: 'coverage_end',
          toName: returning === null ? null : (people.get(returning)?.name ?? null),
        }),
    },
  ]);
}
