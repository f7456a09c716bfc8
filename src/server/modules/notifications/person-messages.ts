import { shiftChangeSentences } from '../../../shared/domain/shift-changes';
import type { MessageContent } from './message-layout';
import {
  acknowledgementMissedMessage,
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
  handoffDueMessage,
  handoffEscalationMessage,
  handoffNoticeMessage,
  invitationEmail,
  onCallTakenMessage,
  reassignedAwayMessage,
  reassignedToYouMessage,
  rotationChangedMessage,
  shiftsChangedMessage,
  timeOffCollisionMessage,
  timeOffGapMessage,
} from './messages';
import type {
  CoverageOutcomeEvent,
  HandoffStepEvent,
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
      ...shiftChangeSentences(changes, e.rotation.name, c.timeZone, e.at),
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
