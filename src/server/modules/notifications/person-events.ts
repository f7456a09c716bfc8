/**
 * What Baton tells people by email and SMS (decision 241): one typed event per thing a person
 * should hear, carrying the facts and whom to tell, never a text. An event site builds one and
 * calls `announce` once, inside the transaction that caused it; each person channel renders it
 * from the one renderer of its type (`person-messages.ts`, through `person-registry.ts`). `key`
 * names the event once and for all (e.g. `handoff:42`): announcing it again enqueues nothing new
 * for the same person and channel.
 *
 * A sibling of `NotificationEvent` rather than more members of it: its types are the outbox's
 * `kind`s, which the outbox view and the demo inbox show, not the destinations' event names (a
 * webhook's `type`, a wire format), and its audience is named by the event site (the receiver,
 * the managers), not read from subscriptions.
 */
import type { User } from '../../../shared/contracts/users';
import type { OfType, RotationFacts } from './events';
import type { RotationChange } from './messages';

/**
 * A person who hears of an event: a user, or an address with no account yet (an invitee: id
 * null, no profile zone, so UTC).
 */
export type Person = Pick<User, 'email' | 'phone' | 'notificationPreference'> & {
  id: number | null;
  timezone?: string | null;
};

/** One person told of an event, in the part `as` names (an event may tell two people apart). */
export interface Told<As extends string = 'to'> {
  person: Person;
  as: As;
}

interface PersonEventBase<As extends string = 'to'> {
  /** names the event once and for all: a repeat to the same person and channel is a no-op */
  key: string;
  /** when it happened */
  at: Date;
  /** whom to tell; an empty list tells no one */
  told: Told<As>[];
}

/**
 * The baton was passed to the one told, with the handoff notes. Destinations hear of it as a
 * `handoff` (one event, both audiences: `announce`'s `HEARD_BY_DESTINATIONS`).
 */
export interface BatonPassedEvent extends PersonEventBase {
  type: 'baton.passed';
  handoffId: number;
  rotation: RotationFacts;
  /** null: not known (deleted) */
  fromName: string | null;
  toName: string | null;
  notes: string | null;
  urgent?: boolean;
}

/** Someone took the free baton; the rotation's managers are told, destinations hear a `handoff`. */
export interface BatonTakenEvent extends PersonEventBase {
  type: 'baton.taken';
  handoffId: number;
  rotation: RotationFacts;
  takerName: string;
}

/**
 * A manager reassigned the baton: the receiver (`to`) and the previous holder (`from`) are told,
 * destinations hear a `handoff`.
 */
export interface BatonReassignedEvent extends PersonEventBase<'to' | 'from'> {
  type: 'baton.reassigned';
  handoffId: number;
  rotation: RotationFacts;
  actorName: string;
  previousName: string | null;
  /** null: not known (deleted) */
  nextName: string | null;
  notes: string | null;
}

/** Someone asks the one told to cover them for a window. */
export interface CoverageRequestedEvent extends PersonEventBase {
  type: 'coverage.requested';
  rotation: RotationFacts;
  requesterName: string;
  startAt: Date;
  endAt: Date;
  notes: string | null;
}

/**
 * The member asked to cover accepted or declined; the requester is told, and destinations hear
 * an accepted one as `cover`.
 */
export interface CoverageOutcomeEvent extends PersonEventBase {
  type: 'coverage.accepted' | 'coverage.declined';
  requestId: number;
  rotation: RotationFacts;
  /** null: not known (deleted) */
  coveringName: string | null;
  requesterName: string | null;
  startAt: Date;
  endAt: Date;
}

/**
 * A manager or administrator arranged cover: the covering member and the requester are told,
 * destinations hear a `cover`.
 */
export interface CoverArrangedEvent extends PersonEventBase<'covering' | 'requester'> {
  type: 'coverage.arranged';
  requestId: number;
  rotation: RotationFacts;
  arrangerName: string;
  requesterName: string;
  coveringName: string;
  startAt: Date;
  endAt: Date;
  notes: string | null;
}

/** Someone who does not manage a rotation changed it (decision 233); its managers are told. */
export interface RotationChangedEvent extends PersonEventBase {
  type: 'rotation.changed';
  rotation: RotationFacts;
  actorName: string;
  change: RotationChange;
}

/** An invitation: the invitee is told, by email only. */
export interface InvitationEvent extends PersonEventBase {
  type: 'invitation';
  invitee: { name: string; email: string; role: string; expiresAt: Date };
  link: string;
  inviterName: string | null;
}

/** PersonEvent is every event Baton tells people of through `announce`. */
export type PersonEvent =
  | BatonPassedEvent
  | BatonTakenEvent
  | BatonReassignedEvent
  | CoverageRequestedEvent
  | CoverageOutcomeEvent
  | CoverArrangedEvent
  | RotationChangedEvent
  | InvitationEvent;

export type PersonEventType = PersonEvent['type'];

/** The person event of one type (the two coverage outcomes share one shape). */
export type PersonEventOf<T extends PersonEventType> = OfType<PersonEvent, T>;

/** The part a person plays in an event of type T (`to` unless the event tells two apart). */
export type PartOf<T extends PersonEventType> = PersonEventOf<T>['told'][number]['as'];

const PERSON_TYPES: Record<PersonEventType, true> = {
  'baton.passed': true,
  'baton.taken': true,
  'baton.reassigned': true,
  'coverage.requested': true,
  'coverage.accepted': true,
  'coverage.declined': true,
  'coverage.arranged': true,
  'rotation.changed': true,
  invitation: true,
};

/** PERSON_EVENT_TYPES is every person event type, once. */
export const PERSON_EVENT_TYPES = Object.keys(PERSON_TYPES) as PersonEventType[];

/** isPersonEvent answers whether an event is told to people (rather than to destinations). */
export function isPersonEvent(event: { type: string }): event is PersonEvent {
  return Object.hasOwn(PERSON_TYPES, event.type);
}

/** toldAs names the known people in one part of a person event; unknown (deleted) ones hear nothing. */
export function toldAs<As extends string>(
  as: As,
  people: readonly (Person | undefined)[],
): Told<As>[] {
  return people.flatMap((person) => (person ? [{ person, as }] : []));
}

/** nameOf returns the name of the person of an id among `people`, null when unknown or none. */
export function nameOf(
  people: ReadonlyMap<number, { name: string }>,
  id: number | null,
): string | null {
  return id === null ? null : (people.get(id)?.name ?? null);
}
