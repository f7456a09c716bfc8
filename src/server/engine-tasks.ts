import type { EngineDeps, NamedEngineTask } from './engine/engine-task';
import { runTasks } from './engine/run-tick';
import { alertPayloadSweepTask } from './modules/alerts/alert-payload-task';
import { destinationsTask } from './modules/calendar/digest-task';
import { coverageDueAt, coverageWindowsTask } from './modules/coverage/coverage-task';
import { acknowledgementsTask } from './modules/handoffs/acknowledgement-task';
import { fixedFlowDueAt, fixedRotationsTask } from './modules/handoffs/handoff-flow-task';
import {
  incidentStepDueAt,
  incidentTimersTask,
} from './modules/incidents/incident-escalation-task';
import { changeLogTask } from './modules/live/change-log-task';
import {
  scheduledChangeDueAt,
  scheduledRotationsTask,
  scheduleNoticesTask,
} from './modules/schedules/schedule-task';
import { sessionSweepTask } from './modules/sessions/session-sweep-task';
import { shiftChangesTask } from './modules/shift-changes/shift-change-task';
import { timeOffNoticesTask } from './modules/time-off/time-off-task';
import { tokenSyncTask } from './modules/token-sync/token-sync-task';

// The composition root of the clock-driven work (decision 238): each module owns its tasks, the
// engine (src/server/engine) runs a list it is given, and this file is that list.

/**
 * ENGINE_TASKS run in this order on every tick: coverage windows first (they decide who holds
 * the baton while they run), then fixed rotations' handoff flow, scheduled rotations' changes
 * and the notices before the coming ones, missed acknowledgements (they read the handoffs the
 * others just made), the people whose shifts an edit moved (decision 219), the incidents'
 * escalation (it reads who holds the baton now), and last the notices of gaps and collisions
 * that time off makes (decision 217), destinations' daily digests and failing notices
 * (decision 221), keeping the live stream's change log to its ten minutes (decision 220), and the
 * token sync's renewals and sign-outs by expiry (decision 228), and after it the sweep of expired
 * sessions (decision 229), so a synced session's DELETE is queued from its row first, and the
 * raw payloads of old alerts (decision 232).
 */
export const ENGINE_TASKS: readonly NamedEngineTask[] = [
  { name: 'coverage windows', run: coverageWindowsTask, nextDueAt: coverageDueAt },
  { name: 'fixed rotations', run: fixedRotationsTask, nextDueAt: fixedFlowDueAt },
  { name: 'scheduled rotations', run: scheduledRotationsTask, nextDueAt: scheduledChangeDueAt },
  { name: 'scheduled notices', run: scheduleNoticesTask },
  { name: 'acknowledgements', run: acknowledgementsTask },
  { name: 'shift changes', run: shiftChangesTask },
  { name: 'incident escalation', run: incidentTimersTask, nextDueAt: incidentStepDueAt },
  { name: 'time-off notices', run: timeOffNoticesTask },
  { name: 'destinations', run: destinationsTask },
  { name: 'change log', run: changeLogTask },
  { name: 'token sync', run: tokenSyncTask },
  { name: 'expired sessions', run: sessionSweepTask },
  { name: 'old alert payloads', run: alertPayloadSweepTask },
];

/** runEngineTick runs every task of ENGINE_TASKS at `now`, in order (see runTasks). */
export function runEngineTick(deps: EngineDeps, now: Date): Promise<void> {
  return runTasks(deps, now, ENGINE_TASKS);
}
