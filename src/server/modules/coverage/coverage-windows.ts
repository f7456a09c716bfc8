import {
  coverageStart,
  holderAfterFixedCoverage,
  holderAfterScheduledCoverage,
} from '../../../shared/domain/coverage';
import { DEFAULT_HANDOFF_TIMINGS } from '../../../shared/domain/handoff-flow';
import { memberIdAfter, turnOwnerOf } from '../../../shared/domain/rotation';
import { followsWindows } from '../../../shared/domain/rotation-layers';
import { nextHandoffAt } from '../../../shared/domain/shifts';
import { TIME_OFF_LOOKBACK_MS } from '../../../shared/domain/time-off';
import type { Config } from '../../core/config';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Tx } from '../../db/client';
import { EffectAlreadyDone } from '../../engine/due-rows';
import { listAwayWindows } from '../calendar/calendar-repository';
import { listEngineMembers, listNamedWindowsFrom } from '../handoffs/handoff-flow-repository';
import { insertKeyedHandoff, listLatestBoundaryHandoffs } from '../handoffs/handoff-repository';
import { announce } from '../notifications/announce';
import { nameOf, toldAs } from '../notifications/person-events';
import { type RotationRow, setHolder, updateRotationRow } from '../rotations/rotation-repository';
import { patternOf } from '../rotations/rotation-service';
import { findUsers } from '../users/user-repository';
import { type CoverageRow, setCoverageStatus } from './coverage-repository';

/**
 * What happens at a coverage window's start and end (decision 053), for the engine and for a
 * cancelled window alike. Both run inside the caller's transaction with the rotation row locked.
 */

export interface CoverageDeps {
  cipher: FieldCipher;
  config: Pick<Config, 'publicUrl' | 'port'> & Partial<Pick<Config, 'handoffTimings'>>;
}

/** A cover reads only who is named at its start or end: a layered rotation's next hour will do. */
const windowsEnd = (at: Date) => new Date(at.getTime() + 3_600_000);

/**
 * howCoverageStarts reads what coverageStart decides from: a fixed rotation's latest boundary
 * handoff (when, and who held before the holder) and its members' time off around the pending
 * boundary (decision 217), a scheduled rotation's entries around `at`.
 */
async function howCoverageStarts(
  tx: Tx,
  rotation: RotationRow,
  members: Awaited<ReturnType<typeof listEngineMembers>>,
  requesterId: number,
  at: Date,
  deps: CoverageDeps,
) {
  const memberIds = members.filter((m) => m.canHold).map((m) => m.userId);
  const boundary = rotation.suspended ? null : rotation.nextHandoffAt;
  // A layered rotation's baton follows its layers as a scheduled one's follows its entries.
  const scheduled = followsWindows(rotation);
  const latest = (await listLatestBoundaryHandoffs(tx, [rotation.id])).get(rotation.id);
  const timeOff =
    !scheduled && boundary
      ? await listAwayWindows(tx, {
          userIds: memberIds,
          endsAfter: new Date(boundary.getTime() - TIME_OFF_LOOKBACK_MS),
          startsBefore: nextHandoffAt(patternOf(rotation), boundary),
        })
      : [];
  return coverageStart(
    {
      type: scheduled ? 'scheduled' : 'fixed',
      pattern: patternOf(rotation),
      memberIds,
      holderId: rotation.holderUserId,
      nextBoundary: boundary,
      lastHandoffAt: latest ? new Date(latest.occurredAt) : null,
      turnUserId: rotation.turnUserId,
      timeOff,
      entries: scheduled
        ? await listNamedWindowsFrom(tx, rotation, new Set(memberIds), at, windowsEnd(at))
        : [],
      requesterId,
      at,
    },
    deps.config.handoffTimings ?? DEFAULT_HANDOFF_TIMINGS,
  );
}

/**
 * startCoverageWindow gives the baton to the covering member (a handoff of kind coverage, at the
 * window's start or, for a late acceptance, when it was accepted) when the requester holds it,
 * or when the rotation's rules hand it to them at a change that is due but not yet carried out
 * (a planned window on the first moments of their shift, decision 218: the covering member takes
 * it from whoever still holds it, and a fixed rotation's boundary counts as handled);
 * otherwise the request is cancelled and both are told.
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
  const previousId = rotation.holderUserId;
  const people = await findUsers(tx, deps.cipher, [
    request.requesterId,
    request.coveringUserId,
    previousId,
  ]);
  const accepted = request.respondedAt ?? request.startAt;
  const at = accepted.getTime() > request.startAt.getTime() ? accepted : request.startAt;
  const how =
    previousId === request.requesterId
      ? 'holder'
      : await howCoverageStarts(tx, rotation, members, request.requesterId, at, deps);
  if (how === null || !covering?.canHold) {
    await setCoverageStatus(tx, request.id, 'cancelled');
    await announce(tx, deps, now, {
      type: 'coverage.cancelled',
      key: `coverage:${request.id}:not-started`,
      at: now,
      told: toldAs('to', [people.get(request.requesterId), people.get(request.coveringUserId)]),
      rotation: ref,
      requesterName: nameOf(people, request.requesterId),
      startAt: request.startAt,
    });
    return;
  }
  const effectKey = `coverage:${request.id}:start`;
  const handoff = await insertKeyedHandoff(tx, {
    rotationId: rotation.id,
    fromUserId: previousId,
    toUserId: request.coveringUserId,
    kind: 'coverage',
    notes: request.notes,
    occurredAt: at,
    effectKey,
  });
  if (!handoff) throw new EffectAlreadyDone(effectKey);
  // The window keeps the turn it covers (decision 256): the requester's, or, when it starts the
  // shift the boundary hands them, that shift's owner (the member after the current one).
  const eligible = members.filter((m) => m.canHold).map((m) => m.userId);
  const turnUserId =
    how === 'due' && !followsWindows(rotation)
      ? (memberIdAfter(eligible, turnOwnerOf(eligible, rotation.turnUserId, previousId)) ??
        request.requesterId)
      : rotation.turnUserId;
  await setHolder(tx, rotation.id, request.coveringUserId, at, { turnUserId });
  await setCoverageStatus(tx, request.id, 'active');
  rotation.turnUserId = turnUserId;
  rotation.holderUserId = request.coveringUserId;
  if (how === 'due' && !followsWindows(rotation) && rotation.nextHandoffAt) {
    // The boundary that began the requester's shift is the window's: the flow goes on after it.
    const nextBoundary = nextHandoffAt(patternOf(rotation), rotation.nextHandoffAt);
    await updateRotationRow(tx, rotation.id, { nextHandoffAt: nextBoundary }, now);
    rotation.nextHandoffAt = nextBoundary;
  }
  await announce(tx, deps, now, {
    type: 'coverage.started',
    key: `handoff:${handoff.id}`,
    at: now,
    told: [
      ...toldAs('covering', [people.get(request.coveringUserId)]),
      ...toldAs('requester', [people.get(request.requesterId)]),
      // A baton taken from someone else on the requester's behalf: they hear it left them too.
      ...toldAs('previous', [
        previousId !== null && previousId !== request.requesterId
          ? people.get(previousId)
          : undefined,
      ]),
    ],
    rotation: ref,
    coveringName: nameOf(people, request.coveringUserId),
    endAt: request.endAt,
  });
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
  let returningTurn: number | null = null;
  if (!followsWindows(rotation)) {
    const pendingBoundary = rotation.suspended ? null : rotation.nextHandoffAt;
    // The order goes on under the window as the projection shows it: round time off (decision 217).
    const timeOff = pendingBoundary
      ? await listAwayWindows(tx, {
          userIds: eligible,
          endsAfter: new Date(pendingBoundary.getTime() - TIME_OFF_LOOKBACK_MS),
          startsBefore: nextHandoffAt(patternOf(rotation), at),
        })
      : [];
    const after = holderAfterFixedCoverage({
      pattern: patternOf(rotation),
      memberIds: eligible,
      requesterId: request.requesterId,
      pendingBoundary,
      end: at,
      turnUserId: rotation.turnUserId,
      timeOff,
    });
    returning = after.holderId;
    returningTurn = after.turnUserId;
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
    const entries = await listNamedWindowsFrom(tx, rotation, new Set(eligible), at, windowsEnd(at));
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
  await setHolder(tx, rotation.id, returning, at, { turnUserId: returningTurn ?? returning });
  rotation.holderUserId = returning;
  const people = await findUsers(tx, deps.cipher, [request.coveringUserId, returning]);
  await announce(tx, deps, now, {
    type: 'coverage.ended',
    key: `handoff:${handoff.id}`,
    at: now,
    told: [
      ...toldAs('to', [returning === null ? undefined : people.get(returning)]),
      ...toldAs('from', [people.get(request.coveringUserId)]),
    ],
    rotation: { id: rotation.id, name: rotation.name },
    toName: nameOf(people, returning),
  });
}
