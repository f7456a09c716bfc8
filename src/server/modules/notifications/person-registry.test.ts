import { describe, expect, it } from 'vitest';
import { DESTINATION_KINDS } from '../../../shared/contracts/destinations';
import type { RuleChannel } from '../../../shared/domain/notification-rules';
import { heardByDestinations, personRowsOf } from './announce';
import { renderChat } from './chat-registry';
import type { AlertFacts } from './messages';
import { RULED_KINDS } from './outbox';
import type { PageRef, Person, PersonEventOf, PersonEventType } from './person-events';
import { PERSON_EVENT_TYPES } from './person-events';
import { PERSON_MESSAGES, personMessageOf } from './person-messages';
import { PERSON_CHANNELS } from './person-registry';
import { VOICE_MESSAGES, voiceTextOf } from './voice-messages';

/**
 * Every person channel renders every person event (decision 241). The fixtures are typed by event
 * type, so a new person event type without a fixture does not compile; a new channel in
 * PERSON_CHANNELS is rendered here for every one of them, in every part an event tells apart.
 */

const at = new Date('2026-03-29T00:30:00Z');
const endAt = new Date('2026-03-30T00:30:00Z');
const rotation = { id: 7, name: 'Payments <&>' };
const person: Person = {
  id: 1,
  email: 'ada@example.com',
  phone: '+15555550100',
  notificationPreference: 'both',
  timezone: 'Europe/Berlin',
};
const notes = 'The <pager> is & loud';
const page: PageRef = { id: 42, urgency: 'high' };
const paged = { person, as: 'to', ackToken: '42.abc', replyCode: '4821' } as const;
const alert: AlertFacts = {
  severity: 'P1',
  event: {
    summary: 'Disk full',
    source: 'db-1:9100',
    details: [{ section: 'Labels', label: 'instance', value: 'db-1 <&>' }],
    links: [{ href: 'https://grafana.example.com/d/1', text: 'Dashboard' }],
  },
  stormAlerts: null,
};
const pageWords = {
  page,
  rotation,
  pagerName: 'Prometheus <&>',
  message: notes,
  alert,
  severity: 'P1' as const,
  description: 'Disk <full> & growing',
};

const FIXTURES: { [T in PersonEventType]: PersonEventOf<T> } = {
  'baton.passed': {
    type: 'baton.passed',
    key: 'handoff:1',
    handoffId: 1,
    at,
    told: [{ person, as: 'to' }],
    rotation,
    fromName: 'Ada',
    toName: 'Grace',
    notes,
    urgent: true,
  },
  'baton.taken': {
    type: 'baton.taken',
    key: 'handoff:2',
    handoffId: 2,
    at,
    told: [{ person, as: 'to' }],
    rotation,
    takerName: 'Grace',
  },
  'baton.reassigned': {
    type: 'baton.reassigned',
    key: 'handoff:3',
    handoffId: 3,
    at,
    told: [
      { person, as: 'to' },
      { person, as: 'from' },
    ],
    rotation,
    actorName: 'Lin',
    previousName: 'Ada',
    nextName: 'Grace',
    notes,
  },
  'coverage.requested': {
    type: 'coverage.requested',
    key: 'coverage:4:requested',
    at,
    told: [{ person, as: 'to' }],
    rotation,
    requesterName: 'Ada',
    startAt: at,
    endAt,
    notes,
  },
  'coverage.accepted': {
    type: 'coverage.accepted',
    key: 'coverage:4:accepted',
    requestId: 4,
    at,
    told: [{ person, as: 'to' }],
    rotation,
    coveringName: 'Grace',
    requesterName: 'Ada',
    startAt: at,
    endAt,
  },
  'coverage.declined': {
    type: 'coverage.declined',
    key: 'coverage:4:declined',
    requestId: 4,
    at,
    told: [{ person, as: 'to' }],
    rotation,
    coveringName: 'Grace',
    requesterName: 'Ada',
    startAt: at,
    endAt,
  },
  'coverage.arranged': {
    type: 'coverage.arranged',
    key: 'coverage:5:arranged',
    requestId: 5,
    at,
    told: [
      { person, as: 'covering' },
      { person, as: 'requester' },
    ],
    rotation,
    arrangerName: 'Lin',
    requesterName: 'Ada',
    coveringName: 'Grace',
    startAt: at,
    endAt,
    notes,
  },
  'rotation.changed': {
    type: 'rotation.changed',
    key: 'rotation-change:6',
    at,
    told: [{ person, as: 'to' }],
    rotation,
    actorName: 'Lin',
    change: { kind: 'members_reordered', order: ['Ada', 'Grace'] },
  },
  invitation: {
    type: 'invitation',
    key: 'invitation:7',
    at,
    told: [
      {
        person: {
          id: null,
          email: 'new@example.com',
          phone: null,
          notificationPreference: 'email',
        },
        as: 'to',
      },
    ],
    invitee: { name: 'New <comer> &', email: 'new@example.com', role: 'member', expiresAt: endAt },
    link: 'https://baton.example.com/invite/abc',
    inviterName: 'Lin',
  },
  'handoff.schedule': {
    type: 'handoff.schedule',
    key: 'handoff:8',
    at,
    told: [
      { person, as: 'to' },
      { person, as: 'from' },
    ],
    handoffId: 8,
    rotation,
    fromName: 'Ada',
    toUserId: 2,
    toName: 'Grace',
    until: endAt,
  },
  'handoff.auto': {
    type: 'handoff.auto',
    key: 'handoff:9',
    at,
    told: [
      { person, as: 'to' },
      { person, as: 'from' },
    ],
    handoffId: 9,
    rotation,
    fromName: 'Ada',
    toName: 'Grace',
  },
  'handoff.notice': {
    type: 'handoff.notice',
    key: 'notice:7:1',
    at,
    told: [
      { person, as: 'holder' },
      { person, as: 'next' },
    ],
    rotation,
    boundary: endAt,
    autoAt: endAt,
    holderName: 'Ada',
    nextName: 'Grace',
  },
  'handoff.due': {
    type: 'handoff.due',
    key: 'due:7:1',
    at,
    told: [
      { person, as: 'holder' },
      { person, as: 'next' },
    ],
    rotation,
    boundary: endAt,
    autoAt: endAt,
    holderName: 'Ada',
    nextName: 'Grace',
  },
  'handoff.escalate': {
    type: 'handoff.escalate',
    key: 'escalate:7:1',
    at,
    told: [{ person, as: 'next' }],
    rotation,
    boundary: endAt,
    autoAt: endAt,
    holderName: 'Ada',
    nextName: 'Grace',
  },
  'handoff.acknowledged': {
    type: 'handoff.acknowledged',
    key: 'handoff:10:acknowledged',
    at,
    told: [{ person, as: 'to' }],
    rotation,
    toName: 'Grace',
  },
  'handoff.missed': {
    type: 'handoff.missed',
    key: 'handoff:10:missed',
    at,
    told: [{ person, as: 'to' }],
    rotation,
    toName: 'Grace',
    urgent: true,
  },
  'time_off.gap': {
    type: 'time_off.gap',
    key: 'gap:7',
    at,
    told: [{ person, as: 'to' }],
    rotation,
    start: at,
    end: endAt,
  },
  'time_off.collision': {
    type: 'time_off.collision',
    key: 'collision:7',
    at,
    told: [{ person, as: 'to' }],
    rotation,
    personName: 'Ada',
    entryStart: at,
    entryEnd: endAt,
    awayStart: at,
    awayEnd: endAt,
  },
  'shifts.changed': {
    type: 'shifts.changed',
    key: 'shift-changes:3',
    at,
    told: [
      {
        person,
        as: 'to',
        changes: [
          {
            kind: 'moved',
            before: { start: at, end: endAt },
            after: { start: endAt, end: new Date('2026-03-31T00:30:00Z') },
          },
        ],
      },
    ],
    rotation,
    peopleNames: ['Grace'],
  },
  'destination.failing': {
    type: 'destination.failing',
    key: 'destination:4:failing',
    at,
    told: [{ person, as: 'to' }],
    kindLabel: 'Slack',
    urlHint: 'hooks.slack.com/…abc',
    targetName: 'Payments <&>',
    rotationId: 7,
    failingSince: at,
  },
  'coverage.cancelled': {
    type: 'coverage.cancelled',
    key: 'coverage:4:not-started',
    at,
    told: [{ person, as: 'to' }],
    rotation,
    requesterName: 'Ada',
    startAt: at,
  },
  'coverage.started': {
    type: 'coverage.started',
    key: 'handoff:11',
    at,
    told: [
      { person, as: 'covering' },
      { person, as: 'requester' },
      { person, as: 'previous' },
    ],
    rotation,
    coveringName: 'Grace',
    endAt,
  },
  'coverage.ended': {
    type: 'coverage.ended',
    key: 'handoff:12',
    at,
    told: [
      { person, as: 'to' },
      { person, as: 'from' },
    ],
    rotation,
    toName: 'Grace',
  },
  page: {
    type: 'page',
    key: 'page:42:sent',
    at,
    told: [paged],
    ...pageWords,
    pagedAt: at,
  },
  'page.backup': {
    type: 'page.backup',
    key: 'page:42:backup',
    at,
    told: [{ person, as: 'to' }],
    ...pageWords,
    pagedAt: at,
    holderName: 'Grace',
    backupUntil: endAt,
  },
  'page.reminder': {
    type: 'page.reminder',
    key: 'page:42:step:1:0:1',
    at,
    told: [paged],
    ...pageWords,
    sentAt: at,
    escalatesAt: endAt,
  },
  'page.escalated': {
    type: 'page.escalated',
    key: 'page:42:step:2:0:1',
    at: endAt,
    told: [paged],
    ...pageWords,
    pagedAt: at,
    how: { kind: 'step', fromUserId: 2, fromName: 'Grace', reason: null, waitingSince: at },
  },
  'page.warning': {
    type: 'page.warning',
    key: 'page:42:step:1:0:1',
    at,
    told: [{ person, as: 'to' }],
    page,
    rotation,
    targetName: 'Grace',
    message: notes,
    sentAt: at,
    escalation: { at: endAt, toNames: ['Grace', 'Lin'] },
  },
  'page.escalation_notice': {
    type: 'page.escalation_notice',
    key: 'page:42:step:2:0:1',
    at: endAt,
    told: [{ person, as: 'to' }],
    page,
    rotation,
    fromName: 'Grace',
    toNames: ['Lin', null],
    reason: null,
    waitingSince: at,
    automatic: true,
  },
  'page.acknowledged': {
    type: 'page.acknowledged',
    key: 'page:42:acknowledged',
    at,
    told: [{ person, as: 'to' }],
    page,
    rotation,
    byName: 'Grace',
  },
  'page.resolved': {
    type: 'page.resolved',
    key: 'page:42:resolved',
    at,
    told: [{ person, as: 'to' }],
    page,
    rotation,
    byName: 'Grace',
    message: notes,
  },
  'incident.exhausted': {
    type: 'incident.exhausted',
    key: 'page:42:exhausted:1',
    at: endAt,
    told: [{ person, as: 'to' }],
    page,
    rotation,
    title: notes,
    policyName: 'Payments policy',
    loops: 2,
    raisedAt: at,
  },
  'page.follow_up': {
    type: 'page.follow_up',
    key: 'page:42',
    at,
    told: [{ person: { ...person, id: 1 }, as: 'to', why: 'new' }],
    page,
    rotation,
    integration: { id: 3, name: 'Prometheus <&>' },
    incident: { title: notes, severity: 'P1', source: 'db-1:9100' },
  },
};

const CHANNELS = Object.keys(PERSON_CHANNELS) as RuleChannel[];
const context = { baseUrl: 'https://baton.example.com', timeZone: 'Europe/Berlin' };

describe('person channel registry', () => {
  it('has words for a call of every event that pages (the ruled kinds), and only those', () => {
    expect(Object.keys(VOICE_MESSAGES).sort()).toEqual([...RULED_KINDS].sort());
  });

  it('has a renderer and a fixture for every person event type', () => {
    expect(Object.keys(PERSON_MESSAGES).sort()).toEqual([...PERSON_EVENT_TYPES].sort());
    expect(Object.keys(FIXTURES).sort()).toEqual([...PERSON_EVENT_TYPES].sort());
  });

  const cases = PERSON_EVENT_TYPES.flatMap((type) =>
    FIXTURES[type].told.flatMap((told, index) =>
      CHANNELS.map((channel) => ({ type, as: told.as, index, channel }) as const),
    ),
  );

  it.each(cases)('$type to $as by $channel', ({ type, index, channel }) => {
    const event = FIXTURES[type];
    const message = {
      ...personMessageOf(event, event.told[index], context),
      voice: voiceTextOf(event, event.told[index]),
    };
    const content = PERSON_CHANNELS[channel](message);
    expect(content.subject).toBe(message.subject);
    expect(content.subject.length).toBeGreaterThan(0);
    expect(content.text.length).toBeGreaterThan(0);
    if (channel === 'sms') {
      expect(content.text.length).toBeLessThanOrEqual(600);
      expect(content.text).not.toMatch(/\n/);
      expect(content.html).toBeUndefined();
    } else if (channel === 'push') {
      // A push (decision 253): the notice the service worker shows, one line, no HTML.
      expect(content.html).toBeUndefined();
      expect(content.body?.title).toBe(message.subject);
      expect(content.body?.body.length).toBeGreaterThan(0);
      expect(content.body?.body).not.toMatch(/\n/);
    } else if (channel === 'voice') {
      // What a call says (decision 252): one line, no HTML; a page's own words for a paging event.
      expect(content.text.length).toBeLessThanOrEqual(800);
      expect(content.text).not.toMatch(/\n/);
      expect(content.html).toBeUndefined();
      if (type in VOICE_MESSAGES) {
        expect(content.text).toMatch(/^This is Baton\. .*(high|medium|low) urgency page for /);
        expect(content.text).toContain((event as { rotation: { name: string } }).rotation.name);
      } else {
        expect(content.text).toBe(message.subject);
      }
    } else {
      expect(content.text).toBe(message.text);
      expect(content.html).toContain('&lt;');
      expect(content.html).not.toContain('<pager>');
    }
  });
});

describe('one happening, one announce: what destinations hear of a person event', () => {
  it('hears a handoff of a baton event, a cover of accepted or arranged cover, shift-moved of changed shifts, nothing else', () => {
    const heard = PERSON_EVENT_TYPES.map((type) => [
      type,
      heardByDestinations(FIXTURES[type])?.type,
    ]);
    expect(Object.fromEntries(heard)).toEqual({
      'baton.passed': 'handoff',
      'baton.taken': 'handoff',
      'baton.reassigned': 'handoff',
      'coverage.requested': undefined,
      'coverage.accepted': 'cover',
      'coverage.declined': undefined,
      'coverage.arranged': 'cover',
      'rotation.changed': undefined,
      invitation: undefined,
      'handoff.schedule': 'handoff',
      'handoff.auto': 'handoff',
      'handoff.notice': undefined,
      'handoff.due': undefined,
      'handoff.escalate': undefined,
      'handoff.acknowledged': undefined,
      'handoff.missed': undefined,
      'time_off.gap': undefined,
      'time_off.collision': undefined,
      'shifts.changed': 'shift-moved',
      'destination.failing': undefined,
      'coverage.cancelled': undefined,
      'coverage.started': undefined,
      'coverage.ended': undefined,
      page: undefined,
      'page.backup': undefined,
      'page.reminder': undefined,
      'page.escalated': undefined,
      'page.warning': undefined,
      'page.escalation_notice': undefined,
      'page.acknowledged': undefined,
      'page.resolved': undefined,
      'incident.exhausted': undefined,
      'page.follow_up': undefined,
    });
  });

  const heardCases = PERSON_EVENT_TYPES.filter((type) =>
    heardByDestinations(FIXTURES[type]),
  ).flatMap((type) => DESTINATION_KINDS.map((kind) => ({ type, kind }) as const));

  it.each(heardCases)('$type renders for $kind', ({ type, kind }) => {
    const event = heardByDestinations(FIXTURES[type]);
    if (!event) throw new Error(`${type} is heard by no destination`);
    const rendered = renderChat(kind, event, context);
    expect(rendered.type).toBe(event.type);
    expect(rendered.title).toContain('Payments');
    expect(JSON.stringify(rendered.body)).toContain('Grace');
  });

  it('keeps the event key of a handoff, and one cover key per request', () => {
    expect(heardByDestinations(FIXTURES['baton.passed'])?.key).toBe('handoff:1');
    expect(heardByDestinations(FIXTURES['coverage.accepted'])?.key).toBe('coverage:4:covered');
    expect(heardByDestinations(FIXTURES['coverage.arranged'])?.key).toBe('coverage:5:covered');
  });
});

describe("what announce writes of an incident's pages", () => {
  const baseUrl = 'https://baton.example.com';
  const rowsOf = (...events: PersonEventOf<PersonEventType>[]) =>
    personRowsOf(events, baseUrl).messages.map((m) => [m.kind, m.pageId, m.emailOnly ?? false]);

  it("puts the page's id on each of its rows, and sends a low-urgency page by email only", () => {
    expect(rowsOf(FIXTURES.page, FIXTURES['page.resolved'], FIXTURES['baton.passed'])).toEqual([
      ['page', 42, false],
      ['page.resolved', 42, false],
      ['baton.passed', undefined, false],
    ]);
    const low = { id: 43, urgency: 'low' } as const;
    expect(rowsOf({ ...FIXTURES['page.warning'], page: low })).toEqual([
      ['page.warning', 43, true],
    ]);
  });

  it("writes each person's own link and reply code into their page", () => {
    const [row] = personRowsOf([FIXTURES.page], baseUrl).messages;
    expect(row.sms).toContain('Reply 4821 to acknowledge, 4821R to resolve.');
    expect(row.sms).toContain(`Ack: ${baseUrl}/pages/ack/42.abc`);
    expect(row.html).toContain(`${baseUrl}/pages/ack/42.abc`);
  });

  it("adds a follow-up's incident to each person's follow-up, not a message of its own", () => {
    const { messages, followUps } = personRowsOf([FIXTURES['page.follow_up']], baseUrl);
    expect(messages).toEqual([]);
    expect(followUps.map((f) => [f.topic, f.kind, f.key, f.pageId, f.item.reason])).toEqual([
      ['integration:3', 'page.follow_up', 'page:42', 42, 'new'],
    ]);
    const [followUp] = followUps;
    const gathered = followUp.render([followUp.item, { ...followUp.item, pageId: 43 }]);
    expect(gathered.subject).toBe('2 more incidents from Prometheus <&>: Payments <&>');
  });
});
