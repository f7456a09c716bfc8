import type { User } from '../../../shared/contracts/users';
import type { NotificationPreference } from '../../../shared/domain/notification-routing';
import {
  type NotificationRules,
  planRules,
  preferenceRules,
  type ReadyMethods,
  type RulePlan,
  ruleUrgencyOf,
} from '../../../shared/domain/notification-rules';
import type { Urgency } from '../../../shared/domain/paging';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import { lowUrgencyHeldUntil } from '../../../shared/domain/working-hours';
import type { Tx } from '../../db/client';
import { stopDelayedRules } from '../notifications/outbox-marks';
import type { Person } from '../notifications/person-events';
import { countPushDevices } from '../push/push-subscription-repository';
import { findNotificationRules } from '../users/user-repository';
import { findWorkingHours } from '../users/working-hours-repository';
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
  /**
   * a low-urgency page outside the person's working hours waits for their next start (decision
   * 254); absent: it goes as the rules say
   */
  heldUntil?: Date;
  /** how many devices the person turned push on for (decision 253) */
  pushDevices: number;
}

/**
 * pagedRules reads the own rules of the people a step pages (one query), planned for the urgency
 * and for what this server sends (`ready`: calls once Twilio is configured, decision 252); with
 * `now`, a low-urgency page to someone who holds it to their working hours, outside them, is held
 * until they begin (decision 254; the preference's rules stand in for their own).
 */
export async function pagedRules(
  tx: Tx,
  people: readonly User[],
  urgency: Urgency,
  { now, ready = {} }: { now?: Date; ready?: ReadyMethods } = {},
): Promise<Map<number, PagedRules>> {
  const ids = people.map((p) => p.id);
  const own = await findNotificationRules(tx, ids);
  const phones = new Map(people.map((p) => [p.id, p.phone]));
  // Only people with rules of their own can have a push rule: their devices, in one more query.
  const rulesByPush = [...own].filter(([, r]) =>
    r[ruleUrgencyOf(urgency)].some((rule) => rule.method === 'push'),
  );
  const devices = await countPushDevices(
    tx,
    rulesByPush.map(([id]) => id),
  );
  const ruled = new Map<number, PagedRules>(
    [...own].map(([id, rules]) => {
      const pushDevices = devices.get(id) ?? 0;
      const plan = planRules(rules[ruleUrgencyOf(urgency)], phones.get(id), {
        ...ready,
        pushDevices,
      });
      return [id, { rules, plan, pushDevices }];
    }),
  );
  if (!now || urgency !== 'low') return ruled;
  const hours = await findWorkingHours(tx, ids);
  for (const person of people) {
    const worked = hours.get(person.id);
    const heldUntil =
      worked && lowUrgencyHeldUntil(worked.hours, zoneOrUtc(worked.timeZone), urgency, now);
    if (!heldUntil) continue;
    const rules =
      ruled.get(person.id)?.rules ??
      preferenceRules(person.notificationPreference as NotificationPreference, person.phone);
    const pushDevices = devices.get(person.id) ?? 0;
    ruled.set(person.id, {
      rules,
      plan: planRules(rules[ruleUrgencyOf(urgency)], person.phone, { ...ready, pushDevices }),
      heldUntil,
      pushDevices,
    });
  }
  return ruled;
}

/** ruledPerson: the person as a page tells them, with their own rules when they have them. */
export function ruledPerson(person: User, ruled: PagedRules | undefined): Person & User {
  if (!ruled) return person;
  const told = { ...person, notificationRules: ruled.rules, pushDevices: ruled.pushDevices };
  return ruled.heldUntil ? { ...told, heldUntil: ruled.heldUntil } : told;
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
