import type { DestinationKind } from '../../../shared/contracts/destinations';
import { formatWhen } from '../notifications/message-layout';

/**
 * What a destination is sent (decision 221), one neutral message written for each kind: Slack
 * Block Kit (Slack, and Mattermost and Discord, which take Slack-compatible bodies), a Microsoft
 * Teams Workflows Adaptive Card, or a generic webhook's JSON event `{ type, timestamp, data }`.
 * Pure: the caller passes the facts, Baton's address and the destination's time zone.
 */

/** Slack buttons the Slack app (POST /api/slack/interactions) answers; block_id baton-actions. */
export const SLACK_ACTIONS_BLOCK_ID = 'baton-actions';

export type ChatAction =
  | { actionId: 'incident.acknowledge' | 'incident.resolve' | 'incident.escalate'; value: string }
  | { actionId: 'handoff.acknowledge'; value: string };

const ACTION_LABELS: Record<ChatAction['actionId'], string> = {
  'incident.acknowledge': 'Acknowledge',
  'incident.resolve': 'Resolve',
  'incident.escalate': 'Escalate',
  'handoff.acknowledge': 'Acknowledge handoff',
};

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

/** escapeSlack escapes the three characters Slack's mrkdwn gives meaning (&, <, >). */
export function escapeSlack(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

const cut = (value: string, max: number) =>
  value.length > max ? `${value.slice(0, max - 1)}…` : value;

/** slackBody writes a message as Slack Block Kit: `text` (the fallback) and `blocks`. */
export function slackBody(message: ChatMessage, options: { buttons: boolean }): object {
  const blocks: object[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `*${escapeSlack(cut(message.title, 2900))}*` },
    },
  ];
  if (message.facts.length > 0) {
    blocks.push({
      type: 'section',
      // Block Kit allows at most ten fields a section.
      fields: message.facts.slice(0, 10).map(([label, value]) => ({
        type: 'mrkdwn',
        text: `*${escapeSlack(label)}*\n${escapeSlack(cut(value, 1900))}`,
      })),
    });
  }
  if (message.quote) {
    const quoted = escapeSlack(cut(message.quote.text, 2800))
      .split('\n')
      .map((line) => `>${line}`)
      .join('\n');
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: `*${escapeSlack(message.quote.label)}*\n${quoted}` },
    });
  }
  blocks.push({
    type: 'context',
    elements: [
      {
        type: 'mrkdwn',
        text: `<${message.link.url}|${escapeSlack(message.link.label)}>`,
      },
    ],
  });
  if (options.buttons && message.actions && message.actions.length > 0) {
    blocks.push({
      type: 'actions',
      block_id: SLACK_ACTIONS_BLOCK_ID,
      elements: message.actions.map((a) => ({
        type: 'button',
        action_id: a.actionId,
        value: a.value,
        text: { type: 'plain_text', text: ACTION_LABELS[a.actionId] },
        ...(a.actionId === 'incident.acknowledge' || a.actionId === 'handoff.acknowledge'
          ? { style: 'primary' }
          : {}),
      })),
    });
  }
  return { text: cut(message.title, 3000), blocks };
}

/**
 * teamsBody writes a message as a Teams Workflows webhook expects it: a message with one Adaptive
 * Card 1.4 attachment (the Office 365 connectors' MessageCard is retired).
 */
export function teamsBody(message: ChatMessage): object {
  const body: object[] = [
    { type: 'TextBlock', text: message.title, weight: 'Bolder', size: 'Medium', wrap: true },
  ];
  if (message.facts.length > 0) {
    body.push({
      type: 'FactSet',
      facts: message.facts.map(([title, value]) => ({ title, value })),
    });
  }
  if (message.quote) {
    body.push({ type: 'TextBlock', text: message.quote.label, weight: 'Bolder', wrap: true });
    body.push({ type: 'TextBlock', text: message.quote.text, wrap: true, isSubtle: true });
  }
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          actions: [{ type: 'Action.OpenUrl', title: message.link.label, url: message.link.url }],
        },
      },
    ],
  };
}

/** webhookBody writes a message as the generic webhook's event: `{ type, timestamp, data }`. */
export function webhookBody(message: ChatMessage): object {
  return { type: message.type, timestamp: message.at.toISOString(), data: message.data };
}

/** bodyFor writes a message for one kind of destination. */
export function bodyFor(kind: DestinationKind, message: ChatMessage): object {
  switch (kind) {
    case 'slack':
      return slackBody(message, { buttons: true });
    case 'mattermost':
    case 'discord':
      // Slack-compatible bodies; the buttons need Slack's interactivity, so they are left out.
      return slackBody(message, { buttons: false });
    case 'teams':
      return teamsBody(message);
    case 'webhook':
      return webhookBody(message);
  }
}

// ---------------------------------------------------------------------------------------------
// The events

const rotationUrl = (baseUrl: string, id: number) => `${baseUrl}/rotations/${id}`;
const incidentUrl = (baseUrl: string, id: number) => `${baseUrl}/incidents/${id}`;

export interface RotationFacts {
  id: number;
  name: string;
}

/** A handoff: the baton passed, taken, reassigned or handed on by the schedule. */
export function handoffChatMessage(input: {
  baseUrl: string;
  timeZone: string;
  at: Date;
  handoffId: number;
  rotation: RotationFacts;
  fromName: string | null;
  toName: string;
  /** null: none, or the rotation keeps its notes private */
  notes: string | null;
  how: 'passed' | 'taken' | 'reassigned' | 'scheduled';
}): ChatMessage {
  const { rotation } = input;
  const title =
    input.how === 'taken'
      ? `${input.toName} took the baton for ${rotation.name}`
      : `${input.toName} is now on call for ${rotation.name}`;
  const facts: [string, string][] = [
    ['On call', input.toName],
    ['Previous', input.fromName ?? 'Nobody'],
    ['When', formatWhen(input.at, input.timeZone)],
  ];
  return {
    type: 'handoff',
    at: input.at,
    title,
    facts,
    quote: input.notes ? { label: 'Handoff notes', text: input.notes } : null,
    link: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
    actions: [{ actionId: 'handoff.acknowledge', value: String(rotation.id) }],
    data: {
      handoffId: input.handoffId,
      rotation,
      from: input.fromName,
      to: input.toName,
      how: input.how,
      notes: input.notes,
      at: input.at.toISOString(),
    },
  };
}

/** Cover accepted or arranged: someone covers another member's time. */
export function coverChatMessage(input: {
  baseUrl: string;
  timeZone: string;
  at: Date;
  requestId: number;
  rotation: RotationFacts;
  coveringName: string;
  coveredName: string;
  startAt: Date;
  endAt: Date;
}): ChatMessage {
  const { rotation } = input;
  return {
    type: 'cover',
    at: input.at,
    title: `${input.coveringName} covers ${input.coveredName} on ${rotation.name}`,
    facts: [
      ['From', formatWhen(input.startAt, input.timeZone)],
      ['Until', formatWhen(input.endAt, input.timeZone)],
    ],
    link: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
    data: {
      coverId: input.requestId,
      rotation,
      covering: input.coveringName,
      covered: input.coveredName,
      startAt: input.startAt.toISOString(),
      endAt: input.endAt.toISOString(),
    },
  };
}

export type IncidentEvent =
  | 'incident.raised'
  | 'incident.acknowledged'
  | 'incident.escalated'
  | 'incident.resolved';

const INCIDENT_VERBS: Record<IncidentEvent, string> = {
  'incident.raised': 'Incident raised',
  'incident.acknowledged': 'Incident acknowledged',
  'incident.escalated': 'Incident escalated',
  'incident.resolved': 'Incident resolved',
};

/** An incident raised, acknowledged, escalated or resolved. */
export function incidentChatMessage(input: {
  baseUrl: string;
  timeZone: string;
  at: Date;
  event: IncidentEvent;
  incident: { id: number; title: string; severity: string | null; status: string };
  /** the one-based step it is at: its Escalate button escalates from this step only */
  step: number;
  rotation: RotationFacts | null;
  /** who acknowledged or resolved it, whom it escalated to */
  byName: string | null;
}): ChatMessage {
  const { incident } = input;
  const facts: [string, string][] = [];
  if (incident.severity) facts.push(['Severity', incident.severity]);
  if (input.rotation) facts.push(['Rotation', input.rotation.name]);
  if (input.byName) {
    facts.push([input.event === 'incident.escalated' ? 'Now paging' : 'By', input.byName]);
  }
  facts.push(['When', formatWhen(input.at, input.timeZone)]);
  const open = input.event !== 'incident.resolved';
  return {
    type: input.event,
    at: input.at,
    title: `${INCIDENT_VERBS[input.event]}: ${incident.title}`,
    facts,
    link: { label: 'Open the incident in Baton', url: incidentUrl(input.baseUrl, incident.id) },
    actions: open
      ? [
          ...(input.event === 'incident.acknowledged'
            ? []
            : [{ actionId: 'incident.acknowledge' as const, value: String(incident.id) }]),
          { actionId: 'incident.resolve' as const, value: String(incident.id) },
          {
            actionId: 'incident.escalate' as const,
            value: slackEscalateValue(incident.id, input.step),
          },
        ]
      : [],
    data: {
      incident: { ...incident, url: incidentUrl(input.baseUrl, incident.id) },
      rotation: input.rotation,
      by: input.byName,
      at: input.at.toISOString(),
    },
  };
}

/** Time off recorded: someone is away, and who covers if anyone. */
export function timeOffChatMessage(input: {
  baseUrl: string;
  timeZone: string;
  at: Date;
  timeOffId: number;
  rotation: RotationFacts;
  personName: string;
  startAt: Date;
  endAt: Date;
}): ChatMessage {
  const { rotation } = input;
  return {
    type: 'time-off',
    at: input.at,
    title: `${input.personName} is away (${rotation.name})`,
    facts: [
      ['From', formatWhen(input.startAt, input.timeZone)],
      ['Until', formatWhen(input.endAt, input.timeZone)],
    ],
    link: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
    data: {
      timeOffId: input.timeOffId,
      rotation,
      person: input.personName,
      startAt: input.startAt.toISOString(),
      endAt: input.endAt.toISOString(),
    },
  };
}

/** A change moved people's shifts. */
export function shiftMovedChatMessage(input: {
  baseUrl: string;
  at: Date;
  changeKey: string;
  rotation: RotationFacts;
  peopleNames: string[];
}): ChatMessage {
  const { rotation } = input;
  return {
    type: 'shift-moved',
    at: input.at,
    title: `Shifts moved on ${rotation.name}`,
    facts: [['Whose', input.peopleNames.join(', ') || 'Members of the rotation']],
    link: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
    data: { change: input.changeKey, rotation, people: input.peopleNames },
  };
}

/** The daily digest: who is on call today and the week's shifts. */
export function digestChatMessage(input: {
  baseUrl: string;
  timeZone: string;
  at: Date;
  localDate: string;
  rotation: RotationFacts;
  holderName: string | null;
  shifts: { name: string; startAt: Date; endAt: Date }[];
}): ChatMessage {
  const { rotation } = input;
  const week = input.shifts.map(
    (s) =>
      `${s.name}: ${formatWhen(s.startAt, input.timeZone)} – ${formatWhen(s.endAt, input.timeZone)}`,
  );
  return {
    type: 'digest',
    at: input.at,
    title: `On call today and this week: ${rotation.name}`,
    facts: [['On call now', input.holderName ?? 'Nobody holds the baton']],
    quote: { label: 'This week', text: week.length > 0 ? week.join('\n') : 'No shifts this week' },
    link: { label: 'Open the rotation in Baton', url: rotationUrl(input.baseUrl, rotation.id) },
    data: {
      date: input.localDate,
      rotation,
      holder: input.holderName,
      shifts: input.shifts.map((s) => ({
        name: s.name,
        startAt: s.startAt.toISOString(),
        endAt: s.endAt.toISOString(),
      })),
    },
  };
}

/** The "send test event" message. */
export function testChatMessage(input: {
  baseUrl: string;
  at: Date;
  destinationId: number;
  actorName: string;
}): ChatMessage {
  return {
    type: 'test',
    at: input.at,
    title: 'Test event from Baton',
    facts: [['Sent by', input.actorName]],
    link: { label: 'Open Baton', url: input.baseUrl },
    data: { destinationId: input.destinationId, sentBy: input.actorName },
  };
}
