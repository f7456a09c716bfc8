import type { User } from '../../../shared/contracts/users';
import {
  type NotificationRules,
  planRules,
  type ReadyMethods,
  type RulePlan,
  ruleUrgencyOf,
} from '../../../shared/domain/notification-rules';
import type { Urgency } from '../../../shared/domain/paging';
import type { Tx } from '../../db/client';
import { stopDelayedRules } from '../notifications/outbox';
import type { Person } from '../notifications/person-events';
import { findNotificationRules } from '../users/user-repository';
import { emailOnly } from './incident-facts';
import { insertIncidentEvent } from './incident-repository';

/**
 * Personal notification rules at an incident's steps (issue 33, decision 251): the people a step
 * pages carry their own rules into `announce`, which writes each rule's row due after its delay;
 * what a person's rules cannot send is recorded on the incident's timeline with why; and an
 * acknowledgement or resolution stops the rows still waiting.
 */

/** One paged person's rules for the incident's urgency, and what they send. */
export interface PagedRules {
  rules: NotificationRules;
  plan: RulePlan;
}

/**
 * pagedRules reads the own rules of the people a step pages (one query), planned for the urgency
 * and for what this server sends (`ready`: calls once Twilio is configured, decision 252).
 */
export async function pagedRules(
  tx: Tx,
  people: readonly User[],
  urgency: Urgency,
  ready: ReadyMethods = {},
): Promise<Map<number, PagedRules>> {
  const own = await findNotificationRules(
    tx,
    people.map((p) => p.id),
  );
  const phones = new Map(people.map((p) => [p.id, p.phone]));
  return new Map(
    [...own].map(([id, rules]) => [
      id,
      { rules, plan: planRules(rules[ruleUrgencyOf(urgency)], phones.get(id), ready) },
    ]),
  );
}

/** ruledPerson: the person as a page tells them, with their own rules when they have them. */
export function ruledPerson(person: User, ruled: PagedRules | undefined): Person & User {
  return ruled ? { ...person, notificationRules: ruled.rules } : person;
}

/**
 * bySms: whether a page goes to the person by SMS (so it carries a reply code): by their rules
 * when they have them, else as the urgency has it.
 */
export function pagedBySms(urgency: Urgency, ruled: PagedRules | undefined): boolean {
  if (!ruled) return !emailOnly(urgency);
  return ruled.plan.deliveries.some((d) => d.channel === 'sms');
}

/**
 * recordSkippedRules writes on the incident's timeline the rules of a paged person that could not
 * reach them, each with why, and when none could, that the page went by email instead.
 */
export async function recordSkippedRules(
  tx: Tx,
  incidentId: number,
  userId: number,
  ruled: PagedRules | undefined,
  now: Date,
): Promise<void> {
  if (!ruled || ruled.plan.skipped.length === 0) return;
  await insertIncidentEvent(tx, {
    actorUserId: null,
    action: 'incident.rules_skipped',
    incidentId,
    details: {
      userId,
      skipped: ruled.plan.skipped.map((s) => ({
        method: s.method,
        delayMinutes: s.delayMinutes,
        reason: s.reason,
      })),
      emailInstead: ruled.plan.emailInstead,
    },
    at: now,
  });
}

/** Why the rows a rule delayed were stopped (their `last_error`, the timeline's words). */
export const STOPPED_BY = {
  acknowledged: 'the incident was acknowledged before it was due',
  resolved: 'the incident was resolved before it was due',
} as const;

/** stopRules stops the incident's delayed rules, for everyone, in the caller's transaction. */
export async function stopRules(
  tx: Tx,
  incidentId: number,
  why: keyof typeof STOPPED_BY,
): Promise<void> {
  await stopDelayedRules(tx, incidentId, STOPPED_BY[why]);
}
