import { shiftChangeSentences } from '../../../shared/domain/shift-changes';
import type { MessageContent } from './message-layout';
import {
  acknowledgementMissedMessage,
  ackUrl,
  alertFollowUpMessage,
  autoTransferAwayMessage,
  autoTransferToYouMessage,
  batonArrivedMessage,
  batonLeftMessage,
  batonPassedMessage,
  coverArrangedMessage,
  coverageNotStartedMessage,
  coverageOutcomeMessage,
  coverageRequestedMessage,
  destinationFailingMessage,
  emergencyAcknowledgedMessage,
  type FollowUpIncident,
  handoffDueMessage,
  handoffEscalationMessage,
  handoffNoticeMessage,
  incidentExhaustedNotice,
  invitationEmail,
  onCallTakenMessage,
  pageAcknowledgedNotice,
  pageBackupMessage,
  pageEscalatedNotice,
  pageEscalatedToYouMessage,
  pageMessage,
  pageReminderMessage,
  pageResolvedNotice,
  pageWarningMessage,
  type RotationChangeItem,
  reassignedAwayMessage,
  reassignedToYouMessage,
  rotationChangedMessage,
  rotationChangesMessage,
  shiftsChangedMessage,
  timeOffCollisionMessage,
  timeOffGapMessage,
} from './messages';
import type {
  CoverageOutcomeEvent,
  HandoffStepEvent,
  PagedOwn,
  PageEscalatedEvent,
  PageFollowUpEvent,
  PersonEvent,
  PersonEventOf,
  PersonEventType,
  Told,
  ToldOf,
} from './person-events';

/**
 * The person channels' renderers (decision 241): one per person event type, writing the event for
 * one person as a neutral message (subject, email text and HTML, SMS text), from the catalog of
 * texts in `messages.ts`. `PERSON_CHANNELS` (`person-registry.ts`) then writes it for each
 * channel. A type without a renderer here does not compile.
 */

/** What a renderer is given besides the event: links' base and the reader's time zone. */
export interface PersonContext {
  baseUrl: string;
  /** the reader's profile zone (UTC when unknown, and for an invitee) */
  timeZone: string;
}

/**
 * A person event renderer: the event told to one person, in the part they play in it and with
 * what is their own in it (`told`).
 */
export type PersonRenderer<T extends PersonEventType> = (
  event: PersonEventOf<T>,
  told: ToldOf<T>,
  context: PersonContext,
) => MessageContent;

const coverageOutcome = (e: CoverageOutcomeEvent, _told: Told, c: PersonContext) =>
  coverageOutcomeMessage({
    ...c,
    rotation: e.rotation,
    coveringName: e.coveringName ?? 'The member you asked',
    outcome: e.type === 'coverage.accepted' ? 'accepted' : 'declined',
    startAt: e.startAt,
    endAt: e.endAt,
  });

/** handoffStep: the flow's notice, request to pass and escalation, each in the reader's part. */
function handoffStep(
  e: HandoffStepEvent,
  { as: role }: Told<'holder' | 'next'>,
  c: PersonContext,
): MessageContent {
  const facts = { ...c, rotation: e.rotation, boundary: e.boundary };
  const otherName = role === 'holder' ? e.nextName : e.holderName;
  if (e.type === 'handoff.notice') {
    return handoffNoticeMessage(
      e.scheduled ? { ...facts, role, otherName, scheduled: true } : { ...facts, role, otherName },
    );
  }
  const autoAt = e.autoAt ?? e.boundary;
  if (e.type === 'handoff.due') return handoffDueMessage({ ...facts, role, otherName, autoAt });
  return handoffEscalationMessage({
    ...facts,
    autoAt,
    holderName: e.holderName,
    nextName: e.nextName,
  });
}

const MINUTE = 60_000;

/** namesOf joins names as a sentence lists them: "Ada", "Ada and Grace", "Ada, Grace and Lin". */
const namesOf = (names: readonly string[]) =>
  names.length <= 1
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;

/** moveReason: why a page moved on: the reason a person gave, else how long nobody acknowledged. */
const moveReason = (at: Date, e: { reason: string | null; waitingSince: Date }) =>
  e.reason ??
  `Not acknowledged within ${Math.round((at.getTime() - e.waitingSince.getTime()) / MINUTE)} minutes`;

/** What a page to one person it reaches says: the page's words and their own link and code. */
const pageWordsFor = (
  e: PersonEventOf<'page' | 'page.reminder' | 'page.escalated'>,
  own: PagedOwn,
  c: PersonContext,
) => ({
  ...c,
  rotation: e.rotation,
  incidentId: e.page.id,
  severity: e.severity,
  description: e.description,
  pagerName: e.pagerName,
  message: e.message,
  urgency: e.page.urgency,
  ackUrl: ackUrl(c.baseUrl, own.ackToken),
  replyCode: own.replyCode,
  alert: e.alert,
});

/** pageEscalated: "escalated to you", by a step (from whom, why) or by a reassignment. */
function pageEscalated(e: PageEscalatedEvent, told: ToldOf<'page.escalated'>, c: PersonContext) {
  const { how } = e;
  return pageEscalatedToYouMessage({
    ...pageWordsFor(e, told, c),
    createdAt: e.pagedAt,
    escalatedAt: e.at,
    ...(how.kind === 'step'
      ? {
          // The one it was with is not told they did not acknowledge it.
          fromName: told.person.id === how.fromUserId ? null : how.fromName,
          reason: moveReason(e.at, how),
        }
      : { fromName: how.actorName, reason: how.reason ?? `Reassigned by ${how.actorName}` }),
  });
}

/** followUpItemOf: an incident as a person's follow-up lists it, with why they hear of it. */
export const followUpItemOf = (
  e: PageFollowUpEvent,
  told: ToldOf<'page.follow_up'>,
): FollowUpIncident => ({
  pageId: e.page.id,
  title: e.incident.title,
  severity: e.incident.severity,
  source: e.incident.source,
  reason: told.why,
});

/** followUpMessageOf writes a follow-up (decision 213) of all its items, in the latest one's words. */
export const followUpMessageOf = (
  e: PageFollowUpEvent,
  incidents: readonly FollowUpIncident[],
  c: PersonContext,
): MessageContent =>
  alertFollowUpMessage({
    baseUrl: c.baseUrl,
    rotation: e.rotation,
    integrationName: e.integration.name,
    incidents,
  });

/** rotationChangeItemOf: a change as a manager's rotation-change digest lists it (decision 262). */
export const rotationChangeItemOf = (e: PersonEventOf<'rotation.changed'>): RotationChangeItem => ({
  actorName: e.actorName,
  change: e.change,
});

/** rotationChangesMessageOf writes a rotation-change digest of all its items (decision 262). */
export const rotationChangesMessageOf = (
  e: PersonEventOf<'rotation.changed'>,
  items: readonly RotationChangeItem[],
  c: PersonContext,
): MessageContent => rotationChangesMessage({ baseUrl: c.baseUrl, rotation: e.rotation, items });

export const PERSON_MESSAGES: { [T in PersonEventType]: PersonRenderer<T> } = {
  'baton.passed': (e, _told, c) =>
    batonPassedMessage({
      baseUrl: c.baseUrl,
      rotation: e.rotation,
      fromName: e.fromName ?? 'The previous holder',
      notes: e.notes,
      urgent: e.urgent,
    }),
  'baton.taken': (e, _told, c) =>
    onCallTakenMessage({ baseUrl: c.baseUrl, rotation: e.rotation, takerName: e.takerName }),
  'baton.reassigned': (e, { as }, c) =>
    as === 'to'
      ? reassignedToYouMessage({
          baseUrl: c.baseUrl,
          rotation: e.rotation,
          actorName: e.actorName,
          previousName: e.previousName,
          notes: e.notes,
        })
      : reassignedAwayMessage({
          baseUrl: c.baseUrl,
          rotation: e.rotation,
          actorName: e.actorName,
          nextName: e.nextName ?? 'another member',
          notes: e.notes,
        }),
  'coverage.requested': (e, _told, c) =>
    coverageRequestedMessage({
      ...c,
      rotation: e.rotation,
      requesterName: e.requesterName,
      startAt: e.startAt,
      endAt: e.endAt,
      notes: e.notes,
    }),
  'coverage.accepted': coverageOutcome,
  'coverage.declined': coverageOutcome,
  'coverage.arranged': (e, { as }, c) =>
    coverArrangedMessage({
      ...c,
      rotation: e.rotation,
      role: as,
      arrangerName: e.arrangerName,
      requesterName: e.requesterName,
      coveringName: e.coveringName,
      startAt: e.startAt,
      endAt: e.endAt,
      notes: e.notes,
    }),
  'rotation.changed': (e, _told, c) =>
    rotationChangedMessage({
      baseUrl: c.baseUrl,
      rotation: e.rotation,
      actorName: e.actorName,
      change: e.change,
    }),
  invitation: (e, _told, c) =>
    invitationEmail(e.invitee, e.link, { inviterName: e.inviterName, baseUrl: c.baseUrl }),
  'handoff.schedule': (e, { as }, c) =>
    as === 'to'
      ? batonArrivedMessage({ ...c, rotation: e.rotation, reason: 'schedule', until: e.until })
      : batonLeftMessage({
          baseUrl: c.baseUrl,
          rotation: e.rotation,
          reason: 'schedule',
          toName: e.toName,
        }),
  'handoff.auto': (e, { as }, c) =>
    as === 'to'
      ? autoTransferToYouMessage({ baseUrl: c.baseUrl, rotation: e.rotation, fromName: e.fromName })
      : autoTransferAwayMessage({ baseUrl: c.baseUrl, rotation: e.rotation, toName: e.toName }),
  'handoff.notice': handoffStep,
  'handoff.due': handoffStep,
  'handoff.escalate': handoffStep,
  'handoff.acknowledged': (e, _told, c) =>
    emergencyAcknowledgedMessage({ baseUrl: c.baseUrl, rotation: e.rotation, toName: e.toName }),
  'handoff.missed': (e, _told, c) =>
    acknowledgementMissedMessage({
      baseUrl: c.baseUrl,
      rotation: e.rotation,
      toName: e.toName ?? 'The new holder',
      urgent: e.urgent,
    }),
  'time_off.gap': (e, _told, c) =>
    timeOffGapMessage({ ...c, rotation: e.rotation, start: e.start, end: e.end }),
  'time_off.collision': (e, _told, c) =>
    timeOffCollisionMessage({
      ...c,
      rotation: e.rotation,
      personName: e.personName,
      entryStart: e.entryStart,
      entryEnd: e.entryEnd,
      awayStart: e.awayStart,
      awayEnd: e.awayEnd,
    }),
  'shifts.changed': (e, { changes }, c) =>
    shiftsChangedMessage({
      ...c,
      rotation: e.rotation,
      ...shiftChangeSentences(changes, e.rotation.name, c.timeZone, e.at, e.coverNames),
    }),
  'destination.failing': (e, _told, c) =>
    destinationFailingMessage({
      ...c,
      kindLabel: e.kindLabel,
      urlHint: e.urlHint,
      targetName: e.targetName,
      rotationId: e.rotationId,
      failingSince: e.failingSince,
    }),
  'coverage.cancelled': (e, _told, c) =>
    coverageNotStartedMessage({
      ...c,
      rotation: e.rotation,
      requesterName: e.requesterName,
      start: e.startAt,
    }),
  'coverage.started': (e, { as }, c) =>
    as === 'covering'
      ? batonArrivedMessage({ ...c, rotation: e.rotation, reason: 'coverage', until: e.endAt })
      : batonLeftMessage({
          baseUrl: c.baseUrl,
          rotation: e.rotation,
          reason: 'coverage',
          toName: e.coveringName,
        }),
  'coverage.ended': (e, { as }, c) =>
    as === 'to'
      ? batonArrivedMessage({ ...c, rotation: e.rotation, reason: 'coverage_end', until: null })
      : batonLeftMessage({
          baseUrl: c.baseUrl,
          rotation: e.rotation,
          reason: 'coverage_end',
          toName: e.toName,
        }),
  page: (e, told, c) => pageMessage({ ...pageWordsFor(e, told, c), createdAt: e.pagedAt }),
  'page.backup': (e, _told, c) =>
    pageBackupMessage({
      ...c,
      rotation: e.rotation,
      incidentId: e.page.id,
      severity: e.severity,
      description: e.description,
      pagerName: e.pagerName,
      holderName: e.holderName ?? 'The holder',
      message: e.message,
      urgency: e.page.urgency,
      createdAt: e.pagedAt,
      backupUntil: e.backupUntil,
      alert: e.alert,
    }),
  'page.reminder': (e, told, c) =>
    pageReminderMessage({
      ...pageWordsFor(e, told, c),
      createdAt: e.sentAt,
      escalatesAt: e.escalatesAt,
    }),
  'page.escalated': pageEscalated,
  'page.warning': (e, _told, c) =>
    pageWarningMessage({
      ...c,
      rotation: e.rotation,
      incidentId: e.page.id,
      targetName: e.targetName,
      message: e.message,
      sentAt: e.sentAt,
      escalation: e.escalation && { at: e.escalation.at, toName: namesOf(e.escalation.toNames) },
    }),
  'page.escalation_notice': (e, _told, c) =>
    pageEscalatedNotice({
      baseUrl: c.baseUrl,
      rotation: e.rotation,
      incidentId: e.page.id,
      fromName: e.fromName,
      toName: namesOf(e.toNames.map((name) => name ?? 'a former member')),
      reason: moveReason(e.at, e),
      automatic: e.automatic,
    }),
  'page.acknowledged': (e, _told, c) =>
    pageAcknowledgedNotice({
      ...c,
      rotation: e.rotation,
      incidentId: e.page.id,
      byName: e.byName ?? 'The recipient',
      at: e.at,
    }),
  'page.resolved': (e, _told, c) =>
    pageResolvedNotice({
      baseUrl: c.baseUrl,
      rotation: e.rotation,
      incidentId: e.page.id,
      byName: e.byName ?? 'The source',
      message: e.message,
    }),
  'incident.exhausted': (e, _told, c) =>
    incidentExhaustedNotice({
      ...c,
      rotation: e.rotation,
      incidentId: e.page.id,
      title: e.title,
      policyName: e.policyName,
      loops: e.loops,
      raisedAt: e.raisedAt,
      at: e.at,
    }),
  // A follow-up as it starts, with this incident alone; announce writes it of all its items.
  'page.follow_up': (e, told, c) => followUpMessageOf(e, [followUpItemOf(e, told)], c),
};

/** personMessageOf renders a person event for one person told of it (`told`, one of its `told`). */
export function personMessageOf(
  event: PersonEvent,
  told: PersonEvent['told'][number],
  context: PersonContext,
): MessageContent {
  // The renderer is the event's own type's: TypeScript cannot tie the two halves of the union
  // together, so the event and its person are passed as that type's.
  const render = PERSON_MESSAGES[event.type] as PersonRenderer<PersonEventType>;
  return render(event as never, told as never, context);
}
