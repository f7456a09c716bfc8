import type { SlackActionId } from '../../../shared/contracts/slack';
import type { EventOf, EventType, IncidentEventType } from './events';
import { formatWhen } from './message-layout';

/**
 * The chat renderers (decisions 221 and 241): one per event type, each writing the event as one
 * neutral chat message that every kind of destination then writes in its own body
 * (`chat-slack.ts`, `chat-teams.ts`, `chat-webhook.ts`). Pure: the event brings the facts, the
 * context Baton's address and the destination's time zone.
 */

export type ChatAction =
  | { actionId: Exclude<SlackActionId, 'handoff.acknowledge'>; value: string }
  | { actionId: 'handoff.acknowledge'; value: string };

/**
 * slackEscalateValue is the Escalate button's value: the incident and the step the message
 * showed, `42:1` (decision 236), so a second click, or a replayed one, moves it no further.
 */
export function slackEscalateValue(incidentId: number, step: number): string {
  return `${incidentId}:${step}`;
}

/** One event, as every kind of destination shows it. */
export interface ChatMessage {
  /** the event type: handoff, cover, incident.raised, … digest, test */
  type: string;
  /** when it happened */
  at: Date;
  /** one line: the Slack fallback text, the card's title */
  title: string;
  /** label and value lines under the title */
  facts: [string, string][];
  /** quoted free text (handoff notes), when there is any */
  quote?: { label: string; text: string } | null;
  link: { label: string; url: string };
  /** Slack buttons (kind slack only) */
  actions?: ChatAction[];
  /** the webhook event's data: JSON, dates as ISO strings */
  data: Record<string, unknown>;
}

/** What a chat renderer is given besides the event. */
export interface ChatContext {
  baseUrl: string;
  /** the destination's zone, else UTC */
  timeZone: string;
}

/** A chat renderer: one event type written as a chat message. */
export type ChatRenderer<T extends EventType> = (
  event: EventOf<T>,
  context: ChatContext,
) => ChatMessage;

const rotationUrl = (baseUrl: string, id: number) => `${baseUrl}/rotations/${id}`;
const incidentUrl = (baseUrl: string, id: number) => `${baseUrl}/incidents/${id}`;

/** handoffChatMessage: the baton passed, taken, reassigned or handed on by the schedule. */
export const handoffChatMessage: ChatRenderer<'handoff'> = (event, { baseUrl, timeZone }) => {
  const { rotation } = event;
  const title =
    event.how === 'taken'
      ? `${event.toName} took the baton for ${rotation.name}`
      : `${event.toName} is now on call for ${rotation.name}`;
  const facts: [string, string][] = [
    ['On call', event.toName],
    ['Previous', event.fromName ?? 'Nobody'],
    ['When', formatWhen(event.at, timeZone)],
  ];
  return {
    type: 'handoff',
    at: event.at,
    title,
    facts,
    quote: event.notes ? { label: 'Handoff notes', text: event.notes } : null,
    link: { label: 'Open the rotation in Baton', url: rotationUrl(baseUrl, rotation.id) },
    actions: [{ actionId: 'handoff.acknowledge', value: String(rotation.id) }],
    data: {
      handoffId: event.handoffId,
      rotation: { id: rotation.id, name: rotation.name },
      from: event.fromName,
      to: event.toName,
      how: event.how,
      notes: event.notes,
      at: event.at.toISOString(),
    },
  };
};

/** coverChatMessage: someone covers another member's time. */
export const coverChatMessage: ChatRenderer<'cover'> = (event, { baseUrl, timeZone }) => {
  const { rotation } = event;
  return {
    type: 'cover',
    at: event.at,
    title: `${event.coveringName} covers ${event.coveredName} on ${rotation.name}`,
    facts: [
      ['From', formatWhen(event.startAt, timeZone)],
      ['Until', formatWhen(event.endAt, timeZone)],
    ],
    link: { label: 'Open the rotation in Baton', url: rotationUrl(baseUrl, rotation.id) },
    data: {
      coverId: event.requestId,
      rotation: { id: rotation.id, name: rotation.name },
      covering: event.coveringName,
      covered: event.coveredName,
      startAt: event.startAt.toISOString(),
      endAt: event.endAt.toISOString(),
    },
  };
};

const INCIDENT_VERBS: Record<IncidentEventType, string> = {
  'incident.raised': 'Incident raised',
  'incident.acknowledged': 'Incident acknowledged',
  'incident.escalated': 'Incident escalated',
  'incident.resolved': 'Incident resolved',
};

/** incidentChatMessage: an incident raised, acknowledged, escalated or resolved. */
export const incidentChatMessage: ChatRenderer<IncidentEventType> = (
  event,
  { baseUrl, timeZone },
) => {
  const { incident } = event;
  const facts: [string, string][] = [];
  if (incident.severity) facts.push(['Severity', incident.severity]);
  if (event.rotation) facts.push(['Rotation', event.rotation.name]);
  if (event.byName) {
    facts.push([event.type === 'incident.escalated' ? 'Now paging' : 'By', event.byName]);
  }
  facts.push(['When', formatWhen(event.at, timeZone)]);
  const open = event.type !== 'incident.resolved';
  return {
    type: event.type,
    at: event.at,
    title: `${INCIDENT_VERBS[event.type]}: ${incident.title}`,
    facts,
    link: { label: 'Open the incident in Baton', url: incidentUrl(baseUrl, incident.id) },
    actions: open
      ? [
          ...(event.type === 'incident.acknowledged'
            ? []
            : [{ actionId: 'incident.acknowledge' as const, value: String(incident.id) }]),
          { actionId: 'incident.resolve' as const, value: String(incident.id) },
          {
            actionId: 'incident.escalate' as const,
            value: slackEscalateValue(incident.id, event.step),
          },
        ]
      : [],
    data: {
      incident: {
        id: incident.id,
        title: incident.title,
        severity: incident.severity,
        status: incident.status,
        url: incidentUrl(baseUrl, incident.id),
      },
      rotation: event.rotation ? { id: event.rotation.id, name: event.rotation.name } : null,
      by: event.byName,
      at: event.at.toISOString(),
    },
  };
};

/** timeOffChatMessage: someone is away. */
export const timeOffChatMessage: ChatRenderer<'time-off'> = (event, { baseUrl, timeZone }) => {
  const { rotation } = event;
  return {
    type: 'time-off',
    at: event.at,
    title: `${event.personName} is away (${rotation.name})`,
    facts: [
      ['From', formatWhen(event.startAt, timeZone)],
      ['Until', formatWhen(event.endAt, timeZone)],
    ],
    link: { label: 'Open the rotation in Baton', url: rotationUrl(baseUrl, rotation.id) },
    data: {
      timeOffId: event.timeOffId,
      rotation: { id: rotation.id, name: rotation.name },
      person: event.personName,
      startAt: event.startAt.toISOString(),
      endAt: event.endAt.toISOString(),
    },
  };
};

/** shiftMovedChatMessage: a change moved people's shifts. */
export const shiftMovedChatMessage: ChatRenderer<'shift-moved'> = (event, { baseUrl }) => {
  const { rotation } = event;
  return {
    type: 'shift-moved',
    at: event.at,
    title: `Shifts moved on ${rotation.name}`,
    facts: [['Whose', event.peopleNames.join(', ') || 'Members of the rotation']],
    link: { label: 'Open the rotation in Baton', url: rotationUrl(baseUrl, rotation.id) },
    data: {
      change: event.key,
      rotation: { id: rotation.id, name: rotation.name },
      people: event.peopleNames,
    },
  };
};

/** digestChatMessage: who is on call today and the week's shifts. */
export const digestChatMessage: ChatRenderer<'digest'> = (event, { baseUrl, timeZone }) => {
  const { rotation } = event;
  const week = event.shifts.map(
    (s) => `${s.name}: ${formatWhen(s.startAt, timeZone)} – ${formatWhen(s.endAt, timeZone)}`,
  );
  return {
    type: 'digest',
    at: event.at,
    title: `On call today and this week: ${rotation.name}`,
    facts: [['On call now', event.holderName ?? 'Nobody holds the baton']],
    quote: { label: 'This week', text: week.length > 0 ? week.join('\n') : 'No shifts this week' },
    link: { label: 'Open the rotation in Baton', url: rotationUrl(baseUrl, rotation.id) },
    data: {
      date: event.localDate,
      rotation: { id: rotation.id, name: rotation.name },
      holder: event.holderName,
      shifts: event.shifts.map((s) => ({
        name: s.name,
        startAt: s.startAt.toISOString(),
        endAt: s.endAt.toISOString(),
      })),
    },
  };
};

/** testChatMessage: the "send test event" message. */
export const testChatMessage: ChatRenderer<'test'> = (event, { baseUrl }) => ({
  type: 'test',
  at: event.at,
  title: 'Test event from Baton',
  facts: [['Sent by', event.actorName]],
  link: { label: 'Open Baton', url: baseUrl },
  data: { destinationId: event.destinationId, sentBy: event.actorName },
});

/**
 * CHAT_MESSAGES is the chat renderer of every event type: a type without one does not compile.
 */
export const CHAT_MESSAGES: { [T in EventType]: ChatRenderer<T> } = {
  handoff: handoffChatMessage,
  cover: coverChatMessage,
  'incident.raised': incidentChatMessage,
  'incident.acknowledged': incidentChatMessage,
  'incident.escalated': incidentChatMessage,
  'incident.resolved': incidentChatMessage,
  'time-off': timeOffChatMessage,
  'shift-moved': shiftMovedChatMessage,
  digest: digestChatMessage,
  test: testChatMessage,
};

/** chatMessageOf writes any event as its chat message. */
export function chatMessageOf<T extends EventType>(event: EventOf<T>, context: ChatContext) {
  return (CHAT_MESSAGES[event.type as T] as ChatRenderer<T>)(event, context);
}
