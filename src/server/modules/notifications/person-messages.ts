import type { MessageContent } from './message-layout';
import {
  batonPassedMessage,
  coverArrangedMessage,
  coverageOutcomeMessage,
  coverageRequestedMessage,
  invitationEmail,
  onCallTakenMessage,
  reassignedAwayMessage,
  reassignedToYouMessage,
  rotationChangedMessage,
} from './messages';
import type {
  CoverageOutcomeEvent,
  PartOf,
  PersonEvent,
  PersonEventOf,
  PersonEventType,
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

/** A person event renderer: the event told to one person, in the part they play in it. */
export type PersonRenderer<T extends PersonEventType> = (
  event: PersonEventOf<T>,
  as: PartOf<T>,
  context: PersonContext,
) => MessageContent;

const coverageOutcome = (e: CoverageOutcomeEvent, _as: 'to', c: PersonContext) =>
  coverageOutcomeMessage({
    ...c,
    rotation: e.rotation,
    coveringName: e.coveringName ?? 'The member you asked',
    outcome: e.type === 'coverage.accepted' ? 'accepted' : 'declined',
    startAt: e.startAt,
    endAt: e.endAt,
  });

export const PERSON_MESSAGES: { [T in PersonEventType]: PersonRenderer<T> } = {
  'baton.passed': (e, _as, c) =>
    batonPassedMessage({
      baseUrl: c.baseUrl,
      rotation: e.rotation,
      fromName: e.fromName ?? 'The previous holder',
      notes: e.notes,
      urgent: e.urgent,
    }),
  'baton.taken': (e, _as, c) =>
    onCallTakenMessage({ baseUrl: c.baseUrl, rotation: e.rotation, takerName: e.takerName }),
  'baton.reassigned': (e, as, c) =>
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
  'coverage.requested': (e, _as, c) =>
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
  'coverage.arranged': (e, as, c) =>
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
  'rotation.changed': (e, _as, c) =>
    rotationChangedMessage({
      baseUrl: c.baseUrl,
      rotation: e.rotation,
      actorName: e.actorName,
      change: e.change,
    }),
  invitation: (e, _as, c) =>
    invitationEmail(e.invitee, e.link, { inviterName: e.inviterName, baseUrl: c.baseUrl }),
};

/** personMessageOf renders a person event for one person, in the part they play in it. */
export function personMessageOf(
  event: PersonEvent,
  as: PersonEvent['told'][number]['as'],
  context: PersonContext,
): MessageContent {
  // The renderer is the event's own type's: TypeScript cannot tie the two halves of the union
  // together, so the event and its part are passed as that type's.
  const render = PERSON_MESSAGES[event.type] as PersonRenderer<PersonEventType>;
  return render(event as never, as as never, context);
}
