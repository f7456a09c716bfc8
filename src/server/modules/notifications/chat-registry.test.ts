import { describe, expect, it } from 'vitest';
import { DESTINATION_EVENTS, DESTINATION_KINDS } from '../../../shared/contracts/destinations';
import { CHAT_MESSAGES } from './chat-messages';
import { CHAT_BODIES, renderChat } from './chat-registry';
import type { EventOf, EventType } from './events';

/**
 * Every channel renders every event (decision 241). The fixtures are typed by event type, so a new
 * event type without a fixture does not compile; a new kind in CHAT_BODIES is rendered here for
 * every one of them.
 */

const at = new Date('2026-03-29T00:30:00Z');
const rotation = { id: 7, name: 'Payments' };
const incident = { id: 42, title: 'Disk <full> & slow', severity: 'high', status: 'open' };
const incidentFacts = {
  at,
  incident,
  step: 1,
  rotation,
  byName: 'Ada',
  rotationId: 7,
  escalationPolicyId: 3,
  integrationId: null,
};

const FIXTURES: { [T in EventType]: EventOf<T> } = {
  handoff: {
    type: 'handoff',
    key: 'handoff:1',
    at,
    handoffId: 1,
    rotation,
    fromName: 'Ada',
    toName: 'Grace',
    notes: 'The <pager> is & loud',
    how: 'passed',
  },
  cover: {
    type: 'cover',
    key: 'coverage:2:covered',
    at,
    requestId: 2,
    rotation,
    coveringName: 'Grace',
    coveredName: 'Ada',
    startAt: at,
    endAt: new Date('2026-03-30T00:30:00Z'),
  },
  'incident.raised': { type: 'incident.raised', key: 'incident:42:raised', ...incidentFacts },
  'incident.acknowledged': {
    type: 'incident.acknowledged',
    key: 'incident:42:acknowledged',
    ...incidentFacts,
  },
  'incident.escalated': {
    type: 'incident.escalated',
    key: 'incident:42:escalated:0:0',
    ...incidentFacts,
  },
  'incident.resolved': { type: 'incident.resolved', key: 'incident:42:resolved', ...incidentFacts },
  'time-off': {
    type: 'time-off',
    key: 'time-off:5',
    at,
    timeOffId: 5,
    rotation,
    personName: 'Ada',
    startAt: at,
    endAt: new Date('2026-04-05T00:00:00Z'),
  },
  'shift-moved': {
    type: 'shift-moved',
    key: 'shift-change:9',
    at,
    rotation,
    peopleNames: ['Ada', 'Grace'],
  },
  digest: {
    type: 'digest',
    key: 'digest:2026-03-29',
    at,
    destination: { id: 4, rotationId: 7, escalationPolicyId: null, integrationId: null },
    localDate: '2026-03-29',
    rotation,
    holderName: 'Ada',
    shifts: [{ name: 'Ada', startAt: at, endAt: new Date('2026-03-30T00:30:00Z') }],
  },
  test: { type: 'test', key: 'test:abc', at, destinationId: 4, actorName: 'Ada' },
};

const context = { baseUrl: 'https://baton.example', timeZone: 'Europe/London' };
const types = Object.keys(FIXTURES) as EventType[];

describe('the chat registry', () => {
  it('has a renderer for every event type, and the event types are the destinations’ and test', () => {
    expect(Object.keys(CHAT_MESSAGES).sort()).toEqual([...types].sort());
    expect([...types].sort()).toEqual([...DESTINATION_EVENTS, 'test'].sort());
  });

  it('has a body for every kind of destination', () => {
    expect(Object.keys(CHAT_BODIES).sort()).toEqual([...DESTINATION_KINDS].sort());
  });

  it.each(
    Object.keys(CHAT_BODIES).flatMap((kind) =>
      types.map((type) => [kind as keyof typeof CHAT_BODIES, type] as const),
    ),
  )('renders %s for %s', (kind, type) => {
    const rendered = renderChat(kind, FIXTURES[type], context);
    expect(rendered.type).toBe(type);
    expect(rendered.title.length).toBeGreaterThan(0);
    const json = JSON.stringify(rendered.body);
    expect(JSON.parse(json)).toEqual(rendered.body);
    expect(json.length).toBeGreaterThan(2);
  });

  it('escapes once, in the Slack body only', () => {
    const event = FIXTURES['incident.raised'];
    const slack = JSON.stringify(renderChat('slack', event, context).body);
    expect(slack).toContain('Disk &lt;full&gt; &amp; slow');
    const teams = JSON.stringify(renderChat('teams', event, context).body);
    expect(teams).toContain('Disk <full> & slow');
    expect(renderChat('webhook', event, context).body).toMatchObject({
      type: 'incident.raised',
      data: { incident: { title: 'Disk <full> & slow' } },
    });
  });
});
