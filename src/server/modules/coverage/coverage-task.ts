import { eachDue } from '../../engine/due-rows';
import type { EngineTask, NextDueAt } from '../../engine/engine-task';
import {
  listDueCoverage,
  lockRotationOrSkip,
  nextCoverageDueAt,
} from '../handoffs/handoff-flow-repository';
import { findCoverageRow } from './coverage-repository';
import { endCoverageWindow, startCoverageWindow } from './coverage-windows';

/**
 * coverageWindowsTask starts accepted coverage windows whose start has come and ends running
 * ones whose end has come (decision 053), each in its own transaction with the rotation locked.
 * A window that came and went while the engine was down is started and ended in one go, at its
 * own times, so the history reads as it should have happened.
 */
export const coverageWindowsTask: EngineTask = async (deps, now) => {
  const due = await listDueCoverage(deps.database.db, now);
  await eachDue(due, ({ id, rotationId }) =>
    deps.database.db.transaction(async (tx) => {
      const rotation = await lockRotationOrSkip(tx, rotationId);
      if (!rotation || rotation.suspended) return;
      const request = await findCoverageRow(tx, id);
      if (!request) return;
      if (request.status === 'accepted' && request.startAt.getTime() <= now.getTime()) {
        await startCoverageWindow(tx, deps, rotation, request, now);
        request.status = rotation.holderUserId === request.coveringUserId ? 'active' : 'cancelled';
      }
      if (request.status === 'active' && request.endAt.getTime() <= now.getTime()) {
        await endCoverageWindow(tx, deps, rotation, request, request.endAt, now);
      }
    }),
  );
};

/** coverageDueAt: when a coverage window next starts or ends (decision 278). */
export const coverageDueAt: NextDueAt = (deps, now) => nextCoverageDueAt(deps.database.db, now);
