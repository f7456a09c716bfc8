import {
  escalationTarget,
  isPageOpen,
  nextPageStep,
  PAGE_TIMINGS,
  type PageStatus,
  stepStartOf,
} from '../../../shared/domain/paging';
import { escalationMembers, facts, type PagingDeps } from './page-facts';
import { escalate, remind } from './page-steps';
import {
  existingDedupeKeys,
  listMemberRoles,
  listTimerCandidates,
  lockPageRow,
  type PageRow,
} from './paging-repository';

/** The clock: reminders, warnings and automatic escalations (an engine task). */

const reminderKeys = (page: PageRow) => {
  const base = `page:${page.id}:reminder:${stepStartOf(page).getTime()}:${page.targetUserId}`;
  return [`${base}:email`, `${base}:sms`];
};

export interface PageTimerReport {
  reminded: number;
  escalated: number;
}

/**
 * runPageTimers takes every automatic paging step due at `now`. Idempotent: a step runs in its own
 * transaction holding the page row's lock and re-checks the page there, so an acknowledgement
 * that commits first means nothing is sent, and a repeated or concurrent run sends nothing twice
 * (the escalation is conditional on the status; reminders carry a dedupe key).
 */
export async function runPageTimers(deps: PagingDeps, now: Date): Promise<PageTimerReport> {
  const db = deps.database.db;
  const report: PageTimerReport = { reminded: 0, escalated: 0 };
  const candidates = await listTimerCandidates(db, {
    oldest: new Date(now.getTime() - PAGE_TIMINGS.automaticStepsWithinMs),
    latest: new Date(now.getTime() - PAGE_TIMINGS.reminderAfterMs),
  });
  if (candidates.length === 0) return report;
  const members = await listMemberRoles(
    db,
    candidates.map((c) => c.rotation.id),
  );
  const sent = await existingDedupeKeys(
    db,
    candidates.flatMap((c) => reminderKeys(c.page)),
  );
  for (const { page, rotation } of candidates) {
    const step = nextPageStep(
      {
        ...facts(page),
        reminderSent: reminderKeys(page).some((k) => sent.has(k)),
        hasEscalationTarget:
          escalationTarget(escalationMembers(members, rotation.id), page.targetUserId) !== null,
      },
      now,
    );
    if (!step) continue;
    const done = await runStep(deps, page.id, now);
    if (done === 'escalate') report.escalated += 1;
    if (done === 'remind') report.reminded += 1;
  }
  return report;
}

/** runStep takes the step due for one page, deciding again under the page row's lock. */
async function runStep(
  deps: PagingDeps,
  pageId: number,
  now: Date,
): Promise<'remind' | 'escalate' | null> {
  return deps.database.db.transaction(async (tx) => {
    const locked = await lockPageRow(tx, pageId);
    // Acknowledged, resolved or gone while we were looking: nothing to send.
    if (!locked || locked.rotation.suspended || !isPageOpen(locked.page.status as PageStatus)) {
      return null;
    }
    const { page, rotation } = locked;
    const members = escalationMembers(await listMemberRoles(tx, [rotation.id]), rotation.id);
    const next = escalationTarget(members, page.targetUserId);
    const step = nextPageStep(
      { ...facts(page), reminderSent: false, hasEscalationTarget: next !== null },
      now,
    );
    if (!step) return null;
    if (step.kind === 'escalate' && next !== null) {
      await escalate(tx, deps, locked, {
        toUserId: next,
        reason: 'Not acknowledged within 30 minutes',
        actorId: null,
        automatic: true,
        now,
      });
      return 'escalate';
    }
    return (await remind(tx, deps, locked, next, now)) ? 'remind' : null;
  });
}
