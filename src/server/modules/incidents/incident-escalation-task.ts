import { nextEscalation } from '../../../shared/domain/escalation';
import { inBatch } from '../../db/batch-transaction';
import type { Tx } from '../../db/client';
import type { EngineTask, NextDueAt } from '../../engine/engine-task';
import { postIncident } from './incident-destinations';
import { exhaustIncident, takeStep } from './incident-engine';
import { type IncidentDeps, progressOf } from './incident-facts';
import { listDueIncidentIds, lockIncidentRow, nextIncidentDueAt } from './incident-repository';

/**
 * The clock of the escalation engine (decision 204): each open incident whose next step is due
 * takes ONE step per tick, reached at `now` (after downtime: one step, and the next waits its full
 * delay; no burst of stale reminders). Each step holds the incident row's lock in its transaction
 * (shared by up to STEPS_PER_TRANSACTION due steps, decision 277), deciding again there: an
 * acknowledgement that committed first means nothing is sent, and a repeated or concurrent run
 * finds the step already taken (and the notifications' dedupe keys, with the incident, step, loop
 * and step start, would refuse a second copy anyway).
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

/**
 * STEPS_PER_TRANSACTION: how many due steps one transaction takes (decision 277). Steps taken
 * together share the reads they have in common (the policy's world, the people, their rules, the
 * destinations), their ids and their audit events' insert, and one commit (`inBatch`); each
 * incident's row is still locked and its step decided again in the transaction. Small enough
 * that an acknowledgement waits for at most a batch's few tens of milliseconds behind the lock.
 */
export const STEPS_PER_TRANSACTION = 32;

export async function runIncidentTimers(
  deps: IncidentDeps,
  now: Date,
): Promise<IncidentTimerReport> {
  const report: IncidentTimerReport = { reminded: 0, escalated: 0, exhausted: 0 };
  const count = (outcome: Outcome) => {
    if (outcome) report[outcome] += 1;
  };
  // One step after another, in id order: a follow-up (decision 213) reads the person's pages
  // that steps before it wrote, which a batch's own transaction sees.
  const due = await listDueIncidentIds(deps.database.db, now);
  let failure: { err: unknown } | undefined;
  for (let at = 0; at < due.length; at += STEPS_PER_TRANSACTION) {
    const batch = due.slice(at, at + STEPS_PER_TRANSACTION);
    const outcomes = await inBatch(deps.database.db, async (tx) => {
      const taken: Outcome[] = [];
      for (const id of batch) taken.push(await stepIfDue(tx, deps, id, now));
      return taken;
    }).catch(() => null);
    if (outcomes) {
      outcomes.forEach(count);
      continue;
    }
    // The batch failed as a whole and wrote nothing: each step again in a transaction of its
    // own, so one that cannot be taken holds back no other; the first error is the task's.
    for (const id of batch) {
      try {
        count(await deps.database.db.transaction((tx) => stepIfDue(tx, deps, id, now)));
      } catch (err) {
        failure ??= { err };
      }
    }
  }
  if (failure) throw failure.err;
  return report;
}

/** stepIfDue takes the step due for one incident, deciding again under its row's lock. */
async function stepIfDue(tx: Tx, deps: IncidentDeps, id: number, now: Date): Promise<Outcome> {
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
}

/** incidentTimersTask is the engine task of the escalation engine. */
export const incidentTimersTask: EngineTask = async (deps, now) => {
  await runIncidentTimers(deps, now);
};

/** incidentStepDueAt: when the escalation engine next has a step to take (decision 275). */
export const incidentStepDueAt: NextDueAt = (deps, now) => nextIncidentDueAt(deps.database.db, now);
