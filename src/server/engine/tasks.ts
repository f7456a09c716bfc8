import { incidentTimersTask } from '../modules/incidents/incident-timers';
import { acknowledgementsTask } from './acknowledgements';
import { coverageWindowsTask } from './coverage-windows';
import type { EngineTask } from './engine-task';
import { fixedRotationsTask } from './fixed-rotations';
import { scheduledRotationsTask, scheduleNoticesTask } from './scheduled-rotations';

/**
 * ENGINE_TASKS run in this order on every tick: coverage windows first (they decide who holds
 * the baton while they run), then fixed rotations' handoff flow, scheduled rotations' changes
 * and the notices before the coming ones, missed acknowledgements (they read the handoffs the
 * others just made), and the incidents' escalation last (it reads who holds the baton now).
 */
export const ENGINE_TASKS: { name: string; run: EngineTask }[] = [
  { name: 'coverage windows', run: coverageWindowsTask },
  { name: 'fixed rotations', run: fixedRotationsTask },
  { name: 'scheduled rotations', run: scheduledRotationsTask },
  { name: 'scheduled notices', run: scheduleNoticesTask },
  { name: 'acknowledgements', run: acknowledgementsTask },
  { name: 'incident escalation', run: incidentTimersTask },
];
