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
import type { Severity } from '../../../shared/contracts/incidents';
import type { User } from '../../../shared/contracts/users';
import type { NotificationRules } from '../../../shared/domain/notification-rules';
import type { Urgency } from '../../../shared/domain/paging';
import type { ShiftChange } from '../../../shared/domain/shift-changes';
import type { OfType, RotationFacts } from './events';
import type { AlertFacts, FollowUpReason, RotationChange } from './messages';

/**
 * A person who hears of an event: a user, or an address with no account yet (an invitee: id
 * null, no profile zone, so UTC).
 */
export type Person = Pick<User, 'email' | 'phone' | 'notificationPreference'> & {
  id: number | null;
  timezone?: string | null;
  /**
   * the person's own notification rules (decision 251), given where a page reaches them; absent
   * or null: their preference decides
   */
  notificationRules?: NotificationRules | null;
  /** a low-urgency page held to the person's working hours waits until then (decision 254) */
  heldUntil?: Date;
  /** how many devices the person turned push on for (decision 253), given with their rules */
  pushDevices?: number;
};

/** One person told of an event, in the part `as` names (an event may tell two people apart). */
export interface Told<As extends string = 'to'> {
  person: Person;
  as: As;
}

interface PersonEventBase<As extends string = 'to', Own extends object = object> {
  /** names the event once and for all: a repeat to the same person and channel is a no-op */
  key: string;
  /** when it happened */
  at: Date;
  /** whom to tell, with what is each one's own in it (`Own`); an empty list tells no one */
  told: (Told<As> & Own)[];
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

/**
 * The schedule moved the baton (decision 054): the new holder (`to`) and the previous one (`from`)
 * are told; destinations hear a `handoff` when someone holds it now.
 */
export interface ScheduleHandoffEvent extends PersonEventBase<'to' | 'from'> {
  type: 'handoff.schedule';
  handoffId: number;
  rotation: RotationFacts;
  /** null: nobody, or not known (deleted) */
  fromName: string | null;
  /** null: nobody holds it now (a gap in the schedule) */
  toUserId: number | null;
  toName: string | null;
  /** when the new holder's entry ends, if one does */
  until: Date | null;
}

/**
 * The engine moved the baton at a boundary nobody handled (decision 131): the receiver (`to`) and
 * the previous holder (`from`) are told; destinations hear a `handoff`.
 */
export interface AutoHandoffEvent extends PersonEventBase<'to' | 'from'> {
  type: 'handoff.auto';
  handoffId: number;
  rotation: RotationFacts;
  /** null: nobody, or not known (deleted) */
  fromName: string | null;
  toName: string | null;
}

/**
 * A step of the handoff flow before a boundary (decision 131): the notice, the request to pass
 * (`due`) and the escalation, told to the holder and the next member (or the managers) in their
 * part; a scheduled rotation's notice says the schedule moves the baton (`scheduled`).
 */
export interface HandoffStepEvent extends PersonEventBase<'holder' | 'next'> {
  type: 'handoff.notice' | 'handoff.due' | 'handoff.escalate';
  rotation: RotationFacts;
  boundary: Date;
  /** when the engine moves the baton by itself; null for a scheduled rotation */
  autoAt: Date | null;
  holderName: string | null;
  nextName: string | null;
  scheduled?: boolean;
}

/** The receiver acknowledged an urgent handoff: the one who passed it is told. */
export interface EmergencyAcknowledgedEvent extends PersonEventBase {
  type: 'handoff.acknowledged';
  rotation: RotationFacts;
  toName: string;
}

/** Nobody acknowledged a handoff in time: the one who passed it is told. */
export interface AcknowledgementMissedEvent extends PersonEventBase {
  type: 'handoff.missed';
  rotation: RotationFacts;
  /** null: not known (deleted) */
  toName: string | null;
  urgent: boolean;
}

/** Nobody is on call for a stretch ahead (time off): the rotation's managers are told. */
export interface TimeOffGapEvent extends PersonEventBase {
  type: 'time_off.gap';
  rotation: RotationFacts;
  start: Date;
  end: Date;
}

/** A schedule entry collides with its person's time off: the rotation's managers are told. */
export interface TimeOffCollisionEvent extends PersonEventBase {
  type: 'time_off.collision';
  rotation: RotationFacts;
  personName: string;
  entryStart: Date;
  entryEnd: Date;
  awayStart: Date;
  awayEnd: Date;
}

/**
 * A change moved people's shifts (decision 221's `shift-moved` for destinations): each person
 * told hears their own changes.
 */
export interface ShiftsChangedEvent extends PersonEventBase<'to', { changes: ShiftChange[] }> {
  type: 'shifts.changed';
  rotation: RotationFacts;
  /** the names of the people whose shifts moved, for destinations */
  peopleNames: string[];
  /** the names of who is on call in a removed shift's time now (its `coveredBy`; decision 262) */
  coverNames?: ReadonlyMap<number, string>;
}

/** A chat or webhook destination has failed for an hour: its owners are told. */
export interface DestinationFailingEvent extends PersonEventBase {
  type: 'destination.failing';
  /** the kind's label (`Slack`) and the URL's hint */
  kindLabel: string;
  urlHint: string;
  /** the rotation's, policy's or integration's name */
  targetName: string;
  /** its rotation, whose page has the delivery log; null: the settings page */
  rotationId: number | null;
  failingSince: Date;
}

/** A coverage window could not start: the requester and the covering member are told. */
export interface CoverageCancelledEvent extends PersonEventBase {
  type: 'coverage.cancelled';
  rotation: RotationFacts;
  requesterName: string | null;
  startAt: Date;
}

/**
 * A coverage window started: the covering member took the baton; the requester, and a previous
 * holder who was not the requester, hear it left them.
 */
export interface CoverageStartedEvent
  extends PersonEventBase<'covering' | 'requester' | 'previous'> {
  type: 'coverage.started';
  rotation: RotationFacts;
  coveringName: string | null;
  endAt: Date;
}

/** A coverage window ended: the one it returns to (`to`) and the covering member (`from`). */
export interface CoverageEndedEvent extends PersonEventBase<'to' | 'from'> {
  type: 'coverage.ended';
  rotation: RotationFacts;
  /** null: nobody, or not known (deleted) */
  toName: string | null;
}

/**
 * The page (an incident, decision 204) a person event is about: each row carries its id, so a
 * failure shows in its history (decision 163), and its urgency picks the channels (low: email
 * only, `announce`).
 */
export interface PageRef {
  id: number;
  urgency: Urgency;
}

/** What the events of an incident's pages share: the page, and the rotation their texts name. */
interface PageEventBase<As extends string = 'to', Own extends object = object>
  extends PersonEventBase<As, Own> {
  page: PageRef;
  /** the incident's rotation, or for an incident without one its policy's name (id 0) */
  rotation: RotationFacts;
}

/** What a page to the people it reaches says besides their own link. */
interface PageWords {
  /** who paged: the integration that raised it, or the person; null: not known */
  pagerName: string | null;
  /** the page's text */
  message: string;
  /** the incident's severity and description, which its emails state (decision 261) */
  severity: Severity;
  description: string | null;
  /** what the alert said, for an incident an alert raised (decision 213); null: none */
  alert: AlertFacts | null;
}

/**
 * What is one paged person's own, minted in the step's transaction: their acknowledgement link's
 * token (decision 062) and their SMS reply code (decision 201; null: the page has none for them).
 */
export interface PagedOwn {
  ackToken: string;
  replyCode: string | null;
}

/** Why a page moved on: the reason a person gave, else since when nobody acknowledged it. */
interface PageMoveReason {
  /** the reason a person gave (escalating by hand); null: none, it moved on by itself */
  reason: string | null;
  /** when the people it left were paged: the reason says how long ago, until `at` */
  waitingSince: Date;
}

/** The first step of an incident paged the one told, with their own link and reply code. */
export interface PageSentEvent extends PageEventBase<'to', PagedOwn>, PageWords {
  type: 'page';
  /** when it was raised */
  pagedAt: Date;
}

/**
 * At the first step, the previous holder while they are backup (decision 130) gets a copy
 * without a link: the holder was paged, the backup stands by.
 */
export interface PageBackupEvent extends PageEventBase, PageWords {
  type: 'page.backup';
  pagedAt: Date;
  /** the holder who was paged; null: not known */
  holderName: string | null;
  /** until when they are backup; null: until the holder acknowledges the emergency handoff */
  backupUntil: Date | null;
}

/** A reminder step: the people it is with, again, their links kept. */
export interface PageReminderEvent extends PageEventBase<'to', PagedOwn>, PageWords {
  type: 'page.reminder';
  /** when they were paged (their links' start) */
  sentAt: Date;
  /** when it escalates to someone; null: no step after it would reach anyone */
  escalatesAt: Date | null;
}

/**
 * The page moved on to the one told: by a step of its policy (from the one it was with, who is
 * not named to themselves), or by a reassignment (which names who reassigned it).
 */
export interface PageEscalatedEvent extends PageEventBase<'to', PagedOwn>, PageWords {
  type: 'page.escalated';
  pagedAt: Date;
  how:
    | ({ kind: 'step'; fromUserId: number | null; fromName: string | null } & PageMoveReason)
    | { kind: 'reassigned'; actorName: string; reason: string | null };
}

/** A reminder step found the page still not acknowledged: the person who raised it is warned. */
export interface PageWarningEvent extends PageEventBase {
  type: 'page.warning';
  /** the first person it is with; null: not known */
  targetName: string | null;
  message: string;
  /** when they were paged */
  sentAt: Date;
  /** the escalation to come, when a step would reach someone: when, and the names it reaches */
  escalation: { at: Date; toNames: string[] } | null;
}

/** The page moved on: the person who raised it hears to whom. */
export interface PageEscalationNoticeEvent extends PageEventBase, PageMoveReason {
  type: 'page.escalation_notice';
  /** the first person it was with; null: nobody, or not known */
  fromName: string | null;
  /** the people it reaches now; null: not known (deleted) */
  toNames: (string | null)[];
  /** the clock moved it, not a person */
  automatic: boolean;
}

/** Someone acknowledged the page: the person who raised it is told. */
export interface PageAcknowledgedEvent extends PageEventBase {
  type: 'page.acknowledged';
  /** null: not known, or not a person */
  byName: string | null;
}

/** The page was resolved while still open: the people it was with are told. */
export interface PageResolvedEvent extends PageEventBase {
  type: 'page.resolved';
  /** the person, or the source that resolved it; null: not known */
  byName: string | null;
  message: string;
}

/**
 * Nobody acknowledged an incident and its policy ran out (decision 204): the rotation's managers
 * and the person who raised it are told.
 */
export interface IncidentExhaustedEvent extends PageEventBase {
  type: 'incident.exhausted';
  title: string;
  policyName: string;
  /** how many times the policy ran (its repeat + 1) */
  loops: number;
  raisedAt: Date;
}

/**
 * An integration's incident joins the person's follow-up of that integration instead of a page of
 * its own (decision 213): `key` is the item's, and each person told hears why (`why`). The
 * follow-up's message lists every incident gathered in it.
 */
export interface PageFollowUpEvent
  extends PageEventBase<'to', { person: Person & { id: number }; why: FollowUpReason }> {
  type: 'page.follow_up';
  integration: { id: number; name: string };
  /** the incident as the follow-up lists it */
  incident: { title: string; severity: Severity; source: string | null };
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
  | InvitationEvent
  | ScheduleHandoffEvent
  | AutoHandoffEvent
  | HandoffStepEvent
  | EmergencyAcknowledgedEvent
  | AcknowledgementMissedEvent
  | TimeOffGapEvent
  | TimeOffCollisionEvent
  | ShiftsChangedEvent
  | DestinationFailingEvent
  | CoverageCancelledEvent
  | CoverageStartedEvent
  | CoverageEndedEvent
  | PageSentEvent
  | PageBackupEvent
  | PageReminderEvent
  | PageEscalatedEvent
  | PageWarningEvent
  | PageEscalationNoticeEvent
  | PageAcknowledgedEvent
  | PageResolvedEvent
  | IncidentExhaustedEvent
  | PageFollowUpEvent;

export type PersonEventType = PersonEvent['type'];

/** The person event of one type (the two coverage outcomes share one shape). */
export type PersonEventOf<T extends PersonEventType> = OfType<PersonEvent, T>;

/** One person told of an event of type T, with the part they play and what is their own in it. */
export type ToldOf<T extends PersonEventType> = PersonEventOf<T>['told'][number];

/** The part a person plays in an event of type T (`to` unless the event tells two apart). */
export type PartOf<T extends PersonEventType> = ToldOf<T>['as'];

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
  'handoff.schedule': true,
  'handoff.auto': true,
  'handoff.notice': true,
  'handoff.due': true,
  'handoff.escalate': true,
  'handoff.acknowledged': true,
  'handoff.missed': true,
  'time_off.gap': true,
  'time_off.collision': true,
  'shifts.changed': true,
  'destination.failing': true,
  'coverage.cancelled': true,
  'coverage.started': true,
  'coverage.ended': true,
  page: true,
  'page.backup': true,
  'page.reminder': true,
  'page.escalated': true,
  'page.warning': true,
  'page.escalation_notice': true,
  'page.acknowledged': true,
  'page.resolved': true,
  'incident.exhausted': true,
  'page.follow_up': true,
};

/** PERSON_EVENT_TYPES is every person event type, once. */
export const PERSON_EVENT_TYPES = Object.keys(PERSON_TYPES) as PersonEventType[];

/** isPersonEvent answers whether an event is told to people (rather than to destinations). */
export function isPersonEvent(event: { type: string }): event is PersonEvent {
  return Object.hasOwn(PERSON_TYPES, event.type);
}

/** pageOf returns the page a person event is about, or null for an event about no page. */
export function pageOf(event: PersonEvent): PageRef | null {
  return 'page' in event ? event.page : null;
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
