import type { EngineTask } from '../../engine/engine-task';
import { runPageTimers } from './page-timers';

/** pageTimersTask is the engine task of the paging flow: reminders, warnings, escalations. */
export const pageTimersTask: EngineTask = async (deps, now) => {
  await runPageTimers(deps, now);
};
