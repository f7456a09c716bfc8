import type { DestinationKind } from '../../../shared/contracts/destinations';
import {
  planRules,
  type ReadyMethods,
  type RuleDelivery,
  ruleUrgencyOf,
} from '../../../shared/domain/notification-rules';
import { URGENCY_POLICY } from '../../../shared/domain/paging';
import { SHIFT_CHANGE_DELAY_MS } from '../../../shared/domain/shift-changes';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { FieldCipher } from '../../crypto/field-crypto';
import { sharedRead } from '../../db/batch-transaction';
import type { Db, Tx } from '../../db/client';
import {
  type DestinationRow,
  findDestinationRow,
  listSubscribedDestinations,
} from '../destinations/destination-repository';
import { readyMethods } from './channels';
import { renderChat } from './chat-registry';
import type { CoverEvent, HandoffEvent, NotificationEvent } from './events';
import { addToFollowUps, FOLLOW_UP_DELAY_MS, type FollowUpInput } from './follow-ups';
import { type FollowUpIncident, publicBaseUrl, type RotationChangeItem } from './messages';
import {
  enqueueChatMessages,
  enqueueNotifications,
  type NotificationInput,
  RULED_KINDS,
} from './outbox';
import {
  type CoverArrangedEvent,
  type CoverageOutcomeEvent,
  isPersonEvent,
  type PageFollowUpEvent,
  type Person,
  type PersonEvent,
  type PersonEventOf,
  type PersonEventType,
  pageOf,
} from './person-events';
import {
  followUpItemOf,
  followUpMessageOf,
  personMessageOf,
  rotationChangeItemOf,
  rotationChangesMessageOf,
} from './person-messages';
import { pagePushOf } from './push-messages';
import { voiceTextOf } from './voice-messages';

/**
 * One way out (decision 241): an event site calls `announce` once, inside the transaction that
 * caused the event. It works out who should hear of it and writes each their rendered message to
 * the outbox, so the messages commit or roll back with the change, and the same event (its `key`)
 * twice is sent once. A destinations' event (`NotificationEvent`) goes to the chat and webhook
 * destinations subscribed to it (decision 221): one outbox row per (event, destination). A person
 * event (`PersonEvent`) goes to the people it names, by each one's notification preference: one
 * outbox row per (event, person, channel); a person event that is also a destinations' event (a
 * handoff, cover) is heard by those destinations too, from the same one call.
 */

/** What announcing needs: the cipher that seals the rows and, for links, the configuration. */
export interface AnnounceDeps {
  cipher: FieldCipher;
  /** links' base; and Twilio's settings, which decide whether a rule may call (decision 252) */
  config?: {
    publicUrl?: string;
    port?: number;
    sms?: { accountSid?: string; authToken?: string; from?: string };
  };
}

/** destinationsOf reads the destinations that hear of an event: one statement. */
async function destinationsOf(tx: Db | Tx, event: NotificationEvent): Promise<DestinationRow[]> {
  switch (event.type) {
    case 'handoff':
    case 'cover':
    case 'time-off':
    case 'shift-moved':
      return listSubscribedDestinations(tx, { rotationId: event.rotation.id }, event.type);
    case 'incident.raised':
    case 'incident.acknowledged':
    case 'incident.escalated':
    case 'incident.resolved': {
      const { rotationId, escalationPolicyId, integrationId } = event;
      return sharedRead(
        tx,
        `destinations:${event.type}:${rotationId}:${escalationPolicyId}:${integrationId}`,
        () =>
          listSubscribedDestinations(
            tx,
            {
              rotationId,
              policyIds: escalationPolicyId ? [escalationPolicyId] : [],
              integrationId,
            },
            event.type,
          ),
      );
    }
    case 'digest': {
      const { destination } = event;
      return listSubscribedDestinations(
        tx,
        {
          rotationId: destination.rotationId,
          policyIds: destination.escalationPolicyId ? [destination.escalationPolicyId] : [],
          integrationId: destination.integrationId,
          destinationId: destination.id,
        },
        'digest',
      );
    }
    case 'test': {
      const row = await findDestinationRow(tx, event.destinationId);
      return row ? [row.destination] : [];
    }
  }
}

/**
 * Person events that go by email only, whatever the person's preference, and why. An event about
 * a page goes by email only when the page's urgency says so (`URGENCY_POLICY`: low). Every other
 * person event goes by the person's channels (`notificationRoute`).
 */
const EMAIL_ONLY: Partial<Record<PersonEventType, string>> = {
  // Not urgent: the change is done and the rotation is covered; email, not a text at night.
  'rotation.changed': 'not urgent',
  // The invitee has no account yet, so no number and no preference.
  invitation: 'no account yet',
};

/** isEmailOnly answers whether a person event goes by email only (EMAIL_ONLY, a page's urgency). */
function isEmailOnly(event: PersonEvent): boolean {
  if (EMAIL_ONLY[event.type]) return true;
  const page = pageOf(event);
  return page !== null && (URGENCY_POLICY[page.urgency]?.emailOnly ?? false);
}

/**
 * ruleDeliveriesOf: for an event that pages the person (`RULED_KINDS`) and a person with rules of
 * their own, the channels and delays their rules for the page's urgency send (decision 251);
 * else undefined, and the preference decides as before.
 */
function ruleDeliveriesOf(
  event: PersonEvent,
  person: Person,
  ready: ReadyMethods,
): RuleDelivery[] | undefined {
  const page = pageOf(event);
  const rules = person.notificationRules;
  if (!page || !rules || !(RULED_KINDS as readonly string[]).includes(event.type)) return undefined;
  return planRules(rules[ruleUrgencyOf(page.urgency)], person.phone, {
    ...ready,
    pushDevices: person.pushDevices,
  }).deliveries;
}

/** heardAsHandoff: a baton's change as destinations hear it; an unknown receiver is "A member". */
function heardAsHandoff(
  e: Pick<HandoffEvent, 'key' | 'at' | 'handoffId' | 'rotation'>,
  how: HandoffEvent['how'],
  fromName: string | null,
  toName: string | null,
  notes: string | null,
): HandoffEvent {
  const { key, at, handoffId, rotation } = e;
  return {
    type: 'handoff',
    key,
    at,
    handoffId,
    rotation,
    fromName,
    toName: toName ?? 'A member',
    notes,
    how,
  };
}

/**
 * heardAsCover: accepted or arranged cover as destinations hear it; an unknown covering member is
 * "A teammate", an unknown requester "a teammate".
 */
function heardAsCover(e: CoverageOutcomeEvent | CoverArrangedEvent): CoverEvent {
  return {
    type: 'cover',
    key: `coverage:${e.requestId}:covered`,
    at: e.at,
    requestId: e.requestId,
    rotation: e.rotation,
    coveringName: e.coveringName ?? 'A teammate',
    coveredName: e.requesterName ?? 'a teammate',
    startAt: e.startAt,
    endAt: e.endAt,
  };
}

/**
 * What destinations hear of a person event (one happening, one announce): the destinations' event
 * it also is, rendered by that event's chat renderer, or null when it is for people only. Typed
 * per person event type, so a new one has to say. The names' fallbacks are the chat texts'.
 */
const HEARD_BY_DESTINATIONS: {
  [T in PersonEventType]: (event: PersonEventOf<T>) => NotificationEvent | null;
} = {
  'baton.passed': (e) => heardAsHandoff(e, 'passed', e.fromName, e.toName, e.notes),
  'baton.taken': (e) => heardAsHandoff(e, 'taken', null, e.takerName, null),
  'baton.reassigned': (e) => heardAsHandoff(e, 'reassigned', e.previousName, e.nextName, e.notes),
  'coverage.requested': () => null,
  'coverage.accepted': heardAsCover,
  'coverage.declined': () => null,
  'coverage.arranged': heardAsCover,
  'rotation.changed': () => null,
  invitation: () => null,
  'handoff.schedule': (e) =>
    e.toUserId === null ? null : heardAsHandoff(e, 'scheduled', e.fromName, e.toName, null),
  'handoff.auto': (e) => heardAsHandoff(e, 'scheduled', e.fromName, e.toName, null),
  'handoff.notice': () => null,
  'handoff.due': () => null,
  'handoff.escalate': () => null,
  'handoff.acknowledged': () => null,
  'handoff.missed': () => null,
  'time_off.gap': () => null,
  'time_off.collision': () => null,
  'shifts.changed': (e) => ({
    type: 'shift-moved',
    key: e.key,
    at: e.at,
    rotation: e.rotation,
    peopleNames: e.peopleNames,
  }),
  'destination.failing': () => null,
  'coverage.cancelled': () => null,
  'coverage.started': () => null,
  'coverage.ended': () => null,
  // An incident's changes are the destinations' incident events, which its sites announce.
  page: () => null,
  'page.backup': () => null,
  'page.reminder': () => null,
  'page.escalated': () => null,
  'page.warning': () => null,
  'page.escalation_notice': () => null,
  'page.acknowledged': () => null,
  'page.resolved': () => null,
  'incident.exhausted': () => null,
  'page.follow_up': () => null,
};

/** heardByDestinations returns the destinations' event a person event also is, or null. */
export function heardByDestinations(event: PersonEvent): NotificationEvent | null {
  // The projection is the event's own type's (as in personMessageOf).
  const heard = HEARD_BY_DESTINATIONS[event.type] as (e: PersonEvent) => NotificationEvent | null;
  return heard(event);
}

/**
 * What person events write to the outbox: a message for each person told (`messages`), and for an
 * event that joins a follow-up (decision 213) an item of each person's follow-up (`followUps`),
 * each in the order told. A row about a page carries its id; its channels are each person's
 * preference (`notificationRoute`), or email alone (`isEmailOnly`).
 */
export interface PersonRows {
  messages: NotificationInput[];
  followUps: FollowUpInput<FollowUpIncident>[];
  /** the changes to a rotation its managers hear of in one digest (decision 262) */
  digests: FollowUpInput<RotationChangeItem>[];
}

/**
 * How long a rotation-change digest waits for another change before it is sent, and it waits
 * DIGEST_MAX_WAITS of these at most (decision 262): the shift-change baselines' default window.
 */
export const ROTATION_CHANGE_DIGEST_MS = SHIFT_CHANGE_DELAY_MS;

/**
 * personRowsOf returns what person events write to the outbox, rendered for each person told;
 * `ready` says which rules' methods beyond email and SMS this server sends (calls, decision 252).
 */
export function personRowsOf(
  events: readonly PersonEvent[],
  baseUrl: string,
  ready: ReadyMethods = {},
): PersonRows {
  const rows: PersonRows = { messages: [], followUps: [], digests: [] };
  for (const event of events) {
    const emailOnly = isEmailOnly(event) || undefined;
    const pageId = pageOf(event)?.id;
    if (event.type === 'page.follow_up') {
      rows.followUps.push(...followUpsOf(event, baseUrl, { emailOnly, pageId }));
      continue;
    }
    if (event.type === 'rotation.changed') {
      rows.digests.push(...rotationDigestsOf(event, baseUrl, emailOnly));
      continue;
    }
    for (const told of event.told) {
      const { person } = told;
      const content = personMessageOf(event, told, {
        baseUrl,
        timeZone: zoneOrUtc(person.timezone),
      });
      const deliveries = ruleDeliveriesOf(event, person, ready);
      rows.messages.push({
        eventKey: event.key,
        kind: event.type,
        recipient: {
          id: person.id,
          email: person.email,
          phone: person.phone,
          notificationPreference: person.notificationPreference,
        },
        subject: content.subject,
        text: content.text,
        html: content.html,
        sms: content.sms,
        voice: voiceTextOf(event, told),
        emailOnly,
        pageId,
        deliveries,
        heldUntil: deliveries ? person.heldUntil : undefined,
        // A rule sends it by push (decision 253): what the notification shows, with its actions.
        ...(deliveries?.some((d) => d.channel === 'push') ? { push: pagePushOf(event, told) } : {}),
      });
    }
  }
  return rows;
}

/**
 * followUpsOf: an incident joining each told person's follow-up of its integration, keyed by the
 * event (the same incident again replaces its item), sent a minute after the follow-up's first.
 */
function followUpsOf(
  event: PageFollowUpEvent,
  baseUrl: string,
  row: { emailOnly?: boolean; pageId?: number },
): FollowUpInput<FollowUpIncident>[] {
  return event.told.map((told) => {
    const { person } = told;
    const context = { baseUrl, timeZone: zoneOrUtc(person.timezone) };
    return {
      topic: `integration:${event.integration.id}`,
      kind: event.type,
      recipient: {
        id: person.id,
        email: person.email,
        phone: person.phone,
        notificationPreference: person.notificationPreference,
      },
      key: event.key,
      item: followUpItemOf(event, told),
      ...row,
      delayMs: FOLLOW_UP_DELAY_MS,
      render: (items) => followUpMessageOf(event, items, context),
    };
  });
}

/**
 * rotationDigestsOf: a change to a rotation joining each told manager's digest of the rotation's
 * changes (decision 262), keyed by the event (the same change again replaces its item), sent
 * when ROTATION_CHANGE_DIGEST_MS pass without another (`quiet`).
 */
function rotationDigestsOf(
  event: PersonEventOf<'rotation.changed'>,
  baseUrl: string,
  emailOnly: boolean | undefined,
): FollowUpInput<RotationChangeItem>[] {
  return event.told.flatMap(({ person }) => {
    // Managers are users: a digest is kept per person (an address alone has none).
    const { id } = person;
    if (id === null) return [];
    const context = { baseUrl, timeZone: zoneOrUtc(person.timezone) };
    return {
      topic: `rotation:${event.rotation.id}`,
      kind: event.type,
      recipient: {
        id,
        email: person.email,
        phone: person.phone,
        notificationPreference: person.notificationPreference,
      },
      key: event.key,
      item: rotationChangeItemOf(event),
      emailOnly,
      delayMs: ROTATION_CHANGE_DIGEST_MS,
      quiet: true,
      render: (items) => rotationChangesMessageOf(event, items, context),
    };
  });
}

/**
 * announcePeople writes person events to the outbox for each person they name: the messages in
 * one statement, then the follow-ups' and digests' items. Returns how many messages, follow-ups
 * and digests were new.
 */
async function announcePeople(
  tx: Db | Tx,
  deps: AnnounceDeps,
  now: Date,
  events: readonly PersonEvent[],
): Promise<number> {
  const { messages, followUps, digests } = personRowsOf(
    events,
    publicBaseUrl(deps.config),
    readyMethods(deps.config),
  );
  let written =
    messages.length === 0 ? 0 : await enqueueNotifications(tx, deps.cipher, now, messages);
  if (followUps.length > 0) written += await addToFollowUps(tx, deps.cipher, now, followUps);
  if (digests.length > 0) written += await addToFollowUps(tx, deps.cipher, now, digests);
  return written;
}

const isMany = (event: object): event is readonly PersonEvent[] => Array.isArray(event);

/**
 * announce writes `event` to the outbox for everyone and everything that should hear of it, each
 * in its channel's words. Returns, for a destinations' event, the new messages' outbox ids; for
 * person events, how many outbox rows were new. Several person events (an engine tick's) are
 * written to people in one statement, then to the destinations that hear of them.
 */
export async function announce(
  tx: Db | Tx,
  deps: AnnounceDeps,
  now: Date,
  event: NotificationEvent,
): Promise<number[]>;
export async function announce(
  tx: Db | Tx,
  deps: AnnounceDeps,
  now: Date,
  event: PersonEvent | readonly PersonEvent[],
): Promise<number>;
export async function announce(
  tx: Db | Tx,
  deps: AnnounceDeps,
  now: Date,
  event: NotificationEvent | PersonEvent | readonly PersonEvent[],
): Promise<number[] | number> {
  const events = isMany(event) ? event : isPersonEvent(event) ? [event] : null;
  if (events === null) return announceToDestinations(tx, deps, now, event as NotificationEvent);
  const told = await announcePeople(tx, deps, now, events);
  for (const heard of events.flatMap((e) => heardByDestinations(e) ?? [])) {
    await announceToDestinations(tx, deps, now, heard);
  }
  return told;
}

/** announceToDestinations writes a destinations' event for each destination that hears of it. */
async function announceToDestinations(
  tx: Db | Tx,
  deps: AnnounceDeps,
  now: Date,
  event: NotificationEvent,
): Promise<number[]> {
  const targets = await destinationsOf(tx, event);
  if (targets.length === 0) return [];
  const baseUrl = publicBaseUrl(deps.config);
  return enqueueChatMessages(
    tx,
    deps.cipher,
    now,
    targets.map((destination) => {
      const rendered = renderChat(destination.kind as DestinationKind, event, {
        baseUrl,
        timeZone: zoneOrUtc(destination.digestTimeZone),
      });
      return {
        eventKey: event.key,
        kind: rendered.type,
        destinationId: destination.id,
        title: rendered.title,
        body: rendered.body,
      };
    }),
  );
}
