/**
 * What Baton announces (decision 241): one typed event per thing worth telling, carrying the
 * facts, never a text. An event site builds one and calls `announce` once, inside the transaction
 * that caused it; each channel renders it from the one renderer of its type (`chat-messages.ts`
 * for destinations). `key` names the event once and for all (e.g. `handoff:42`): announcing it
 * again enqueues nothing new.
 *
 * The types are the destinations' event names (`DESTINATION_EVENTS`, the webhook event's `type`),
 * plus `test`, the "send test event" of one destination.
 */

/** A rotation as an event names it. */
export interface RotationFacts {
  id: number;
  name: string;
}

interface EventBase {
  /** names the event once and for all: a repeat is a no-op */
  key: string;
  /** when it happened */
  at: Date;
}

/** A handoff: the baton passed, taken, reassigned or handed on by the schedule. */
export interface HandoffEvent extends EventBase {
  type: 'handoff';
  handoffId: number;
  rotation: RotationFacts;
  fromName: string | null;
  toName: string;
  /** null: none */
  notes: string | null;
  how: 'passed' | 'taken' | 'reassigned' | 'scheduled';
}

/** Cover accepted or arranged: someone covers another member's time. */
export interface CoverEvent extends EventBase {
  type: 'cover';
  requestId: number;
  rotation: RotationFacts;
  coveringName: string;
  coveredName: string;
  startAt: Date;
  endAt: Date;
}

export type IncidentEventType =
  | 'incident.raised'
  | 'incident.acknowledged'
  | 'incident.escalated'
  | 'incident.resolved';

/** An incident raised, acknowledged, escalated or resolved. */
export interface IncidentEvent extends EventBase {
  type: IncidentEventType;
  incident: { id: number; title: string; severity: string | null; status: string };
  /** the one-based step it is at: its Escalate button escalates from this step only */
  step: number;
  rotation: RotationFacts | null;
  /** who acknowledged or resolved it, whom it escalated to */
  byName: string | null;
  /** whose destinations hear of it: its rotation's, its policy's and its integration's */
  rotationId: number | null;
  escalationPolicyId: number | null;
  integrationId: number | null;
}

/** Time off recorded, told to one of the person's rotations. */
export interface TimeOffEvent extends EventBase {
  type: 'time-off';
  timeOffId: number;
  rotation: RotationFacts;
  personName: string;
  startAt: Date;
  endAt: Date;
}

/** A change moved people's shifts; `key` is the change's key. */
export interface ShiftMovedEvent extends EventBase {
  type: 'shift-moved';
  rotation: RotationFacts;
  peopleNames: string[];
}

/** The daily digest of one rotation, for one destination at its own local time. */
export interface DigestEvent extends EventBase {
  type: 'digest';
  /** the destination it is for, and what that destination belongs to */
  destination: {
    id: number;
    rotationId: number | null;
    escalationPolicyId: number | null;
    integrationId: number | null;
  };
  localDate: string;
  rotation: RotationFacts;
  holderName: string | null;
  shifts: { name: string; startAt: Date; endAt: Date }[];
}

/** "Send test event": one destination, whatever it subscribes to. */
export interface TestEvent extends EventBase {
  type: 'test';
  destinationId: number;
  actorName: string;
}

/** NotificationEvent is every event Baton announces. */
export type NotificationEvent =
  | HandoffEvent
  | CoverEvent
  | IncidentEvent
  | TimeOffEvent
  | ShiftMovedEvent
  | DigestEvent
  | TestEvent;

export type EventType = NotificationEvent['type'];

/**
 * OfType picks the member of an event union whose `type` can be T. Not `Extract`: one member may
 * stand for several types (an incident's four types share one shape).
 */
export type OfType<Union, T> = Union extends infer E
  ? E extends { type: infer U }
    ? T extends U
      ? E
      : never
    : never
  : never;

/** The event of one type. */
export type EventOf<T extends EventType> = OfType<NotificationEvent, T>;
