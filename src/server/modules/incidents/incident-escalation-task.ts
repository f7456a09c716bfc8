import { nextEscalation } from '../../../shared/domain/escalation';
import type { EngineTask, NextDueAt } from '../../engine/engine-task';
import { postIncident } from './incident-destinations';
import { exhaustIncident, takeStep } from './incident-engine';
import { type IncidentDeps, progressOf } from './incident-facts';
import { listDueIncidentIds, lockIncidentRow, nextIncidentDueAt } from './incident-repository';

/**
 * The clock of the escalation engine (decision 204): each open incident whose next step is due
 * takes ONE step per tick, reached at `now` (after downtime: one step, and the next waits its full
 * delay; no burst of stale reminders). Each step in its own transaction holding the incident row's
 * lock, deciding again there: an acknowledgement that committed first means nothing is sent, and a
 * repeated or concurrent run finds the step already taken (and the notifications' dedupe keys,
 * with the incident, step, loop and step start, would refuse a second copy anyway).
 */

export interface IncidentTimerReport {
  /** steps that reminded the same people (a reminder step) */
  reminded: number;
  /** steps that reached other people (after any skipped on the way) */
  escalated: number;
  /** incidents whose policy ran out */
  exhausted: number;
}

type Outcome = keyof IncidentTimerReport | null;

export async function runIncidentTimers(
  deps: IncidentDeps,
  now: Date,
): Promise<IncidentTimerReport> {
  const report: IncidentTimerReport = { reminded: 0, escalated: 0, exhausted: 0 };
  // One at a time: a follow-up (decision 213) reads the person's pages that steps before it wrote.
  for (const id of await listDueIncidentIds(deps.database.db, now)) {
    const outcome = await stepIfDue(deps, id, now);
    if (outcome) report[outcome] += 1;
  }
  return report;
}

/** stepIfDue takes the step due for one incident, deciding again under its row's lock. */
async function stepIfDue(deps: IncidentDeps, id: number, now: Date): Promise<Outcome> {
  return deps.database.db.transaction(async (tx) => {
    const locked = await lockIncidentRow(tx, id);
    if (!locked) return null;
    const { page } = locked;
    const open = page.status === 'triggered' || page.status === 'escalated';
    if (!open || page.exhaustedAt !== null) return null;
    const next = nextEscalation(page.policy, progressOf(page), now);
    if (!next.due) return null;
    if (next.kind === 'exhausted') {
      await exhaustIncident(tx, deps, locked, now);
      return 'exhausted';
    }
    const after = await takeStep(tx, deps, locked, next, now, { automatic: true, actorId: null });
    if (after.exhaustedAt !== null) return 'exhausted';
    if (after.escalatedAt?.getTime() === page.escalatedAt?.getTime()) return 'reminded';
    await postIncident(tx, deps, {
      type: 'incident.escalated',
      incident: after,
      rotation: locked.rotation && { id: locked.rotation.id, name: locked.rotation.name },
      now,
    });
    return 'escalated';
  });
}

/** incidentTimersTask is the engine task of the escalation engine. */
export const incidentTimersTask: EngineTask = async (deps, now) => {
  await runIncidentTimers(deps, now);
};

/** incidentStepDueAt: when the escalation engine next has a step to take (decision 275). */
export const incidentStepDueAt: NextDueAt = (deps, now) => nextIncidentDueAt(deps.database.db, now);
