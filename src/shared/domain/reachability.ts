import type { NotificationPreference } from './notification-routing';
import {
  METHOD_LABELS,
  NOTIFICATION_METHODS,
  type NotificationMethod,
  type NotificationRules,
  planRules,
  preferenceRules,
  RULE_URGENCIES,
  type RuleReach,
  type RuleUrgency,
  unreachableReason,
} from './notification-rules';

/**
 * Whether and how a person can be reached (issue 33, decision 254): each method with why not,
 * and each urgency none of whose rules can reach them (the page then goes by email instead, and
 * their managers are warned). Pure: the person's facts and what the server has set up come in.
 */

export interface ReachFacts {
  phone: string | null | undefined;
  notificationPreference: string;
  /** their own rules, or null: their preference's */
  notificationRules: NotificationRules | null;
}

/** Which methods this server can send by at all (a channel without settings cannot). */
export type SetUpMethods = Partial<Record<NotificationMethod, string | null>>;

export interface MethodReach {
  method: NotificationMethod;
  /** null: the method reaches them; else why not, in words */
  whyNot: string | null;
}

export interface UrgencyGap {
  urgency: RuleUrgency;
  /** why each of their rules for the urgency cannot reach them */
  reasons: string[];
}

export interface Reach {
  methods: MethodReach[];
  /** the urgencies none of whose rules can reach them */
  gaps: UrgencyGap[];
}

/**
 * reachOf: each method with why it cannot reach the person (the server's setting first, then
 * their profile; `reach`: calls once set up, their devices for push), and the urgencies their
 * rules leave them unreachable by.
 */
export function reachOf(
  person: ReachFacts,
  notSetUp: SetUpMethods = {},
  reach: RuleReach = {},
): Reach {
  const methods = NOTIFICATION_METHODS.map((method) => ({
    method,
    whyNot: notSetUp[method] ?? unreachableReason(method, person.phone, reach),
  }));
  const rules =
    person.notificationRules ??
    preferenceRules(person.notificationPreference as NotificationPreference, person.phone);
  const gaps = RULE_URGENCIES.flatMap((urgency) => {
    const plan = planRules(rules[urgency], person.phone, reach);
    if (!plan.emailInstead) return [];
    return [{ urgency, reasons: [...new Set(plan.skipped.map((s) => s.reason))] }];
  });
  return { methods, gaps };
}

/** reachGapWords: "high urgency: SMS needs a phone number on the profile". */
export function reachGapWords(gaps: readonly UrgencyGap[]): string {
  return gaps.map((g) => `${g.urgency} urgency: ${g.reasons.join('; ')}`).join('; ');
}

/** methodBadge: "SMS" or "SMS (needs a phone number)" style label with why not. */
export function methodBadge(reach: MethodReach): string {
  return reach.whyNot
    ? `${METHOD_LABELS[reach.method]}: ${reach.whyNot}`
    : METHOD_LABELS[reach.method];
}
