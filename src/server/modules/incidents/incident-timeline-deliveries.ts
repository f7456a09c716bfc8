import type { TimelineEvent } from '../../../shared/contracts/incidents';
import type { PagePerson } from '../../../shared/contracts/paging';
import { NOTIFICATION_METHODS } from '../../../shared/domain/notification-rules';
import { CALL_OUTCOMES, callKeyOf } from '../../../shared/domain/voice-calls';
import { EMAILED_AT_ONCE } from '../notifications/person-limit';
import { failureReason } from '../notifications/provider-answers';
import type { IncidentEventRow, IncidentNotificationRow } from './incident-repository';

/**
 * The timeline's lines of what an incident sent people (decision 205) and, since decision 251,
 * what their notification rules could not send: each notification row as it stands (pending, due
 * later by a rule, sent, retried, failed, stopped by the acknowledgement), and each person's
 * skipped rules with why.
 */

type Person = PagePerson;

/** deliveryOf reads a notification's state: 'retried' while a failed attempt waits for the next. */
function deliveryOf(n: IncidentNotificationRow): NonNullable<TimelineEvent['delivery']> {
  if (n.status === 'sent') return 'sent';
  if (n.status === 'failed') return 'failed';
  if (n.status === 'stopped') return 'stopped';
  if (n.status === 'bundled') return 'bundled';
  return n.attempts > 0 ? 'retried' : 'pending';
}

/** toNotifiedEvent: one notification row as the timeline shows it. */
export function toNotifiedEvent(
  n: IncidentNotificationRow,
  person: (id: number | null) => Person | null,
): TimelineEvent {
  const delivery = deliveryOf(n);
  // the provider's answer while it matters: failed for good, or failed once and waiting
  const troubled = delivery === 'failed' || delivery === 'retried';
  // a row a rule delayed (decision 251), not tried yet: when it is due
  const delayed = n.attempts === 0 && n.nextAttemptAt.getTime() > n.createdAt.getTime();
  return {
    kind: 'notified',
    at: n.createdAt.toISOString(),
    actor: null,
    to: person(n.userId),
    channel:
      n.channel === 'sms' || n.channel === 'voice' || n.channel === 'push' ? n.channel : 'email',
    delivery,
    attempts: n.attempts,
    error:
      delivery === 'stopped' || delivery === 'bundled'
        ? n.lastError
        : troubled && n.lastError !== null
          ? failureReason(n.lastError, n.providerResponse)
          : null,
    ...(delayed ? { dueAt: n.nextAttemptAt.toISOString() } : {}),
    ...(n.held === 'working-hours' || n.held === 'limit' ? { held: n.held } : {}),
    // The limit held it and its words went by email at once, or this is that email (decision 265).
    ...(n.held === 'limit-email'
      ? { limitEmail: 'email' as const }
      : n.held === 'limit' && n.lastError?.includes(EMAILED_AT_ONCE)
        ? { limitEmail: 'emailed' as const }
        : {}),
  };
}

/** toRulesSkippedEvent: a paged person's rules that could not reach them, with why. */
export function toRulesSkippedEvent(
  e: IncidentEventRow,
  person: (id: number | null) => Person | null,
): TimelineEvent {
  const d = e.details ?? {};
  const skipped = Array.isArray(d.skipped) ? (d.skipped as Record<string, unknown>[]) : [];
  return {
    kind: 'rules_skipped',
    at: e.createdAt.toISOString(),
    actor: null,
    to: person(typeof d.userId === 'number' ? d.userId : null),
    rules: skipped.flatMap((s) => {
      const method = NOTIFICATION_METHODS.find((m) => m === s.method);
      if (!method || typeof s.delayMinutes !== 'number' || typeof s.reason !== 'string') return [];
      return [{ method, delayMinutes: s.delayMinutes, reason: s.reason }];
    }),
    emailInstead: d.emailInstead === true,
  };
}

/** toCallEvent: what a phone call to a paged person came to, and the key they pressed. */
export function toCallEvent(
  e: IncidentEventRow,
  person: (id: number | null) => Person | null,
): TimelineEvent {
  const d = e.details ?? {};
  return {
    kind: 'call',
    at: e.createdAt.toISOString(),
    actor: null,
    to: person(typeof d.userId === 'number' ? d.userId : null),
    channel: 'voice',
    callOutcome: CALL_OUTCOMES.find((o) => o === d.outcome) ?? 'failed',
    key: callKeyOf(typeof d.key === 'string' ? d.key : null),
  };
}
