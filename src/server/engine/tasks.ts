import { alertPayloadSweepTask } from '../modules/alerts/alert-payload-sweep';
import { destinationsTask } from '../modules/destinations/destination-digest';
import { incidentTimersTask } from '../modules/incidents/incident-timers';
import { changeLogTask } from '../modules/live/change-log-task';
import { sessionSweepTask } from '../modules/sessions/session-sweep-task';
import { shiftChangesTask } from '../modules/shift-changes/shift-changes';
import { timeOffNoticesTask } from '../modules/time-off/time-off-notices';
import { tokenSyncTask } from '../modules/token-sync/token-sync-task';
import { acknowledgementsTask } from './acknowledgements';
import { coverageWindowsTask } from './coverage-windows';
import type { EngineTask } from './engine-task';
import { fixedRotationsTask } from './fixed-rotations';
import { scheduledRotationsTask, scheduleNoticesTask } from './scheduled-rotations';

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
export const ENGINE_TASKS: { name: string; run: EngineTask }[] = [
  { name: 'coverage windows', run: coverageWindowsTask },
  { name: 'fixed rotations', run: fixedRotationsTask },
  { name: 'scheduled rotations', run: scheduledRotationsTask },
  { name: 'scheduled notices', run: scheduleNoticesTask },
  { name: 'acknowledgements', run: acknowledgementsTask },
  { name: 'shift changes', run: shiftChangesTask },
  { name: 'incident escalation', run: incidentTimersTask },
  { name: 'time-off notices', run: timeOffNoticesTask },
  { name: 'destinations', run: destinationsTask },
  { name: 'change log', run: changeLogTask },
  { name: 'token sync', run: tokenSyncTask },
  { name: 'expired sessions', run: sessionSweepTask },
  { name: 'old alert payloads', run: alertPayloadSweepTask },
];
