import {
  type ChannelName,
  isE164,
  type NotificationPreference,
  normalizePhone,
  notificationRoute,
} from './notification-routing';
import type { Urgency } from './paging';

/**
 * Personal notification rules (issue 33, decision 251): per urgency, the ways a page reaches a
 * person, each after its own delay ("SMS at once, email after 1 minute"). A person without rules
 * of their own has the rules their Notification Preference means: the preference's channels at
 * once for high urgency and email at once for low (what pages did before rules). Pure.
 */

/** The ways a rule may reach a person. */
export const NOTIFICATION_METHODS = ['email', 'sms', 'voice', 'push'] as const;
export type NotificationMethod = (typeof NOTIFICATION_METHODS)[number];

/** The two urgencies rules are kept for (PagerDuty's high and low). */
export const RULE_URGENCIES = ['high', 'low'] as const;
export type RuleUrgency = (typeof RULE_URGENCIES)[number];

/** A rule's longest delay, in whole minutes. */
export const MAX_RULE_DELAY_MINUTES = 60;
/** At most this many rules per urgency: enough for every method twice, few enough to read. */
export const MAX_RULES_PER_URGENCY = 8;

export interface NotificationRule {
  method: NotificationMethod;
  delayMinutes: number;
}

export interface NotificationRules {
  high: NotificationRule[];
  low: NotificationRule[];
}

export const METHOD_LABELS: Record<NotificationMethod, string> = {
  email: 'Email',
  sms: 'SMS',
  voice: 'Phone call',
  push: 'Push',
};

/** How the preview names each method inside a sentence. */
const METHOD_WORDS: Record<NotificationMethod, string> = {
  email: 'email',
  sms: 'SMS',
  voice: 'call',
  push: 'push',
};

/** ruleUrgencyOf: an incident's urgency as rules know it; medium follows high (decision 251). */
export function ruleUrgencyOf(urgency: Urgency): RuleUrgency {
  return urgency === 'low' ? 'low' : 'high';
}

/**
 * preferenceRules: the rules a Notification Preference means, as pages were sent before rules:
 * high urgency by the preference's channels (SMS only with a usable number), low by email.
 */
export function preferenceRules(
  preference: NotificationPreference,
  phone: string | null | undefined,
): NotificationRules {
  const { channels } = notificationRoute(preference, phone);
  return {
    high: channels.map((method) => ({ method, delayMinutes: 0 })),
    low: [{ method: 'email', delayMinutes: 0 }],
  };
}

/** hasUsablePhone: a phone number on file that SMS and calls can use (E.164). */
export function hasUsablePhone(phone: string | null | undefined): boolean {
  const normalized = normalizePhone(phone);
  return normalized !== null && isE164(normalized);
}

/** The channels a rule's row goes by: a person's email, SMS and calls, and push (decision 253). */
export type RuleChannel = ChannelName | 'push';

/** What this server can deliver: email, SMS, calls (decision 252) and push (decision 253). */
const DELIVERABLE: Partial<Record<NotificationMethod, RuleChannel>> = {
  email: 'email',
  sms: 'sms',
  voice: 'voice',
  push: 'push',
};

/**
 * The methods that need more than email and SMS, and whether this server can send them now:
 * `voice` once Twilio is configured (decision 252). Absent: not set up.
 */
export interface ReadyMethods {
  voice?: boolean;
}

/**
 * What can reach a person besides their phone: the server's ready methods, and how many devices
 * they turned push on for (decision 253).
 */
export interface RuleReach extends ReadyMethods {
  pushDevices?: number;
}

export const RULE_UNREACHABLE = {
  noPhoneSms: 'SMS needs a phone number on the profile',
  noPhoneVoice: 'Phone calls need a phone number on the profile',
  voiceNotSetUp: 'Phone calls are not set up yet',
  noPushDevice: 'No device is set up for push',
} as const;

/**
 * unreachableReason: why a rule's method cannot reach a person with this phone, in words a person
 * reads, or null when it can.
 */
export function unreachableReason(
  method: NotificationMethod,
  phone: string | null | undefined,
  reach: RuleReach = {},
): string | null {
  switch (method) {
    case 'email':
      return null;
    case 'sms':
      return hasUsablePhone(phone) ? null : RULE_UNREACHABLE.noPhoneSms;
    case 'voice':
      if (!hasUsablePhone(phone)) return RULE_UNREACHABLE.noPhoneVoice;
      return reach.voice ? null : RULE_UNREACHABLE.voiceNotSetUp;
    case 'push':
      return (reach.pushDevices ?? 0) > 0 ? null : RULE_UNREACHABLE.noPushDevice;
  }
}

/** phoneRuleProblem: why a rule cannot be saved for a person with this phone (a 400), or null. */
export function phoneRuleProblem(
  method: NotificationMethod,
  phone: string | null | undefined,
): string | null {
  if (hasUsablePhone(phone)) return null;
  if (method === 'sms') return RULE_UNREACHABLE.noPhoneSms;
  if (method === 'voice') return RULE_UNREACHABLE.noPhoneVoice;
  return null;
}

/** One outbox row a rule writes: its channel, due this many minutes after the step. */
export interface RuleDelivery {
  channel: RuleChannel;
  delayMinutes: number;
}

/** A rule that cannot reach the person, and why. */
export interface SkippedRule extends NotificationRule {
  reason: string;
}

export interface RulePlan {
  deliveries: RuleDelivery[];
  skipped: SkippedRule[];
  /** no rule could reach the person: the page goes by email at once instead */
  emailInstead: boolean;
}

/**
 * planRules: what a person's rules for one urgency send (each reachable rule once: the same method
 * and delay twice is one row) and what they skip, with why. A page must reach someone, so when no
 * rule can, it goes by email at once (`emailInstead`, decision 251).
 */
export function planRules(
  rules: readonly NotificationRule[],
  phone: string | null | undefined,
  reach: RuleReach = {},
): RulePlan {
  const deliveries: RuleDelivery[] = [];
  const skipped: SkippedRule[] = [];
  for (const rule of rules) {
    const reason = unreachableReason(rule.method, phone, reach);
    const channel = DELIVERABLE[rule.method];
    if (reason !== null || channel === undefined) {
      skipped.push({ ...rule, reason: reason ?? RULE_UNREACHABLE.voiceNotSetUp });
      continue;
    }
    if (!deliveries.some((d) => d.channel === channel && d.delayMinutes === rule.delayMinutes)) {
      deliveries.push({ channel, delayMinutes: rule.delayMinutes });
    }
  }
  if (deliveries.length > 0) return { deliveries, skipped, emailInstead: false };
  return { deliveries: [{ channel: 'email', delayMinutes: 0 }], skipped, emailInstead: true };
}

/** delayWords: "at once", "after 1 minute", "after 5 minutes". */
export function delayWords(delayMinutes: number): string {
  if (delayMinutes === 0) return 'at once';
  return `after ${delayMinutes} minute${delayMinutes === 1 ? '' : 's'}`;
}

/** rulesWords: one urgency's rules in words, in delay order: "SMS at once, email after 1 minute". */
export function rulesWords(rules: readonly NotificationRule[]): string {
  if (rules.length === 0) return 'nothing';
  return [...rules]
    .sort((a, b) => a.delayMinutes - b.delayMinutes)
    .map((r) => `${METHOD_WORDS[r.method]} ${delayWords(r.delayMinutes)}`)
    .join(', ');
}

/**
 * rulesPreview: a person's rules in words: "High urgency: SMS at once, email after 1 minute; low
 * urgency: email at once".
 */
export function rulesPreview(rules: NotificationRules): string {
  return `High urgency: ${rulesWords(rules.high)}; low urgency: ${rulesWords(rules.low)}`;
}
