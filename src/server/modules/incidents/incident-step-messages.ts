import type { User } from '../../../shared/contracts/users';
import {
  type EscalationProgress,
  nextEscalation,
  resolveStep,
} from '../../../shared/domain/escalation';
import type { Urgency } from '../../../shared/domain/paging';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { Tx } from '../../db/client';
import type { IncidentPolicyCopy } from '../../db/schema';
import type { LoadedWorld } from '../escalation-policies/escalation-policy-service';
import { addToFollowUps, type FollowUpInput } from '../notifications/follow-ups';
import {
  type AlertFacts,
  type FollowUpIncident,
  pageBackupMessage,
  pageEscalatedNotice,
  pageEscalatedToYouMessage,
  pageMessage,
  pageReminderMessage,
  pageWarningMessage,
  publicBaseUrl,
  type RotationRef,
} from '../notifications/messages';
import { toInput } from '../notifications/notify';
import { enqueueNotifications, type NotificationInput } from '../notifications/outbox';
import { replyCodeFor } from '../sms-replies/reply-codes';
import { findUsers } from '../users/user-repository';
import { ackUrl } from './ack-token';
import {
  emailOnly,
  linkStartOf,
  rotationRefOf,
  type StepCause,
  type StepDeps,
} from './incident-facts';
import { followUpInput, type StepFollowUps } from './incident-follow-ups';
import { insertIncidentEvent, type LockedIncident } from './incident-repository';
import { pageMessageOf } from './incident-text';

/**
 * The messages a step sends, once its state is written: each person it reached gets a page, a
 * reminder or "escalated to you" with their own acknowledgement link (the backup at the first
 * step a copy without one), or joins their integration's follow-up instead (decision 213); the
 * person who raised the incident hears how it goes.
 */

const MINUTE = 60_000;

/** A step that reached people, as written: what its messages are about. */
export interface ReachedStep {
  /** the incident as it was before the step */
  incident: LockedIncident;
  loaded: LoadedWorld;
  position: { stepIndex: number; loop: number };
  recipients: { userId: number; reasons: string[] }[];
  now: Date;
  cause: StepCause;
  /** the incident's first step: nobody was notified before */
  first: boolean;
  /** a reminder: the same people again, their links kept */
  reminder: boolean;
  /** when the recipients' links start */
  linkStart: Date;
  /** each recipient's acknowledgement link token */
  tokens: Map<number, string>;
  progress: EscalationProgress;
  followUps: StepFollowUps;
}

/** What every message of one step says alike, read once. */
interface StepWords {
  people: Map<number, User>;
  rotation: RotationRef;
  baseUrl: string;
  message: string;
  urgency: Urgency;
  options: { emailOnly: boolean; pageId: number };
  /** the dedupe key of the step's reminders, escalations and notices */
  eventKey: string;
  /** who paged: the integration, or the person who raised it */
  pagerName: string | null;
  alert: AlertFacts | null;
  /** the first person the step before reached */
  fromName: string | null;
  next: ReturnType<typeof nextEscalation>;
  /** whom the next step would reach as the world is now, or null */
  nextNames: string | null;
  /** why it moved on: the reason a person gave, or how long nobody acknowledged it */
  reason: string;
}

/** The messages of a step, as they are gathered. */
interface Outbox {
  inputs: NotificationInput[];
  followUps: FollowUpInput<FollowUpIncident>[];
}

/** messageStep queues the messages of a step that reached people, in the step's transaction. */
export async function messageStep(tx: Tx, deps: StepDeps, step: ReachedStep): Promise<void> {
  const { page } = step.incident;
  const recipientIds = step.recipients.map((r) => r.userId);
  const people = await findUsers(tx, deps.cipher, [
    ...recipientIds,
    page.pagedById,
    ...page.assigneeIds,
  ]);
  const words = stepWords(deps, step, people);
  const out: Outbox = { inputs: [], followUps: [] };
  for (const recipient of step.recipients) {
    const person = people.get(recipient.userId);
    if (!person) continue;
    const holder = step.recipients.find((r) => !r.reasons.every((x) => x === 'backup'));
    const backupOnly = step.first && recipient.reasons.every((x) => x === 'backup') && holder;
    if (backupOnly && holder) {
      await messageBackup(tx, deps, step, words, { person, holderId: holder.userId }, out);
    } else {
      await messageRecipient(tx, deps, step, words, person, out);
    }
  }
  const notice = raiserNotice(step, words);
  if (notice) out.inputs.push(notice);
  await enqueueNotifications(tx, deps.cipher, step.now, out.inputs);
  await addToFollowUps(tx, deps.cipher, step.now, out.followUps);
}

function stepWords(deps: StepDeps, step: ReachedStep, people: Map<number, User>): StepWords {
  const { page } = step.incident;
  const { source } = step.followUps;
  const { now, position } = step;
  const next = nextEscalation(page.policy, step.progress, now);
  const waited = Math.round((now.getTime() - linkStartOf(page).getTime()) / MINUTE);
  return {
    people,
    rotation: rotationRefOf(step.incident),
    baseUrl: publicBaseUrl(deps.config),
    message: pageMessageOf(page, deps.cipher),
    urgency: page.urgency as Urgency,
    options: { emailOnly: emailOnly(page.urgency), pageId: page.id },
    eventKey: `page:${page.id}:step:${position.stepIndex}:${position.loop}:${now.getTime()}`,
    // An integration's incident is paged in its name: "Prometheus paged you".
    pagerName:
      source?.name ?? (page.pagedById === null ? null : (people.get(page.pagedById)?.name ?? null)),
    alert: source?.facts ?? null,
    fromName: page.targetUserId === null ? null : (people.get(page.targetUserId)?.name ?? null),
    next,
    nextNames: nextRecipientNames(page.policy, next, step.loaded),
    reason: step.cause.reason ?? `Not acknowledged within ${waited} minutes`,
  };
}

/** messageBackup: the backup's copy without a link at the first step (decision 130), recorded. */
async function messageBackup(
  tx: Tx,
  deps: StepDeps,
  step: ReachedStep,
  words: StepWords,
  to: { person: User; holderId: number },
  out: Outbox,
): Promise<void> {
  const { incident, now } = step;
  const { page } = incident;
  const { person } = to;
  const { source } = step.followUps;
  const view = incident.rotation ? step.loaded.rotations.get(incident.rotation.id) : undefined;
  if (source && step.followUps.followUpIds.has(person.id)) {
    out.followUps.push(followUpInput(deps, incident, source, { ...words, person, why: 'backup' }));
  } else {
    out.inputs.push(
      toInput(
        `page:${page.id}:backup`,
        'page.backup',
        person,
        pageBackupMessage({
          baseUrl: words.baseUrl,
          rotation: words.rotation,
          timeZone: zoneOrUtc(person.timezone),
          pagerName: words.pagerName,
          holderName: words.people.get(to.holderId)?.name ?? 'The holder',
          message: words.message,
          urgency: words.urgency,
          createdAt: page.createdAt,
          backupUntil: view?.backupUntil ? new Date(view.backupUntil) : null,
          alert: words.alert,
        }),
        words.options,
      ),
    );
  }
  await insertIncidentEvent(tx, {
    actorUserId: null,
    action: 'page.backup_notified',
    incidentId: page.id,
    details: {
      rotationName: words.rotation.name,
      toUserId: person.id,
      until: view?.backupUntil ?? null,
    },
    at: now,
  });
}

/**
 * messageRecipient: a person the step reached gets the page (first step), a reminder, or
 * "escalated to you", with their own link and, by SMS, a reply code; or joins their follow-up.
 */
async function messageRecipient(
  tx: Tx,
  deps: StepDeps,
  step: ReachedStep,
  words: StepWords,
  person: User,
  out: Outbox,
): Promise<void> {
  const { incident, now, first, reminder } = step;
  const { page } = incident;
  const { source } = step.followUps;
  if (source && step.followUps.followUpIds.has(person.id)) {
    const why = first ? 'new' : reminder ? 'reminder' : 'escalated';
    out.followUps.push(followUpInput(deps, incident, source, { ...words, person, why }));
    return;
  }
  const { next, nextNames } = words;
  const common = {
    baseUrl: words.baseUrl,
    rotation: words.rotation,
    timeZone: zoneOrUtc(person.timezone),
    pagerName: words.pagerName,
    message: words.message,
    urgency: words.urgency,
    ackUrl: ackUrl(words.baseUrl, step.tokens.get(person.id) as string),
    replyCode: await replyCodeFor(tx, deps, {
      pageId: page.id,
      recipient: person,
      emailOnly: words.options.emailOnly,
      now,
    }),
    alert: words.alert,
  };
  if (first) {
    const text = pageMessage({ ...common, createdAt: page.createdAt });
    out.inputs.push(toInput(`page:${page.id}:sent`, 'page', person, text, words.options));
  } else if (reminder) {
    const text = pageReminderMessage({
      ...common,
      createdAt: step.linkStart,
      escalatesAt: next.kind === 'step' && nextNames ? next.at : null,
    });
    out.inputs.push(toInput(words.eventKey, 'page.reminder', person, text, words.options));
  } else {
    const text = pageEscalatedToYouMessage({
      ...common,
      createdAt: page.createdAt,
      fromName: person.id === page.targetUserId ? null : words.fromName,
      reason: words.reason,
      escalatedAt: now,
    });
    out.inputs.push(toInput(words.eventKey, 'page.escalated', person, text, words.options));
  }
}

/**
 * raiserNotice: the person who raised the incident hears how it goes: a warning at a reminder, a
 * notice when it moved on; nothing at the first step, or when they are among its people or moved
 * it themselves.
 */
function raiserNotice(step: ReachedStep, words: StepWords): NotificationInput | null {
  const { page } = step.incident;
  const recipientIds = step.recipients.map((r) => r.userId);
  const pager = page.pagedById === null ? undefined : words.people.get(page.pagedById);
  if (step.first || !pager || recipientIds.includes(pager.id) || pager.id === step.cause.actorId) {
    return null;
  }
  const { people, next, nextNames } = words;
  const context = {
    baseUrl: words.baseUrl,
    rotation: words.rotation,
    timeZone: zoneOrUtc(pager.timezone),
  };
  if (step.reminder) {
    const text = pageWarningMessage({
      ...context,
      targetName: people.get(recipientIds[0])?.name ?? null,
      message: words.message,
      sentAt: step.linkStart,
      escalation: next.kind === 'step' && nextNames ? { at: next.at, toName: nextNames } : null,
    });
    return toInput(words.eventKey, 'page.warning', pager, text, words.options);
  }
  const text = pageEscalatedNotice({
    ...context,
    fromName: words.fromName,
    toName: namesOf(recipientIds.map((id) => people.get(id)?.name ?? 'a former member')),
    reason: words.reason,
    automatic: step.cause.automatic,
  });
  return toInput(words.eventKey, 'page.escalation_notice', pager, text, words.options);
}

const namesOf = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** Whom the next step would reach as the world is now (for the warning), or null. */
function nextRecipientNames(
  policy: IncidentPolicyCopy,
  next: ReturnType<typeof nextEscalation>,
  loaded: LoadedWorld,
): string | null {
  if (next.kind !== 'step') return null;
  const resolution = resolveStep(policy.steps[next.stepIndex], loaded.world, next.at);
  if (resolution.kind !== 'notify') return null;
  const names = resolution.recipients.map((r) => loaded.people.get(r.userId)?.name ?? '');
  return namesOf(names.filter(Boolean)) || null;
}
