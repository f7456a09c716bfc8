import { pageTimersTask } from '../modules/paging/paging-task';
import { acknowledgementsTask } from './acknowledgements';
import { coverageWindowsTask } from './coverage-windows';
import type { EngineTask } from './engine-task';
import { fixedRotationsTask } from './fixed-rotations';
import { scheduledRotationsTask, scheduleNoticesTask } from './scheduled-rotations';

/**
 * ENGINE_TASKS run in this order on every tick: coverage windows first (they decide who holds
 * the baton while they run), then fixed rotations' handoff flow, scheduled rotations' changes
 * and the notices before the coming ones, and missed acknowledgements last (they read the
 * handoffs the others just made).
 */
export const ENGINE_TASKS: { name: string; run: EngineTask }[] = [
  { name: 'coverage windows', run: coverageWindowsTask },
  { name: 'fixed rotations', run: fixedRotationsTask },
  { name: 'scheduled rotations', run: scheduledRotationsTask },
  { name: 'scheduled notices', run: scheduleNoticesTask },
  { name: 'acknowledgements', run: acknowledgementsTask },
  { name: 'page timers', run: pageTimersTask },
];
