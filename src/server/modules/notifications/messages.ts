import type { AlertDetailRow, AlertLink } from '../../../shared/contracts/alerts';
import { SEVERITY_LABELS, type Severity } from '../../../shared/contracts/incidents';
import { URGENCY_LABELS, type Urgency } from '../../../shared/domain/paging';
import { normalizeRole, ROLE_LABELS } from '../../../shared/domain/roles';
import { replyInstruction } from '../../../shared/domain/sms-replies';
import {
  composeMessage,
  formatWhen,
  type Link,
  type MessageContent,
  type MessageTable,
  shorten,
} from './message-layout';

/**
 * The catalog of Baton's notifications (decision 185): the words of every message, to anyone,
 * whoever causes it (a person's action in a service, or the engine's clock). One function a
 * message, one object in; each returns MessageContent laid out by message-layout.ts. Pure:
 * names, times and zones come in. Personal data in them is encrypted at rest with the rest of the
 * notification (outbox.ts).
 */

/** publicBaseUrl returns Baton's address for links: PUBLIC_URL, else http://localhost:PORT. */
export function publicBaseUrl(config?: { publicUrl?: string; port?: number }): string {
  if (config?.publicUrl) return config.publicUrl.replace(/\/$/, '');
  return `http://localhost:${config?.port || 3000}`;
}

const rotationUrl = (baseUrl: string, rotationId: number) => `${baseUrl}/rotations/${rotationId}`;
const pagesUrl = (baseUrl: string, rotationId?: number) =>
  rotationId ? `${baseUrl}/pages?rotation=${rotationId}` : `${baseUrl}/pages`;
/** incidentUrl returns an incident's page in Baton (decision 261: every email about one links it). */
export const incidentUrl = (baseUrl: string, incidentId: number) =>
  `${baseUrl}/incidents/${incidentId}`;
/** ackUrl returns the public acknowledgement page of an acknowledgement link's token. */
export const ackUrl = (baseUrl: string, token: string) => `${baseUrl}/pages/ack/${token}`;

export interface RotationRef {
  id: number;
  name: string;
}

/**
 * What a rotation's message is written for: Baton's address for its links, the rotation, and the
 * reader's time zone, in which its times are written (and which it names).
 */
export interface MessageContext {
  baseUrl: string;
  rotation: RotationRef;
  timeZone: string;
}

/** A rotation's message that shows no time needs no zone. */
export type RotationLinks = Pick<MessageContext, 'baseUrl' | 'rotation'>;

const openRotation = (c: RotationLinks): Link => ({
  label: 'Open the rotation in Baton',
  url: rotationUrl(c.baseUrl, c.rotation.id),
});

const acknowledgeDuty = (c: RotationLinks): Link => ({
  label: 'Acknowledge in Baton',
  url: rotationUrl(c.baseUrl, c.rotation.id),
});

// ---------------------------------------------------------------------------------------------
// The baton

/** batonPassedMessage tells the receiver they hold the baton now, with the handoff notes. */
export function batonPassedMessage(
  input: RotationLinks & {
    fromName: string;
    notes: string | null;
    urgent?: boolean;
  },
): MessageContent {
  const { rotation } = input;
  return composeMessage(
    {
      subject: `${input.urgent ? 'Urgent: ' : ''}You are now on call for ${rotation.name}`,
      lead: `${input.fromName} passed you the baton: you are now on call for ${rotation.name}.`,
      quote: input.notes ? { label: 'Handoff notes', text: input.notes } : null,
      action: openRotation(input),
      sms: `Baton: ${input.fromName} passed you the baton for ${rotation.name}.${
        input.notes ? ` Notes: ${shorten(input.notes, 300)}` : ''
      }`,
    },
    input.baseUrl,
  );
}

/** onCallTakenMessage tells a rotation's manager that someone took the free baton. */
export function onCallTakenMessage(
  input: RotationLinks & {
    takerName: string;
  },
): MessageContent {
  const { rotation } = input;
  return composeMessage(
    {
      subject: `${input.takerName} is now on call for ${rotation.name}`,
      lead: `Nobody held the baton for ${rotation.name}; ${input.takerName} took on-call duty.`,
      action: openRotation(input),
      sms: `Baton: ${input.takerName} took on-call for ${rotation.name}.`,
    },
    input.baseUrl,
  );
}

/** reassignedToYouMessage tells the new holder a manager gave them the baton. */
export function reassignedToYouMessage(
  input: RotationLinks & {
    actorName: string;
    previousName: string | null;
    notes: string | null;
  },
): MessageContent {
  const { rotation } = input;
  return composeMessage(
    {
      subject: `You are now on call for ${rotation.name}`,
      lead: `${input.actorName} assigned on-call duty for ${rotation.name} to you${
        input.previousName ? ` (it was with ${input.previousName})` : ''
      }.`,
      quote: input.notes ? { label: 'Notes', text: input.notes } : null,
      action: openRotation(input),
      sms: `Baton: ${input.actorName} assigned you on-call for ${rotation.name}.${
        input.notes ? ` Notes: ${shorten(input.notes, 300)}` : ''
      }`,
    },
    input.baseUrl,
  );
}

/** reassignedAwayMessage tells the previous holder the baton was moved from them. */
export function reassignedAwayMessage(
  input: RotationLinks & {
    actorName: string;
    nextName: string;
    notes: string | null;
  },
): MessageContent {
  const { rotation } = input;
  return composeMessage(
    {
      subject: `You are no longer on call for ${rotation.name}`,
      lead: `${input.actorName} reassigned on-call duty for ${rotation.name} to ${input.nextName}.`,
      quote: input.notes ? { label: 'Notes', text: input.notes } : null,
      action: openRotation(input),
      sms: `Baton: ${input.actorName} reassigned on-call for ${rotation.name} to ${input.nextName}; you are off duty.`,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// The handoff flow: notices before and after a shift boundary, automatic transfers, schedule and
// coverage changes, acknowledgements

/**
 * handoffNoticeMessage: the shift changes hands soon (to the holder, or to the next person). In a
 * scheduled rotation (`scheduled`) the schedule moves the baton at the boundary by itself, when an
 * entry ends or starts; notes go with a pass before then.
 */
export function handoffNoticeMessage(
  input: MessageContext & {
    boundary: Date;
    role: 'holder' | 'next';
    otherName: string | null;
    scheduled?: boolean;
  },
): MessageContent {
  const when = formatWhen(input.boundary, input.timeZone);
  const name = input.rotation.name;
  const other = input.otherName;
  const holder = input.role === 'holder';
  const changes = holder ? 'ends' : 'starts';
  return composeMessage(
    {
      subject: `Handoff soon: your on-call shift for ${name} ${changes} ${when}`,
      lead: `Your ${input.scheduled ? 'scheduled ' : ''}on-call shift for ${name} ${changes} at ${when}.`,
      after: [input.scheduled ? scheduledHandoffSteps(holder, other) : handoffSteps(holder, other)],
      action: openRotation(input),
      sms: !holder
        ? `Baton: your ${name} shift starts ${when}.`
        : !input.scheduled
          ? `Baton: your ${name} shift ends ${when}. Pass the baton with notes.`
          : other
            ? `Baton: your ${name} shift ends ${when}; ${other} takes over.`
            : `Baton: your ${name} shift ends ${when}; nobody is scheduled after you.`,
      timeZone: input.timeZone,
      smsShowsTime: true,
    },
    input.baseUrl,
  );
}

/** What the holder and the next person do at a fixed rotation's boundary: pass, and acknowledge. */
const handoffSteps = (holder: boolean, other: string | null) =>
  holder
    ? `At the end of your shift, pass the baton${other ? ` to ${other}` : ''} with handoff notes: open incidents, recent changes, anything unusual.`
    : other
      ? `${other} will pass you the baton; acknowledge it when it arrives.`
      : 'Nobody holds the baton now; take on-call when your shift starts.';

/** What happens at a scheduled rotation's boundary: the schedule moves the baton. */
const scheduledHandoffSteps = (holder: boolean, other: string | null) =>
  holder
    ? other
      ? `The schedule hands the baton to ${other} then. To leave handoff notes (open incidents, recent changes, anything unusual), pass the baton to ${other} with them before then.`
      : 'Nobody is scheduled after you: from then nobody is on call for this rotation until the next schedule entry starts.'
    : other
      ? `The schedule hands you the baton from ${other} then; acknowledge it when it arrives.`
      : 'The schedule hands you the baton then; acknowledge it when it arrives.';

/** handoffDueMessage: the shift has ended; the holder is asked to pass (or, with no holder, the next person to take it). */
export function handoffDueMessage(
  input: MessageContext & {
    boundary: Date;
    role: 'holder' | 'next';
    otherName: string | null;
    autoAt: Date;
  },
): MessageContent {
  const name = input.rotation.name;
  const auto = formatWhen(input.autoAt, input.timeZone);
  const to = input.otherName ? ` to ${input.otherName}` : '';
  if (input.role === 'next') {
    return composeMessage(
      {
        subject: `Take on-call for ${name}: your shift has started`,
        lead: `Your on-call shift for ${name} has started and nobody holds the baton.`,
        after: [`Take on-call in Baton; otherwise Baton gives it to you automatically at ${auto}.`],
        action: openRotation(input),
        sms: `Baton: your ${name} shift has started; take on-call now.`,
        timeZone: input.timeZone,
      },
      input.baseUrl,
    );
  }
  return composeMessage(
    {
      subject: `Pass the baton for ${name}: your shift has ended`,
      lead: `Your on-call shift for ${name} ended at ${formatWhen(input.boundary, input.timeZone)}.`,
      after: [
        `Pass the baton${to} now, with handoff notes. If it is not passed, Baton moves it automatically at ${auto} and flags the handoff as escalated.`,
      ],
      action: {
        label: 'Pass the baton in Baton',
        url: rotationUrl(input.baseUrl, input.rotation.id),
      },
      sms: `Baton: your ${name} shift has ended. Pass the baton${to} with notes.`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/** handoffEscalationMessage: the handoff is late (to both people). */
export function handoffEscalationMessage(
  input: MessageContext & {
    boundary: Date;
    autoAt: Date;
    holderName: string | null;
    nextName: string | null;
  },
): MessageContent {
  const name = input.rotation.name;
  const ended = formatWhen(input.boundary, input.timeZone);
  const auto = formatWhen(input.autoAt, input.timeZone);
  return composeMessage(
    {
      subject: `Handoff overdue for ${name}`,
      lead: `The on-call shift for ${name} ended at ${ended} and the baton has not been passed${
        input.holderName ? ` by ${input.holderName}` : ''
      }.`,
      after: [
        `If it is still not passed at ${auto}, Baton hands it to ${input.nextName ?? 'the next member'} automatically and flags the handoff as escalated.`,
      ],
      action: openRotation(input),
      sms: `Baton: handoff for ${name} is overdue; automatic transfer at ${auto}.`,
      timeZone: input.timeZone,
      smsShowsTime: true,
    },
    input.baseUrl,
  );
}

/** autoTransferToYouMessage: the baton came to you automatically. */
export function autoTransferToYouMessage(
  input: RotationLinks & { fromName: string | null },
): MessageContent {
  const name = input.rotation.name;
  return composeMessage(
    {
      subject: `You are now on call for ${name} (automatic handoff)`,
      lead: `The baton for ${name} was not passed in time${input.fromName ? ` by ${input.fromName}` : ''}, so Baton gave it to you automatically: you are now on call.`,
      after: ['Acknowledge your new on-call duty in Baton.'],
      action: acknowledgeDuty(input),
      sms: `Baton: you are now on call for ${name} (automatic handoff). Acknowledge in Baton.`,
    },
    input.baseUrl,
  );
}

/** autoTransferAwayMessage: the baton moved on from you automatically. */
export function autoTransferAwayMessage(
  input: RotationLinks & { toName: string | null },
): MessageContent {
  const name = input.rotation.name;
  const to = input.toName ?? 'the next member';
  return composeMessage(
    {
      subject: `The baton for ${name} moved on automatically`,
      lead: `The baton for ${name} was not passed within the hour after your shift ended, so Baton moved it to ${to}. The audit log flags the handoff as escalated.`,
      action: openRotation(input),
      sms: `Baton: the ${name} baton moved to ${to} automatically.`,
    },
    input.baseUrl,
  );
}

/** Why the baton moved without a person passing it: a schedule entry, or a coverage window. */
type BatonMoveReason = 'schedule' | 'coverage' | 'coverage_end';

/** batonArrivedMessage: a schedule entry (or a coverage window's start or end) gave you the baton. */
export function batonArrivedMessage(
  input: MessageContext & {
    reason: BatonMoveReason;
    until: Date | null;
  },
): MessageContent {
  const name = input.rotation.name;
  const until = input.until ? ` until ${formatWhen(input.until, input.timeZone)}` : '';
  const lead =
    input.reason === 'schedule'
      ? `Your scheduled on-call shift for ${name} has started: you hold the baton${until}.`
      : input.reason === 'coverage'
        ? `Your coverage window for ${name} has started: you hold the baton${until}.`
        : `The coverage window for ${name} has ended and the baton is back with you.`;
  const showsTime = until !== '';
  return composeMessage(
    {
      subject: `You are now on call for ${name}`,
      lead,
      after: ['Acknowledge your new on-call duty in Baton.'],
      action: acknowledgeDuty(input),
      sms: `Baton: you are now on call for ${name}${until}.`,
      timeZone: showsTime ? input.timeZone : undefined,
      smsShowsTime: showsTime,
    },
    input.baseUrl,
  );
}

/** batonLeftMessage: a schedule entry or coverage window ended, and the baton left you. */
export function batonLeftMessage(
  input: RotationLinks & {
    reason: BatonMoveReason;
    toName: string | null;
  },
): MessageContent {
  const name = input.rotation.name;
  const to = input.toName ? `${input.toName} now holds it` : 'nobody holds it until the next entry';
  const lead =
    input.reason === 'coverage'
      ? `Your coverage window for ${name} has started: ${to}.`
      : input.reason === 'coverage_end'
        ? `Your coverage window for ${name} has ended: ${to}.`
        : `Your scheduled on-call shift for ${name} has ended: ${to}.`;
  return composeMessage(
    {
      subject: `You are no longer on call for ${name}`,
      lead,
      action: openRotation(input),
      sms: `Baton: you are off duty for ${name}; ${to}.`,
    },
    input.baseUrl,
  );
}

/** acknowledgementMissedMessage: to the previous holder, when the receiver has not acknowledged. */
export function acknowledgementMissedMessage(
  input: RotationLinks & { toName: string; urgent: boolean },
): MessageContent {
  const name = input.rotation.name;
  return composeMessage(
    {
      subject: `${input.toName} missed handoff acknowledgment for ${name}`,
      lead: `${input.toName} has not acknowledged the on-call duty for ${name} you handed over.`,
      after: [
        input.urgent
          ? 'This was an emergency handoff: you stay responsible as backup until they acknowledge it. Reach them another way, or ask a manager to reassign.'
          : 'Reach them another way, or ask a manager to reassign the baton.',
      ],
      action: openRotation(input),
      sms: `Baton: ${input.toName} has not acknowledged ${name}. Reach them or ask a manager to reassign.`,
    },
    input.baseUrl,
  );
}

/** emergencyAcknowledgedMessage: to the previous holder, when an emergency handoff is acknowledged. */
export function emergencyAcknowledgedMessage(
  input: RotationLinks & { toName: string },
): MessageContent {
  const name = input.rotation.name;
  return composeMessage(
    {
      subject: `${input.toName} acknowledged your emergency handoff for ${name}`,
      lead: `${input.toName} acknowledged new on-call duty for ${name}. You are no longer backup once the usual backup time is over.`,
      action: openRotation(input),
      sms: `Baton: ${input.toName} acknowledged your emergency handoff for ${name}.`,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Your shift moved (decision 219)

/**
 * shiftsChangedMessage tells a person how their shifts in a rotation over the coming 8 weeks
 * changed: one sentence a change (shift-changes.ts writes them, in the reader's zone), and how
 * many more there are beyond those written out.
 */
export function shiftsChangedMessage(
  input: MessageContext & { sentences: readonly string[]; more: number },
): MessageContent {
  const name = input.rotation.name;
  const more =
    input.more > 0
      ? [`…and ${input.more} more change${input.more === 1 ? '' : 's'}: see the calendar in Baton.`]
      : [];
  const count = input.sentences.length + input.more;
  return composeMessage(
    {
      subject: `Your on-call shifts for ${name} changed`,
      lead: `Changes to ${name} moved your on-call shifts in the next 8 weeks:`,
      after: [...input.sentences, ...more],
      action: openRotation(input),
      sms: `Baton: ${input.sentences[0] ?? `your ${name} shifts changed.`}${
        count > 1 ? ` (+${count - 1} more change${count === 2 ? '' : 's'} in Baton)` : ''
      }`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Coverage

/** coverageRequestedMessage asks a member to cover the holder for a window. */
export function coverageRequestedMessage(
  input: MessageContext & {
    requesterName: string;
    startAt: Date;
    endAt: Date;
    notes: string | null;
  },
): MessageContent {
  const { rotation } = input;
  const from = formatWhen(input.startAt, input.timeZone);
  const to = formatWhen(input.endAt, input.timeZone);
  return composeMessage(
    {
      subject: `${input.requesterName} asks you to cover ${rotation.name}`,
      lead: `${input.requesterName} asks you to hold the baton for ${rotation.name} for a while.`,
      details: [
        ['From', from],
        ['Until', to],
      ],
      quote: input.notes ? { label: 'Notes', text: input.notes } : null,
      action: {
        label: 'Answer the request in Baton',
        url: rotationUrl(input.baseUrl, rotation.id),
      },
      sms: `Baton: ${input.requesterName} asks you to cover ${rotation.name} from ${from} until ${to}.`,
      timeZone: input.timeZone,
      smsShowsTime: true,
    },
    input.baseUrl,
  );
}

/** coverageOutcomeMessage tells the requester whether their coverage request was accepted. */
export function coverageOutcomeMessage(
  input: MessageContext & {
    coveringName: string;
    outcome: 'accepted' | 'declined';
    startAt: Date;
    endAt: Date;
  },
): MessageContent {
  const { rotation } = input;
  const from = formatWhen(input.startAt, input.timeZone);
  const to = formatWhen(input.endAt, input.timeZone);
  const accepted = input.outcome === 'accepted';
  return composeMessage(
    {
      subject: `${input.coveringName} ${input.outcome} your coverage request for ${rotation.name}`,
      lead: accepted
        ? `${input.coveringName} will cover ${rotation.name} for you.`
        : `${input.coveringName} cannot cover ${rotation.name} for you; you stay on call unless someone else covers.`,
      details: [
        ['From', from],
        ['Until', to],
      ],
      action: openRotation(input),
      sms: `Baton: ${input.coveringName} ${input.outcome} covering ${rotation.name} (${from} to ${to}).`,
      timeZone: input.timeZone,
      smsShowsTime: true,
    },
    input.baseUrl,
  );
}

/** coverageNotStartedMessage: an accepted window could not start (the requester no longer holds the baton). */
export function coverageNotStartedMessage(
  input: MessageContext & { requesterName: string | null; start: Date },
): MessageContent {
  const name = input.rotation.name;
  return composeMessage(
    {
      subject: `Coverage for ${name} did not start`,
      lead: `The coverage window for ${name} from ${formatWhen(input.start, input.timeZone)} did not start: ${
        input.requesterName ?? 'the person who asked'
      } no longer holds the baton, so there is nothing to cover. The request is cancelled.`,
      action: openRotation(input),
      sms: `Baton: coverage for ${name} did not start and is cancelled.`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/**
 * coverArrangedMessage tells both people of cover a manager or administrator arranged (decision
 * 218): the covering member that they cover, the requester that they are covered.
 */
export function coverArrangedMessage(
  input: MessageContext & {
    role: 'covering' | 'requester';
    arrangerName: string;
    requesterName: string;
    coveringName: string;
    startAt: Date;
    endAt: Date;
    notes: string | null;
  },
): MessageContent {
  const { rotation } = input;
  const from = formatWhen(input.startAt, input.timeZone);
  const to = formatWhen(input.endAt, input.timeZone);
  const covering = input.role === 'covering';
  return composeMessage(
    {
      subject: covering
        ? `You cover ${input.requesterName} in ${rotation.name}`
        : `${input.coveringName} covers you in ${rotation.name}`,
      lead: covering
        ? `${input.arrangerName} arranged for you to hold the baton for ${rotation.name} in place of ${input.requesterName}.`
        : `${input.arrangerName} arranged for ${input.coveringName} to hold the baton for ${rotation.name} in your place.`,
      details: [
        ['From', from],
        ['Until', to],
      ],
      quote: input.notes ? { label: 'Notes', text: input.notes } : null,
      action: openRotation(input),
      sms: covering
        ? `Baton: ${input.arrangerName} arranged for you to cover ${input.requesterName} in ${rotation.name} from ${from} until ${to}.`
        : `Baton: ${input.arrangerName} arranged for ${input.coveringName} to cover you in ${rotation.name} from ${from} until ${to}.`,
      timeZone: input.timeZone,
      smsShowsTime: true,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Time off (issue 18, decision 217): to a rotation's managers

/** timeOffGapMessage tells a rotation's manager that nobody is available for a coming stretch. */
export function timeOffGapMessage(
  input: MessageContext & { start: Date; end: Date },
): MessageContent {
  const { rotation } = input;
  const from = formatWhen(input.start, input.timeZone);
  const to = formatWhen(input.end, input.timeZone);
  return composeMessage(
    {
      subject: `Nobody is available for ${rotation.name} from ${from}`,
      lead: `Every member of ${rotation.name} is away for part of the shift from ${from} until ${to}, so nobody is free to hold the baton. Arrange cover, or change someone's time off.`,
      details: [
        ['From', from],
        ['Until', to],
      ],
      action: openRotation(input),
      sms: `Baton: nobody is available for ${rotation.name} from ${from} until ${to}: everyone is away.`,
      timeZone: input.timeZone,
      smsShowsTime: true,
    },
    input.baseUrl,
  );
}

/** timeOffCollisionMessage tells a scheduled rotation's manager that an entry's person will be away. */
export function timeOffCollisionMessage(
  input: MessageContext & {
    personName: string;
    entryStart: Date;
    entryEnd: Date;
    awayStart: Date;
    awayEnd: Date;
  },
): MessageContent {
  const { rotation } = input;
  const entryFrom = formatWhen(input.entryStart, input.timeZone);
  const entryTo = formatWhen(input.entryEnd, input.timeZone);
  return composeMessage(
    {
      subject: `${input.personName} is away during their ${rotation.name} shift`,
      lead: `${input.personName} has time off during their schedule entry for ${rotation.name}. Change the entry, or arrange cover.`,
      details: [
        ['Entry', `${entryFrom} until ${entryTo}`],
        [
          'Away',
          `${formatWhen(input.awayStart, input.timeZone)} until ${formatWhen(input.awayEnd, input.timeZone)}`,
        ],
      ],
      action: openRotation(input),
      sms: `Baton: ${input.personName} is away during their ${rotation.name} entry from ${entryFrom}.`,
      timeZone: input.timeZone,
      smsShowsTime: true,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Changes by someone other than a rotation's managers (decision 233): to its managers

/** What someone other than its managers changed in a rotation. */
export type RotationChange =
  | { kind: 'policy'; fromName: string | null; toName: string }
  | { kind: 'member_added'; memberName: string }
  | {
      kind: 'member_removed';
      memberName: string;
      wasHolder: boolean;
      newHolderName: string | null;
    }
  | { kind: 'members_reordered'; order: readonly string[] };

function rotationChangeSentence(actorName: string, rotation: string, change: RotationChange) {
  switch (change.kind) {
    case 'policy':
      return {
        subject: `${actorName} changed the escalation policy of ${rotation}`,
        lead: `${actorName} changed the escalation policy of ${rotation}${
          change.fromName ? ` from ${change.fromName}` : ''
        } to ${change.toName}: its incidents now follow ${change.toName}.`,
      };
    case 'member_added':
      return {
        subject: `${actorName} added ${change.memberName} to ${rotation}`,
        lead: `${actorName} added ${change.memberName} to ${rotation}.`,
      };
    case 'member_removed':
      return {
        subject: `${actorName} removed ${change.memberName} from ${rotation}`,
        lead: `${actorName} removed ${change.memberName} from ${rotation}.${
          change.wasHolder
            ? change.newHolderName
              ? ` ${change.memberName} held the baton; ${change.newHolderName} holds it now.`
              : ` ${change.memberName} held the baton; nobody holds it now.`
            : ''
        }`,
      };
    case 'members_reordered':
      return {
        subject: `${actorName} changed the turn order of ${rotation}`,
        lead: `${actorName} changed the turn order of ${rotation}: ${change.order.join(', ')}.`,
      };
  }
}

/**
 * rotationChangedMessage tells a rotation's manager that someone who does not manage it (an
 * administrator) changed its escalation policy or its members, naming who changed what.
 */
export function rotationChangedMessage(
  input: RotationLinks & { actorName: string; change: RotationChange },
): MessageContent {
  const { subject, lead } = rotationChangeSentence(
    input.actorName,
    input.rotation.name,
    input.change,
  );
  return composeMessage(
    {
      subject,
      lead,
      after: ['You are told because you manage this rotation and someone else made this change.'],
      action: openRotation(input),
      sms: `Baton: ${lead}`,
    },
    input.baseUrl,
  );
}

/** One change a rotation-change digest lists (decision 262): who made it, and what. */
export interface RotationChangeItem {
  actorName: string;
  change: RotationChange;
}

/**
 * rotationChangesMessage tells a rotation's manager of the changes someone who does not manage it
 * made within one digest window (decision 262): one change reads as rotationChangedMessage; more
 * are listed in the order made, each sentence naming who made it.
 */
export function rotationChangesMessage(
  input: RotationLinks & { items: readonly RotationChangeItem[] },
): MessageContent {
  const { items, rotation } = input;
  if (items.length === 1) return rotationChangedMessage({ ...input, ...items[0] });
  const actors = [...new Set(items.map((i) => i.actorName))];
  const by = actors.length === 1 ? actors[0] : 'Someone who does not manage it';
  const subject = `${by} made ${items.length} changes to ${rotation.name}`;
  return composeMessage(
    {
      subject,
      lead: `${subject}:`,
      after: [
        ...items.map((i) => rotationChangeSentence(i.actorName, rotation.name, i.change).lead),
        'You are told because you manage this rotation and someone else made these changes.',
      ],
      action: openRotation(input),
      sms: `Baton: ${subject}.`,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// Pages

interface PageMessageInput extends MessageContext {
  /** the incident the page is (its page links it) */
  incidentId: number;
  /** its severity and description, which every page states (decision 261) */
  severity: Severity;
  description: string | null;
  /** who paged: a person, or the integration that raised the incident */
  pagerName: string | null;
  message: string;
  urgency: Urgency;
  ackUrl: string;
  createdAt: Date;
  /** the SMS reply code for this page and reader (decision 201); null or absent: none */
  replyCode?: string | null;
  /** an incident raised by an alert: what the alert said (decision 213) */
  alert?: AlertFacts | null;
}

/**
 * What a page raised by an alert shows besides its message (issue 17, decision 213): the
 * severity, the alert's source, its details as tables (labels, annotations, custom details, one
 * table a section) and its links back to the source.
 */
export interface AlertFacts {
  severity: Severity;
  /** the incident's first alert as stored (alerts.event_enc); null when it cannot be read */
  event: {
    summary: string;
    source: string;
    details: AlertDetailRow[];
    links: AlertLink[];
  } | null;
  /** the integration's alert storm incident: how many alerts are folded into it */
  stormAlerts?: number | null;
}

const pager = (name: string | null) => name ?? 'Someone';

/** alertTables groups an alert's detail rows by section, in the order the sections come. */
export function alertTables(details: readonly AlertDetailRow[]): MessageTable[] {
  const sections = new Map<string, [string, string][]>();
  for (const row of details) {
    const rows = sections.get(row.section) ?? [];
    rows.push([row.label, row.value]);
    sections.set(row.section, rows);
  }
  return [...sections].map(([caption, rows]) => ({ caption, rows }));
}

/** What the alert adds to a page: detail rows, tables, links, and the SMS's compact facts. */
function alertParts(alert: AlertFacts | null | undefined, message: string, smsMax: number) {
  if (!alert) return { details: [], tables: [], links: [], sms: shorten(message, smsMax) };
  const source = alert.event?.source.trim() ?? '';
  const details: [string, string][] = [];
  if (source) details.push(['Source', source]);
  if (alert.stormAlerts)
    details.push(['Alert storm', `${alert.stormAlerts} alerts folded into this incident`]);
  const sms = `${alert.severity} ${shorten(message, smsMax - 50)}${
    source ? ` [${shorten(source, 40)}]` : ''
  }`;
  return {
    details,
    tables: alertTables(alert.event?.details ?? []),
    links: (alert.event?.links ?? []).map((l) => ({ label: l.text || l.href, url: l.href })),
    sms,
  };
}

/** What every page's email states of its incident: its severity, and its description if any. */
function incidentFacts(input: Pick<PageMessageInput, 'severity' | 'description'>) {
  const rows: [string, string][] = [['Severity', SEVERITY_LABELS[input.severity]]];
  if (input.description) rows.push(['Description', shorten(input.description, 1000)]);
  return rows;
}

/** The link to the incident, beside a page's acknowledgement. */
const openIncident = (input: Pick<PageMessageInput, 'baseUrl' | 'incidentId'>) => ({
  label: 'Open the incident',
  url: incidentUrl(input.baseUrl, input.incidentId),
});

/** The SMS's reply sentence, "Reply 4821 to acknowledge, 4821R to resolve.", when it has a code. */
const reply = (code: string | null | undefined) => (code ? ` ${replyInstruction(code)}` : '');

/** pageMessage is the page itself, to the holder, with the acknowledgement link. */
export function pageMessage(input: PageMessageInput): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  const alert = alertParts(input.alert, input.message, 240);
  return composeMessage(
    {
      subject: `Page (${input.alert ? `${input.alert.severity}, ` : ''}${label.toLowerCase()} urgency): ${rotation.name}: ${shorten(input.message, 80)}`,
      lead: `${pager(input.pagerName)} paged you as the on-call person for ${rotation.name}.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ...incidentFacts(input),
        ...alert.details,
        ['Urgency', label],
        ['Sent', formatWhen(input.createdAt, input.timeZone)],
      ],
      tables: alert.tables,
      links: alert.links,
      after: [
        'Acknowledge the page to let them know you are on it; the link works once, without signing in.',
      ],
      action: { label: 'Acknowledge page', url: input.ackUrl },
      secondary: openIncident(input),
      sms: `Baton PAGE (${label}) ${rotation.name} from ${pager(input.pagerName)}: ${alert.sms}${reply(
        input.replyCode,
      )} Ack: ${input.ackUrl}`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/**
 * pageBackupMessage is a copy of a new page to the previous holder while they are backup after a
 * handoff (decision 130): the holder was paged; the backup stands by. No acknowledgement link:
 * the page is the holder's to acknowledge.
 */
export function pageBackupMessage(
  input: Omit<PageMessageInput, 'ackUrl'> & { holderName: string; backupUntil: Date | null },
): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  const until = input.backupUntil
    ? `until ${formatWhen(input.backupUntil, input.timeZone)}`
    : `until ${input.holderName} acknowledges the emergency handoff`;
  const alert = alertParts(input.alert, input.message, 180);
  return composeMessage(
    {
      subject: `Backup: ${input.holderName} was paged (${label.toLowerCase()} urgency): ${rotation.name}: ${shorten(input.message, 60)}`,
      lead: `${pager(input.pagerName)} paged ${input.holderName}, who took over ${rotation.name} from you. You are backup ${until}.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ...incidentFacts(input),
        ...alert.details,
        ['Urgency', label],
        ['Sent', formatWhen(input.createdAt, input.timeZone)],
      ],
      tables: alert.tables,
      links: alert.links,
      after: [
        `${input.holderName} acknowledges the page. Be ready to help if they do not; the page history shows whether they did.`,
      ],
      action: openIncident(input),
      sms: `Baton BACKUP (${label}) ${rotation.name}: ${input.holderName} was paged: ${alert.sms} ${pagesUrl(input.baseUrl, rotation.id)}`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/** pageEscalatedToYouMessage is the page, escalated to the next person in the rotation. */
export function pageEscalatedToYouMessage(
  input: PageMessageInput & { fromName: string | null; reason: string; escalatedAt: Date },
): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  const alert = alertParts(input.alert, input.message, 220);
  return composeMessage(
    {
      subject: `Escalated page (${input.alert ? `${input.alert.severity}, ` : ''}${label.toLowerCase()} urgency): ${rotation.name}: ${shorten(input.message, 80)}`,
      lead: `A page for ${rotation.name} from ${pager(input.pagerName)} was escalated to you${
        input.fromName ? ` because ${input.fromName} did not acknowledge it` : ''
      }.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ...incidentFacts(input),
        ...alert.details,
        ['Urgency', label],
        ['Paged', formatWhen(input.createdAt, input.timeZone)],
        ['Escalated', formatWhen(input.escalatedAt, input.timeZone)],
        ['Reason', input.reason],
      ],
      tables: alert.tables,
      links: alert.links,
      after: ['Acknowledge the page to let them know you are on it.'],
      action: { label: 'Acknowledge page', url: input.ackUrl },
      secondary: openIncident(input),
      sms: `Baton ESCALATED PAGE (${label}) ${rotation.name}: ${alert.sms}${reply(input.replyCode)} Ack: ${input.ackUrl}`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/** pageReminderMessage reminds the recipient of a page nobody acknowledged yet. */
export function pageReminderMessage(
  input: PageMessageInput & { escalatesAt: Date | null },
): MessageContent {
  const { rotation } = input;
  const label = URGENCY_LABELS[input.urgency];
  const alert = alertParts(input.alert, input.message, 200);
  return composeMessage(
    {
      subject: `Reminder: unacknowledged page for ${rotation.name}`,
      lead: `You have not acknowledged the page from ${pager(input.pagerName)} for ${rotation.name}.`,
      quote: { label: 'Message', text: input.message },
      details: [
        ...incidentFacts(input),
        ...alert.details,
        ['Urgency', label],
        ['Sent', formatWhen(input.createdAt, input.timeZone)],
      ],
      tables: alert.tables,
      links: alert.links,
      after: input.escalatesAt
        ? [
            `Unless you acknowledge it, it escalates to the next person in the rotation at ${formatWhen(input.escalatesAt, input.timeZone)}.`,
          ]
        : [],
      action: { label: 'Acknowledge page', url: input.ackUrl },
      secondary: openIncident(input),
      sms: `Baton REMINDER: page for ${rotation.name} not acknowledged: ${alert.sms}${reply(input.replyCode)} Ack: ${input.ackUrl}`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/** pageWarningMessage warns the pager that their page is still not acknowledged. */
export function pageWarningMessage(
  input: MessageContext & {
    incidentId: number;
    targetName: string | null;
    message: string;
    sentAt: Date;
    /** the automatic escalation to come, null when none comes */
    escalation: { at: Date; toName: string } | null;
  },
): MessageContent {
  const { rotation } = input;
  const who = input.targetName ?? 'The person you paged';
  const next = input.escalation
    ? `Unless it is acknowledged, it escalates to ${input.escalation.toName} at ${formatWhen(input.escalation.at, input.timeZone)}.`
    : 'It will not escalate on its own: escalate it by hand in Baton if it cannot wait.';
  return composeMessage(
    {
      subject: `Warning: your page for ${rotation.name} is not acknowledged`,
      lead: `${who} has not acknowledged your page for ${rotation.name}, sent ${formatWhen(input.sentAt, input.timeZone)}.`,
      quote: { label: 'Message', text: input.message },
      after: [next],
      action: {
        label: 'See the incident in Baton',
        url: incidentUrl(input.baseUrl, input.incidentId),
      },
      sms: `Baton WARNING: your page for ${rotation.name} is not acknowledged yet. ${next}`,
      timeZone: input.timeZone,
      smsShowsTime: input.escalation !== null,
    },
    input.baseUrl,
  );
}

/** pageEscalatedNotice tells the pager who their page went on to. */
export function pageEscalatedNotice(
  input: RotationLinks & {
    incidentId: number;
    fromName: string | null;
    toName: string;
    reason: string;
    automatic: boolean;
  },
): MessageContent {
  const { rotation } = input;
  return composeMessage(
    {
      subject: `Your page for ${rotation.name} was escalated to ${input.toName}`,
      lead: `${input.automatic ? 'Nobody acknowledged your page in time, so it' : 'Your page'} for ${rotation.name} was escalated${
        input.fromName ? ` from ${input.fromName}` : ''
      } to ${input.toName}.`,
      details: [['Reason', input.reason]],
      action: {
        label: 'See the incident in Baton',
        url: incidentUrl(input.baseUrl, input.incidentId),
      },
      sms: `Baton: your page for ${rotation.name} was escalated to ${input.toName}.`,
    },
    input.baseUrl,
  );
}

/** pageAcknowledgedNotice tells the pager the page was acknowledged. */
export function pageAcknowledgedNotice(
  input: MessageContext & {
    incidentId: number;
    byName: string;
    at: Date;
  },
): MessageContent {
  const { rotation } = input;
  return composeMessage(
    {
      subject: `${input.byName} acknowledged your page for ${rotation.name}`,
      lead: `${input.byName} acknowledged your page for ${rotation.name} at ${formatWhen(input.at, input.timeZone)}.`,
      action: {
        label: 'See the incident in Baton',
        url: incidentUrl(input.baseUrl, input.incidentId),
      },
      sms: `Baton: ${input.byName} acknowledged your page for ${rotation.name}.`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/** pageResolvedNotice tells the recipient of an unacknowledged page that it needs nothing more. */
export function pageResolvedNotice(
  input: RotationLinks & {
    incidentId: number;
    byName: string;
    message: string;
  },
): MessageContent {
  const { rotation } = input;
  return composeMessage(
    {
      subject: `Page for ${rotation.name} resolved by ${input.byName}`,
      lead: `${input.byName} resolved the page for ${rotation.name}; it needs nothing more from you.`,
      quote: { label: 'Message', text: input.message },
      action: {
        label: 'See the incident in Baton',
        url: incidentUrl(input.baseUrl, input.incidentId),
      },
      sms: `Baton: the page for ${rotation.name} was resolved by ${input.byName}; no action needed.`,
    },
    input.baseUrl,
  );
}

/**
 * incidentExhaustedNotice tells a rotation's managers and the person who raised an incident that
 * its escalation policy ran out with nobody acknowledging (decision 204): it stays open.
 */
export function incidentExhaustedNotice(
  input: MessageContext & {
    incidentId: number;
    title: string;
    policyName: string;
    /** how many times the policy ran (its repeat + 1) */
    loops: number;
    raisedAt: Date;
    at: Date;
  },
): MessageContent {
  const { rotation } = input;
  const runs = input.loops === 1 ? 'once' : `${input.loops} times`;
  return composeMessage(
    {
      subject: `Nobody acknowledged: ${rotation.name}: ${shorten(input.title, 80)}`,
      lead: `Nobody acknowledged the incident "${shorten(input.title, 120)}" for ${rotation.name}: its escalation policy ${input.policyName} ran ${runs} and has no one left to notify.`,
      details: [
        ['Raised', formatWhen(input.raisedAt, input.timeZone)],
        ['Policy ran out', formatWhen(input.at, input.timeZone)],
      ],
      after: [
        'The incident stays open. Acknowledge it, reassign it to someone who can act, or escalate it to a step again.',
      ],
      action: {
        label: 'Open the incident in Baton',
        url: incidentUrl(input.baseUrl, input.incidentId),
      },
      sms: `Baton: nobody acknowledged the incident for ${rotation.name}: ${shorten(input.title, 160)}. Its policy ran out; it stays open.`,
      timeZone: input.timeZone,
    },
    input.baseUrl,
  );
}

/** What brought an incident into a person's follow-up: why they hear of it (decision 213). */
export type FollowUpReason = 'new' | 'reminder' | 'escalated' | 'backup';

const FOLLOW_UP_REASONS: Record<FollowUpReason, string> = {
  new: 'New',
  reminder: 'Reminder: not acknowledged',
  escalated: 'Escalated to you',
  backup: 'Backup copy',
};

/** One incident of a follow-up. */
export interface FollowUpIncident {
  pageId: number;
  title: string;
  severity: Severity;
  /** the alert's source, when it named one */
  source: string | null;
  reason: FollowUpReason;
}

/** incidentsListUrl: the open incidents to acknowledge, of the rotation when there is one. */
export const incidentsListUrl = (baseUrl: string, rotationId: number) =>
  `${baseUrl}/incidents?status=triggered${rotationId ? `&rotation=${rotationId}` : ''}`;

/**
 * alertFollowUpMessage gathers the incidents an integration raised while the reader already had an
 * unacknowledged page from it (decision 213): one message listing them, each linked to its page,
 * and the list of open incidents to acknowledge them, instead of one page each.
 */
export function alertFollowUpMessage(
  input: RotationLinks & { integrationName: string; incidents: readonly FollowUpIncident[] },
): MessageContent {
  const { rotation, integrationName, incidents } = input;
  const n = incidents.length;
  const more = `${n} more incident${n === 1 ? '' : 's'} from ${integrationName}`;
  const listUrl = incidentsListUrl(input.baseUrl, rotation.id);
  // The SMS names as many as fit in one message; the rest are counted.
  let listed = '';
  let shown = 0;
  for (const incident of incidents) {
    const item = `${incident.severity} ${shorten(incident.title, 60)}`;
    if (listed.length + item.length > 320) break;
    listed = listed ? `${listed}; ${item}` : item;
    shown += 1;
  }
  const rest = n - shown > 0 ? `; and ${n - shown} more` : '';
  return composeMessage(
    {
      subject: `${more}: ${rotation.name}`,
      lead: `While you have an unacknowledged page from ${integrationName}, ${n === 1 ? 'one more incident' : `${n} more incidents`} came in for ${rotation.name}. Baton gathers them in this message instead of paging you for each.`,
      tables: [
        {
          header: ['Severity', 'Incident', 'Source', 'Why'],
          rows: incidents.map((incident) => [
            incident.severity,
            { label: incident.title, url: `${input.baseUrl}/incidents/${incident.pageId}` },
            incident.source ?? '',
            FOLLOW_UP_REASONS[incident.reason],
          ]),
        },
      ],
      after: [
        'Each still follows its escalation policy: acknowledge them in Baton, from the list of open incidents or each incident page.',
      ],
      action: { label: 'Open the incidents in Baton', url: listUrl },
      sms: `Baton: ${more} (${rotation.name}): ${listed}${rest}. Acknowledge in Baton: ${listUrl}`,
    },
    input.baseUrl,
  );
}

// ---------------------------------------------------------------------------------------------
// SMS replies (decision 201): the answer Baton texts back to a reply

/** What became of an SMS reply, in the words Baton answers it with. */
export type SmsReplyOutcome =
  | { kind: 'acknowledged'; rotationName: string }
  | { kind: 'resolved'; rotationName: string }
  | {
      kind: 'already-acknowledged';
      rotationName: string;
      byName: string;
      at: Date;
      /** the replier's time zone */
      timeZone: string;
    }
  | { kind: 'already-resolved'; rotationName: string; at: Date; timeZone: string }
  | { kind: 'unknown-code'; code: string }
  /** a service refused the action: its own message (for example, the page moved on to someone else) */
  | { kind: 'refused'; rotationName: string; message: string }
  /** this number replied too many wrong codes within the hour: its codes are not tried */
  | { kind: 'too-many-wrong-codes' }
  | { kind: 'help' };

/** smsReplyAnswer is the text of Baton's answer to an SMS reply. */
export function smsReplyAnswer(outcome: SmsReplyOutcome): string {
  switch (outcome.kind) {
    case 'acknowledged':
      return `Baton: you acknowledged the page for ${outcome.rotationName}.`;
    case 'resolved':
      return `Baton: you resolved the page for ${outcome.rotationName}.`;
    case 'already-acknowledged':
      return `Baton: the page for ${outcome.rotationName} was already acknowledged by ${outcome.byName} at ${formatWhen(outcome.at, outcome.timeZone)}.`;
    case 'already-resolved':
      return `Baton: the page for ${outcome.rotationName} was already resolved at ${formatWhen(outcome.at, outcome.timeZone)}.`;
    case 'unknown-code':
      return `Baton: code ${outcome.code} is unknown or has expired. Open Baton to see your pages.`;
    case 'refused':
      return `Baton: page for ${outcome.rotationName}: ${outcome.message}`;
    case 'too-many-wrong-codes':
      return 'Baton: too many wrong codes from this number. Codes from it are not tried for the next hour: use the Ack link in the page instead, or open Baton.';
    case 'help':
      return 'Baton: reply with the 4-digit code from a page to acknowledge it, or the code followed by R to resolve it (for example 4821 or 4821R).';
  }
}

// ---------------------------------------------------------------------------------------------
// Invitations

/**
 * invitationEmail is the invitation: who invited whom, as what, the single-use link and when it
 * expires. `link` is the full sign-up address (invitationUrl).
 */
export function invitationEmail(
  invitation: { name: string; email: string; role: string; expiresAt?: Date | null },
  link: string,
  options: { inviterName?: string | null; baseUrl?: string } = {},
): MessageContent {
  const role = normalizeRole(invitation.role);
  const roleLabel = role ? ROLE_LABELS[role] : invitation.role;
  const baseUrl = options.baseUrl ?? new URL(link).origin;
  return composeMessage(
    {
      subject: 'You are invited to Baton',
      lead: `Hello ${invitation.name}, ${options.inviterName ?? 'an administrator'} invited you to join Baton, your team's on-call rotations, as ${roleLabel}.`,
      details: invitation.expiresAt
        ? [['Expires', formatWhen(invitation.expiresAt, 'UTC')]]
        : undefined,
      after: [
        `Sign in with your company Google account (${invitation.email}) to finish registration. The link works once.`,
      ],
      action: { label: 'Accept the invitation', url: link },
      sms: `Baton: you are invited to join as ${roleLabel}: ${link}`,
      timeZone: invitation.expiresAt ? 'UTC' : undefined,
    },
    baseUrl,
  );
}

/**
 * destinationFailingMessage tells an owner that a chat or webhook destination has failed for an
 * hour (decision 221), with the link to its delivery log: its rotation's page, else the settings.
 */
export function destinationFailingMessage(input: {
  baseUrl: string;
  timeZone: string;
  kindLabel: string;
  urlHint: string;
  targetName: string;
  rotationId: number | null;
  failingSince: Date;
}): MessageContent {
  const { kindLabel: kind, targetName, timeZone, baseUrl } = input;
  return composeMessage(
    {
      subject: `${kind} destination failing for ${targetName}`,
      lead: `Baton has not been able to post to the ${kind} destination ${input.urlHint} of ${targetName} since ${formatWhen(input.failingSince, timeZone)}. Its messages are retried; check the URL or the receiving service.`,
      details: [
        ['Destination', `${kind} ${input.urlHint}`],
        ['Failing since', formatWhen(input.failingSince, timeZone)],
      ],
      action: {
        label: 'Open the delivery log in Baton',
        url:
          input.rotationId !== null
            ? `${baseUrl}/rotations/${input.rotationId}`
            : `${baseUrl}/settings`,
      },
      sms: `Baton: the ${kind} destination of ${targetName} has failed for an hour.`,
      timeZone,
    },
    baseUrl,
  );
}
