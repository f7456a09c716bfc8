import { eachDue } from '../../engine/due-rows';
import type { EngineTask } from '../../engine/engine-task';
import { listDueBaselines } from './shift-change-repository';
import { tellShiftChanges } from './shift-changes';

/**
 * shiftChangesTask tells every due baseline, each in its own transaction (decision 219): the
 * baseline's row lock, taken with SKIP LOCKED, keeps two engines from telling it twice, and the
 * outbox's dedupe key and the notices' unique key would refuse a second copy anyway.
 */
export const shiftChangesTask: EngineTask = async (deps, now) => {
  const due = await listDueBaselines(deps.database.db, now);
  await eachDue(due, (rotationId) =>
    deps.database.db.transaction((tx) => tellShiftChanges(tx, deps, rotationId, now)),
  );
};
