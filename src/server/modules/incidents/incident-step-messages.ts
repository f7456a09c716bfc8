import type { Severity } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import {
  type EscalationProgress,
  type NextEscalation,
  nextEscalation,
  resolveStep,
} from '../../../shared/domain/escalation';
import type { Urgency } from '../../../shared/domain/paging';
import { idsKey, sharedRead } from '../../db/batch-transaction';
import type { Tx } from '../../db/client';
import type { IncidentPolicyCopy } from '../../db/schema';
import type { LoadedWorld } from '../escalation-policies/escalation-policy-service';
import { announce } from '../notifications/announce';
import { readyMethods } from '../notifications/channels';
import type { RotationFacts } from '../notifications/events';
import type { AlertFacts } from '../notifications/messages';
import type { PageRef, PersonEvent, ToldOf } from '../notifications/person-events';
import { replyCodeFor } from '../sms-replies/reply-codes';
import { findUsers } from '../users/user-repository';
import {
  linkStartOf,
  pageRefOf,
  rotationRefOf,
  type StepCause,
  type StepDeps,
} from './incident-facts';
import { followUpEvent, type StepFollowUps } from './incident-follow-ups';
import { insertIncidentEvent, type LockedIncident } from './incident-repository';
import {
  type PagedRules,
  pagedBySms,
  pagedRules,
  recordSkippedRules,
  ruledPerson,
} from './incident-rules';
import { incidentFactsOf, pageMessageOf } from './incident-text';

/**
 * What a step tells, once its state is written, announced as person events (decision 241): each
 * person it reached gets a page, a reminder or "escalated to you" with their own acknowledgement
 * link and reply code (the backup at the first step a copy without one), or joins their
 * integration's follow-up instead (decision 213); the person who raised the incident hears how
 * it goes.
 */

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

/** What every event of one step shares, read once. */
interface StepFacts {
  people: Map<number, User>;
  /** the own notification rules of the people it pages who have them (decision 251) */
  ruled: Map<number, PagedRules>;
  /** what each of the step's events is about: the page, the rotation its texts name, when */
  about: { page: PageRef; rotation: RotationFacts; at: Date };
  /** what a page to the people it reaches says: who paged, the text, the alert */
  words: {
    pagerName: string | null;
    message: string;
    alert: AlertFacts | null;
    severity: Severity;
    description: string | null;
  };
  /** the event key of the step's reminders, escalations and notices */
  eventKey: string;
  /** the first person the step before reached, and their name (null: nobody, or not known) */
  from: { userId: number | null; name: string | null };
  /** why it moved on: the reason a person gave, else since when nobody acknowledged it */
  moved: { reason: string | null; waitingSince: Date };
  /** the next step's escalation as the world is now, when it would reach someone */
  escalation: { at: Date; toNames: string[] } | null;
}

/** messageStep announces what a step that reached people tells, in the step's transaction. */
export async function messageStep(tx: Tx, deps: StepDeps, step: ReachedStep): Promise<void> {
  const { page } = step.incident;
  const recipientIds = step.recipients.map((r) => r.userId);
  const personIds = [...recipientIds, page.pagedById, ...page.assigneeIds];
  const people = await sharedRead(tx, `people:${idsKey(personIds)}`, () =>
    findUsers(tx, deps.cipher, personIds),
  );
  const ruled = await sharedRead(
    tx,
    `rules:${page.urgency}:${step.now.getTime()}:${idsKey(recipientIds)}`,
    () =>
      pagedRules(
        tx,
        recipientIds.flatMap((id) => people.get(id) ?? []),
        page.urgency as Urgency,
        { now: step.now, ready: readyMethods(deps.config) },
      ),
  );
  const facts = stepFacts(deps, step, people, ruled);
  const events: PersonEvent[] = [];
  const holder = step.recipients.find((r) => !r.reasons.every((x) => x === 'backup'));
  for (const recipient of step.recipients) {
    const person = people.get(recipient.userId);
    if (!person) continue;
    if (step.first && holder && recipient.reasons.every((x) => x === 'backup')) {
      tell(events, await backupEvent(tx, deps, step, facts, { person, holderId: holder.userId }));
    } else {
      tell(events, await recipientEvent(tx, deps, step, facts, person));
    }
  }
  const notice = raiserNotice(step, facts);
  if (notice) events.push(notice);
  await announce(tx, deps, step.now, events);
}

/**
 * tell adds the event of one person the step reached: to the step's last event when it is of the
 * same type (a step's events of one type say the same to everyone they tell), else as the next,
 * so the outbox rows keep the order of the step's people.
 */
function tell(events: PersonEvent[], event: PersonEvent): void {
  const last = events.at(-1);
  // Of the same type, so of the same shape: the union's arrays cannot be pushed to as one.
  if (last?.type === event.type) last.told.push(...(event.told as never[]));
  else events.push(event);
}

function stepFacts(
  deps: StepDeps,
  step: ReachedStep,
  people: Map<number, User>,
  ruled: Map<number, PagedRules>,
): StepFacts {
  const { page } = step.incident;
  const { source } = step.followUps;
  const { now, position } = step;
  const next = nextEscalation(page.policy, step.progress, now);
  const toNames = nextRecipientNames(page.policy, next, step.loaded);
  return {
    people,
    ruled,
    about: { page: pageRefOf(page), rotation: rotationRefOf(step.incident), at: now },
    words: {
      // An integration's incident is paged in its name: "Prometheus paged you".
      pagerName:
        source?.name ??
        (page.pagedById === null ? null : (people.get(page.pagedById)?.name ?? null)),
      message: pageMessageOf(page, deps.cipher),
      alert: source?.facts ?? null,
      ...incidentFactsOf(page, deps.cipher),
    },
    eventKey: `page:${page.id}:step:${position.stepIndex}:${position.loop}:${now.getTime()}`,
    from: {
      userId: page.targetUserId,
      name: page.targetUserId === null ? null : (people.get(page.targetUserId)?.name ?? null),
    },
    moved: { reason: step.cause.reason ?? null, waitingSince: linkStartOf(page) },
    escalation: next.kind === 'step' && toNames.length > 0 ? { at: next.at, toNames } : null,
  };
}

/**
 * sentKey names a first step's page once: at the raise, or at each reopen (decision 261), which
 * pages step 1's people again.
 */
const sentKey = (step: ReachedStep) =>
  step.cause.reopened
    ? `page:${step.incident.page.id}:sent:reopened:${step.now.getTime()}`
    : `page:${step.incident.page.id}:sent`;

/** sentAt: when a first step's page went: the raise, or the reopen. */
const sentAt = (step: ReachedStep) =>
  step.cause.reopened ? step.now : step.incident.page.createdAt;

/**
 * backupEvent: the backup's copy without a link at the first step (decision 130), or their
 * follow-up's item; the copy is recorded in the incident's history.
 */
async function backupEvent(
  tx: Tx,
  deps: StepDeps,
  step: ReachedStep,
  facts: StepFacts,
  to: { person: User; holderId: number },
): Promise<PersonEvent> {
  const { incident, now } = step;
  const { page } = incident;
  const { person } = to;
  const { source } = step.followUps;
  const view = incident.rotation ? step.loaded.rotations.get(incident.rotation.id) : undefined;
  const event: PersonEvent =
    source && step.followUps.followUpIds.has(person.id)
      ? followUpEvent(deps, incident, source, { ...facts.about, person, why: 'backup' })
      : {
          type: 'page.backup',
          key: step.cause.reopened ? `${sentKey(step)}:backup` : `page:${page.id}:backup`,
          ...facts.about,
          ...facts.words,
          told: [{ person, as: 'to' }],
          pagedAt: sentAt(step),
          holderName: facts.people.get(to.holderId)?.name ?? null,
          backupUntil: view?.backupUntil ? new Date(view.backupUntil) : null,
        };
  await insertIncidentEvent(tx, {
    actorUserId: null,
    action: 'page.backup_notified',
    incidentId: page.id,
    details: {
      rotationName: facts.about.rotation.name,
      toUserId: person.id,
      until: view?.backupUntil ?? null,
    },
    at: now,
  });
  return event;
}

/**
 * recipientEvent: a person the step reached gets the page (first step), a reminder, or
 * "escalated to you", with their own link and, by SMS, a reply code minted here; or their
 * follow-up's item.
 */
async function recipientEvent(
  tx: Tx,
  deps: StepDeps,
  step: ReachedStep,
  facts: StepFacts,
  person: User,
): Promise<PersonEvent> {
  const { incident, now, first, reminder } = step;
  const { page } = incident;
  const { source } = step.followUps;
  if (source && step.followUps.followUpIds.has(person.id)) {
    const why = first ? 'new' : reminder ? 'reminder' : 'escalated';
    return followUpEvent(deps, incident, source, { ...facts.about, person, why });
  }
  const ruled = facts.ruled.get(person.id);
  await recordSkippedRules(tx, page.id, person.id, ruled, now);
  const told: ToldOf<'page'>[] = [
    {
      person: ruledPerson(person, ruled),
      as: 'to',
      ackToken: step.tokens.get(person.id) as string,
      replyCode: await replyCodeFor(tx, deps, {
        pageId: page.id,
        recipient: person,
        emailOnly: !pagedBySms(page.urgency as Urgency, ruled),
        now,
      }),
    },
  ];
  const paged = { ...facts.about, ...facts.words, told };
  if (first) return { type: 'page', key: sentKey(step), ...paged, pagedAt: sentAt(step) };
  if (reminder) {
    return {
      type: 'page.reminder',
      key: facts.eventKey,
      ...paged,
      sentAt: step.linkStart,
      escalatesAt: facts.escalation?.at ?? null,
    };
  }
  return {
    type: 'page.escalated',
    key: facts.eventKey,
    ...paged,
    pagedAt: page.createdAt,
    how: { kind: 'step', fromUserId: facts.from.userId, fromName: facts.from.name, ...facts.moved },
  };
}

/**
 * raiserNotice: the person who raised the incident hears how it goes: a warning at a reminder, a
 * notice when it moved on; nothing at the first step, or when they are among its people or moved
 * it themselves.
 */
function raiserNotice(step: ReachedStep, facts: StepFacts): PersonEvent | null {
  const { page } = step.incident;
  const recipientIds = step.recipients.map((r) => r.userId);
  const pager = page.pagedById === null ? undefined : facts.people.get(page.pagedById);
  if (step.first || !pager || recipientIds.includes(pager.id) || pager.id === step.cause.actorId) {
    return null;
  }
  const { people } = facts;
  const about = {
    key: facts.eventKey,
    ...facts.about,
    told: [{ person: pager, as: 'to' as const }],
  };
  if (step.reminder) {
    return {
      type: 'page.warning',
      ...about,
      targetName: people.get(recipientIds[0])?.name ?? null,
      message: facts.words.message,
      sentAt: step.linkStart,
      escalation: facts.escalation,
    };
  }
  return {
    type: 'page.escalation_notice',
    ...about,
    fromName: facts.from.name,
    toNames: recipientIds.map((id) => people.get(id)?.name ?? null),
    ...facts.moved,
    automatic: step.cause.automatic,
  };
}

/** The names of whom the next step would reach as the world is now (for the warning). */
function nextRecipientNames(
  policy: IncidentPolicyCopy,
  next: NextEscalation,
  loaded: LoadedWorld,
): string[] {
  if (next.kind !== 'step') return [];
  const resolution = resolveStep(policy.steps[next.stepIndex], loaded.world, next.at);
  if (resolution.kind !== 'notify') return [];
  return resolution.recipients.map((r) => loaded.people.get(r.userId)?.name ?? '').filter(Boolean);
}
