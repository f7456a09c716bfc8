import type { TimelineEvent } from '@shared/contracts/incidents';
import { delayWords, METHOD_LABELS } from '@shared/domain/notification-rules';
import { callOutcomeWords } from '@shared/domain/voice-calls';
import { formatDuration } from '@/lib/format-time';

/*
 * The incident timeline in words (issue 16). Every kind of TimelineEvent reads as one line:
 * "Step 2 reached: Priya Shah (holder)", "Email to Priya Shah sent", "Step 3 skipped: rotation
 * suspended". Pure, so each wording is tested without a screen.
 */

type Person = { name: string } | null | undefined;
type Skipped = NonNullable<TimelineEvent['skipped']>[number];
type Notified = NonNullable<TimelineEvent['notified']>[number];

const nameOf = (person: Person, fallback = 'a deleted user') => person?.name ?? fallback;

/** listInWords joins ['a', 'b', 'c'] as 'a, b and c'. */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const CHANNEL_TEXT = { email: 'Email', sms: 'SMS', voice: 'Call', push: 'Push' } as const;

/** How an acknowledgement or a resolution came in, after the person's name. */
const VIA_TEXT = {
  app: '',
  link: ' from the email’s link',
  sms: ' by SMS reply',
  integration: ' by an integration',
  slack: ' from Slack',
  phone: ' by phone',
} as const;

/** What a skipped target stood for when no person is named ('the holder'). */
const TARGET_TEXT: Record<Skipped['target']['type'], string> = {
  'rotation-holder': 'the holder',
  'rotation-next': 'the next on call',
  'rotation-backup': 'the backup',
  'rotation-members': 'the members',
  user: 'a named person',
};

/** notifiedText reads 'Priya Shah (holder)', or 'Sam Lee (holder, member)'. */
export function notifiedText(person: Notified): string {
  return person.reasons.length > 0 ? `${person.name} (${person.reasons.join(', ')})` : person.name;
}

/** skippedText reads 'Sam Lee (person without a channel)', or 'the holder (rotation suspended)'. */
export function skippedText(skipped: Skipped): string {
  const who = skipped.person ? skipped.person.name : TARGET_TEXT[skipped.target.type];
  return `${who} (${skipped.reason})`;
}

/** stepName reads 'Step 2', or 'Step 2 (loop 2)' once the policy runs again (loop is one-based). */
export function stepName(step: number | undefined, loop: number | undefined): string {
  const base = step === undefined ? 'A step' : `Step ${step}`;
  return loop !== undefined && loop > 1 ? `${base} (loop ${loop})` : base;
}

const withReason = (text: string, reason: string | null | undefined) =>
  reason ? `${text}: ${reason}` : text;

function peopleText(event: TimelineEvent): string {
  const notified = (event.notified ?? []).map(notifiedText);
  return notified.length > 0 ? listInWords(notified) : 'nobody notified';
}

/**
 * timelineDetail returns the second, quieter line of a step that notified someone but skipped
 * some of its targets ('Skipped: the backup (nobody to notify)'); null for every other event.
 */
export function timelineDetail(event: TimelineEvent): string | null {
  if (event.kind !== 'step_reached' && event.kind !== 'reminder') return null;
  const skipped = (event.skipped ?? []).map(skippedText);
  return skipped.length > 0 ? `Skipped: ${listInWords(skipped)}` : null;
}

function deliveryText(event: TimelineEvent): string {
  const line = deliveryLine(event);
  // The limit held a text or call and its words went by email at once (decision 265).
  if (event.limitEmail === 'emailed') return `${line}; its words went by email at once`;
  if (event.limitEmail === 'email')
    return `${line}, in place of a text or call the limit held back`;
  return line;
}

function deliveryLine(event: TimelineEvent): string {
  const channel = event.channel ? CHANNEL_TEXT[event.channel] : 'Notification';
  const head = `${channel} to ${nameOf(event.to)}`;
  const error = event.error ? `: ${event.error}` : '';
  switch (event.delivery) {
    case 'sent':
      // A call is placed when Twilio takes it; whether it was answered is its own line.
      return event.channel === 'voice' ? `${head} placed` : `${head} sent`;
    case 'failed':
      return `${head} failed${error}`;
    case 'retried':
      // A failed attempt waiting for the next one.
      return `${head} failed${error}, retrying`;
    case 'stopped':
      // A notification rule's message the acknowledgement stopped before it was due.
      return `${head} stopped${error}`;
    case 'bundled':
      // Held by the person's limit of texts and calls, then sent inside one later message.
      return `${head} held by the limit, then sent in one bundle with the others held`;
    default:
      if (event.held === 'working-hours' && event.dueAt)
        return `${head} held until their working hours begin, in ${heldForText(event, event.dueAt)}`;
      if (event.held === 'limit' && event.dueAt)
        return `${head} held by the limit for ${heldForText(event, event.dueAt)}, then bundled`;
      return event.dueAt
        ? `${head} due ${delayWords(minutesBetween(event.at, event.dueAt))} (notification rule)`
        : `${head} waiting to be sent`;
  }
}

/** heldForText reads how long a held message waits after it was written: '13 hours', '9 minutes'. */
function heldForText(event: TimelineEvent, dueAt: string): string {
  return formatDuration(new Date(event.at), new Date(dueAt));
}

const minutesBetween = (from: string, to: string) =>
  Math.round((Date.parse(to) - Date.parse(from)) / 60_000);

/** rulesSkippedText reads 'Notification rules of Sam Lee skipped: Phone call after 3 minutes (Phone calls are not set up yet)'. */
function rulesSkippedText(event: TimelineEvent): string {
  const rules = (event.rules ?? []).map(
    (r) => `${METHOD_LABELS[r.method]} ${delayWords(r.delayMinutes)} (${r.reason})`,
  );
  const head = `Notification rules of ${nameOf(event.to)} skipped: ${listInWords(rules)}`;
  return event.emailInstead ? `${head}; no rule could reach them, so the page went by email` : head;
}

/** Who acknowledged or resolved: a person (and how), or the integration that sent it. */
function byText(event: TimelineEvent): string {
  if (!event.actor && event.source) return `${event.source} (integration)`;
  return `${nameOf(event.actor)}${VIA_TEXT[event.via ?? 'app']}`;
}

/**
 * timelineText returns the words of one timeline event (the time, a note's text and the skipped
 * targets of a step reached, timelineDetail, aside).
 */
export function timelineText(event: TimelineEvent): string {
  switch (event.kind) {
    case 'raised':
      return event.actor
        ? `Raised by ${event.actor.name}`
        : event.source
          ? `Raised by ${event.source} (integration)`
          : 'Raised';
    case 'notified':
      return deliveryText(event);
    case 'step_reached':
      // A page from before issue 16 told its backup outside any step.
      return event.step === undefined
        ? `Notified ${peopleText(event)}`
        : `${stepName(event.step, event.loop)} reached: ${peopleText(event)}`;
    case 'reminder':
      return `Reminder at ${stepName(event.step, event.loop).toLowerCase()}: ${peopleText(event)}`;
    case 'step_skipped': {
      // Targets skipped for different reasons say each; one reason says it once.
      const skipped = event.skipped ?? [];
      const reasons = new Set(skipped.map((s) => s.reason));
      const why =
        reasons.size > 1
          ? listInWords(skipped.map(skippedText))
          : (event.skipReason ?? skipped[0]?.reason ?? 'nobody to notify');
      return `${stepName(event.step, event.loop)} skipped: ${why}`;
    }
    case 'escalated': {
      // A page from before issue 16 escalated to a person, not to a step.
      const people = (event.notified ?? []).map((p) => p.name);
      const to =
        event.step !== undefined
          ? `step ${event.step}`
          : people.length > 0
            ? listInWords(people)
            : 'the next step';
      const by = event.automatic ? ' automatically' : ` by ${nameOf(event.actor)}`;
      return withReason(`Escalated to ${to}${by}`, event.reason);
    }
    case 'reassigned': {
      const to = (event.notified ?? []).map((p) => p.name);
      const toText = to.length > 0 ? listInWords(to) : nameOf(event.to, 'someone');
      return withReason(`Reassigned to ${toText} by ${nameOf(event.actor)}`, event.reason);
    }
    case 'acknowledged':
      return `Acknowledged by ${byText(event)}`;
    case 'resolved':
      return `Resolved by ${byText(event)}`;
    case 'alert':
      return event.alertOutcome === 'folded'
        ? `Alert from ${event.source ?? 'an integration'} folded into this storm`
        : `Alert from ${event.source ?? 'an integration'} changed: a new event`;
    case 'note':
      return `Note by ${nameOf(event.actor)}`;
    case 'exhausted':
      return 'Policy ran out with nobody acknowledging';
    case 'rules_skipped':
      return rulesSkippedText(event);
    case 'reopened':
      return withReason(`Reopened by ${nameOf(event.actor)}`, event.reason);
    case 'call':
      return `Call to ${nameOf(event.to)}: ${callOutcomeWords(event.callOutcome ?? 'failed', event.key ?? null)}`;
  }
}

/** isTimelineProblem tells whether the event is one to draw the eye to: a failure, a skip, the end. */
export function isTimelineProblem(event: TimelineEvent): boolean {
  return (
    (event.kind === 'notified' && event.delivery === 'failed') ||
    event.kind === 'step_skipped' ||
    (event.kind === 'rules_skipped' && event.emailInstead === true) ||
    (event.kind === 'call' &&
      event.callOutcome !== undefined &&
      event.callOutcome !== 'answered') ||
    event.kind === 'exhausted'
  );
}
