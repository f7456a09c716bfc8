import { inArray } from 'drizzle-orm';
import type { User } from '../../../shared/contracts/users';
import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { toUser, type UserRow } from '../users/user-repository';
import { announce } from './announce';
import type { MessageContent } from './message-layout';
import {
  type MessageContext,
  publicBaseUrl,
  type RotationChange,
  type RotationRef,
} from './messages';
import { enqueueNotifications, type NotificationInput } from './outbox';
import type { Told } from './person-events';

/**
 * What an event tells whom (decisions 061 and 185). Each function is called inside the event's own
 * transaction, so the notifications commit or roll back with it; the event key makes a repeat a
 * no-op. The notify functions read the people an event names and announce it as a person event
 * (`person-events.ts`, decision 241), rendered by `person-messages.ts`; the engine and the
 * services' other rotation events still call sendNotices, with words from messages.ts.
 */

/** What the notify functions need: the cipher and, for links, the configuration. */
export interface NotifyDeps {
  cipher: FieldCipher;
  /**
   * PUBLIC_URL and PORT for links; the app's deps carry it (absent: http://localhost:3000); and
   * whether Twilio's auth token is set, for SMS reply codes (decision 201)
   */
  config?: { publicUrl?: string; port?: number; sms?: { authToken?: string } };
}

/**
 * loadRecipients reads and decrypts the users of the ids (one query at most): rows the caller
 * already read in this transaction (`known`, such as the rotation's members) are not read again.
 */
export async function loadRecipients(
  db: Db | Tx,
  cipher: FieldCipher,
  ids: readonly (number | null | undefined)[],
  known: readonly UserRow[] = [],
): Promise<Map<number, User>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  const knownById = new Map(known.map((row) => [row.id, row]));
  const rows = wanted.flatMap((id) => knownById.get(id) ?? []);
  const missing = wanted.filter((id) => !knownById.has(id));
  if (missing.length > 0)
    rows.push(...(await db.select().from(users).where(inArray(users.id, missing))));
  return new Map(rows.map((row) => [row.id, toUser(row, cipher)]));
}

/** toInput turns message content into an outbox entry for one recipient. */
export function toInput(
  eventKey: string,
  kind: string,
  recipient: NotificationInput['recipient'],
  content: MessageContent,
  options: { emailOnly?: boolean; pageId?: number } = {},
): NotificationInput {
  return {
    eventKey,
    kind,
    recipient,
    subject: content.subject,
    text: content.text,
    html: content.html,
    sms: content.sms,
    emailOnly: options.emailOnly,
    pageId: options.pageId,
  };
}

/**
 * One message about a rotation to one person: whom, which message, and the key that makes it
 * once-only. The message is written when it is sent, for its reader (their time zone).
 */
export interface Notice {
  eventKey: string;
  kind: string;
  /** undefined: the person is not known (deleted); nothing is sent */
  recipient: User | undefined;
  message: (context: MessageContext) => MessageContent;
}

/** noticeInputs writes each notice out for the outbox, in its reader's time zone. */
export function noticeInputs(
  deps: Pick<NotifyDeps, 'config'>,
  rotation: RotationRef,
  notices: readonly Notice[],
): NotificationInput[] {
  const baseUrl = publicBaseUrl(deps.config);
  return notices.flatMap(({ eventKey, kind, recipient, message }) =>
    recipient === undefined
      ? []
      : [
          toInput(
            eventKey,
            kind,
            recipient,
            message({ baseUrl, rotation, timeZone: zoneOrUtc(recipient.timezone) }),
          ),
        ],
  );
}

/**
 * sendNotices writes the notices to the outbox in the caller's transaction, each in its reader's
 * time zone; a notice whose event key was sent to that person before is not sent again. Returns
 * how many outbox rows were new.
 */
export async function sendNotices(
  tx: Db | Tx,
  deps: NotifyDeps,
  now: Date,
  rotation: RotationRef,
  notices: readonly Notice[],
): Promise<number> {
  const inputs = noticeInputs(deps, rotation, notices);
  if (inputs.length === 0) return 0;
  return enqueueNotifications(tx, deps.cipher, now, inputs);
}

const nameOf = (people: Map<number, User>, id: number | null) =>
  id === null ? null : (people.get(id)?.name ?? null);

/** toldAs names the known people in one part of a person event; unknown (deleted) ones hear nothing. */
function toldAs<As extends string>(as: As, people: readonly (User | undefined)[]): Told<As>[] {
  return people.flatMap((person) => (person ? [{ person, as }] : []));
}

const rotationFacts = (rotation: RotationRef) => ({ id: rotation.id, name: rotation.name });

/** notifyBatonPassed tells the receiver of a passed baton, with the handoff notes. */
export async function notifyBatonPassed(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    handoffId: number;
    rotation: RotationRef;
    fromUserId: number;
    toUserId: number;
    notes?: string | null;
    urgent?: boolean;
    now: Date;
    /** user rows already read in the transaction (the members), not read again */
    known?: readonly UserRow[];
  },
): Promise<void> {
  const people = await loadRecipients(
    tx,
    deps.cipher,
    [event.fromUserId, event.toUserId],
    event.known,
  );
  await announce(tx, deps, event.now, {
    type: 'baton.passed',
    key: `handoff:${event.handoffId}`,
    at: event.now,
    told: toldAs('to', [people.get(event.toUserId)]),
    rotation: rotationFacts(event.rotation),
    fromName: nameOf(people, event.fromUserId) ?? 'The previous holder',
    notes: event.notes || null,
    urgent: event.urgent,
  });
  await postHandoff(tx, deps, {
    ...event,
    fromName: nameOf(people, event.fromUserId),
    toName: nameOf(people, event.toUserId) ?? 'A member',
    notes: event.notes || null,
    how: 'passed',
  });
}

/**
 * postHandoff posts a handoff to the rotation's chat and webhook destinations (decision 221),
 * once per handoff, with its notes (Baton has no setting that keeps a rotation's notes private:
 * whoever may read the rotation reads its handoff notes).
 */
async function postHandoff(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    handoffId: number;
    rotation: RotationRef;
    fromName: string | null;
    toName: string;
    notes: string | null;
    how: 'passed' | 'taken' | 'reassigned' | 'scheduled';
    now: Date;
  },
): Promise<void> {
  await announce(tx, deps, event.now, {
    type: 'handoff',
    key: `handoff:${event.handoffId}`,
    at: event.now,
    handoffId: event.handoffId,
    rotation: { id: event.rotation.id, name: event.rotation.name },
    fromName: event.fromName,
    toName: event.toName,
    notes: event.notes,
    how: event.how,
  });
}

/** The rotation facts that decide who manages it: the creator and the members with their roles. */
export interface ManagerFacts {
  createdById: number | null;
  members: readonly { member: { userId: number }; roles: string[]; role: string }[];
}

/**
 * managerIdsOf returns who a rotation's managers are for its notices: its creator and its members
 * who hold the manager role (administrators count), each once.
 */
export function managerIdsOf(rotation: ManagerFacts): number[] {
  const memberManagers = rotation.members
    .filter((m) => hasRole(effectiveRoles(m.roles, m.role), 'manager'))
    .map((m) => m.member.userId);
  return [
    ...new Set([rotation.createdById, ...memberManagers].filter((id): id is number => id !== null)),
  ];
}

/**
 * notifyOnCallTaken tells the rotation's managers (its creator, and members who are managers or
 * administrators) that someone took the free baton; never the taker themselves.
 */
export async function notifyOnCallTaken(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    handoffId: number;
    rotation: RotationRef & ManagerFacts;
    takerId: number;
    now: Date;
    /** user rows already read in the transaction (the members), not read again */
    known?: readonly UserRow[];
  },
): Promise<void> {
  const candidates = managerIdsOf(event.rotation).filter((id) => id !== event.takerId);
  const people = await loadRecipients(tx, deps.cipher, [event.takerId, ...candidates], event.known);
  const takerName = nameOf(people, event.takerId) ?? 'A member';
  await postHandoff(tx, deps, {
    handoffId: event.handoffId,
    rotation: event.rotation,
    fromName: null,
    toName: takerName,
    notes: null,
    how: 'taken',
    now: event.now,
  });
  if (candidates.length === 0) return;
  await announce(tx, deps, event.now, {
    type: 'baton.taken',
    key: `handoff:${event.handoffId}`,
    at: event.now,
    told: toldAs(
      'to',
      [...new Set(candidates)].map((id) => people.get(id)),
    ),
    rotation: rotationFacts(event.rotation),
    takerName,
  });
}

/**
 * notifyRotationChanged tells a rotation's managers, by email, that someone who does not manage it
 * (an administrator) changed its escalation policy or its members (decision 233): one notice per
 * change (`changeId`, its audit event), naming who changed what. The rotation's managers are
 * read as they were before the change; the actor is never told of their own change.
 */
export async function notifyRotationChanged(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    changeId: number;
    rotation: RotationRef & ManagerFacts;
    actorId: number;
    /** the change, with the names of the people it names read from `people` */
    change: (people: ReadonlyMap<number, User>) => RotationChange;
    /** the people the change names, besides the actor */
    namedIds?: readonly (number | null)[];
    now: Date;
    /** user rows already read in the transaction (the members), not read again */
    known?: readonly UserRow[];
  },
): Promise<void> {
  const managers = managerIdsOf(event.rotation).filter((id) => id !== event.actorId);
  if (managers.length === 0) return;
  const people = await loadRecipients(
    tx,
    deps.cipher,
    [event.actorId, ...managers, ...(event.namedIds ?? [])],
    event.known,
  );
  const actorName = nameOf(people, event.actorId) ?? 'An administrator';
  await announce(tx, deps, event.now, {
    type: 'rotation.changed',
    key: `rotation-change:${event.changeId}`,
    at: event.now,
    told: toldAs(
      'to',
      managers.map((id) => people.get(id)),
    ),
    rotation: rotationFacts(event.rotation),
    actorName,
    change: event.change(people),
  });
}

/** notifyReassigned tells both the new holder and the previous one (if any) of a reassignment. */
export async function notifyReassigned(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    handoffId: number;
    rotation: RotationRef;
    actorId: number;
    fromUserId: number | null;
    toUserId: number;
    notes?: string | null;
    now: Date;
    /** user rows already read in the transaction (the members), not read again */
    known?: readonly UserRow[];
  },
): Promise<void> {
  const people = await loadRecipients(
    tx,
    deps.cipher,
    [event.actorId, event.fromUserId, event.toUserId],
    event.known,
  );
  const actorName = nameOf(people, event.actorId) ?? 'A manager';
  const notes = event.notes || null;
  const receiver = people.get(event.toUserId);
  const movedFrom = event.fromUserId !== null && event.fromUserId !== event.toUserId;
  await announce(tx, deps, event.now, {
    type: 'baton.reassigned',
    key: `handoff:${event.handoffId}`,
    at: event.now,
    told: [
      ...toldAs('to', [receiver]),
      ...toldAs('from', [movedFrom ? people.get(event.fromUserId as number) : undefined]),
    ],
    rotation: rotationFacts(event.rotation),
    actorName,
    previousName: nameOf(people, event.fromUserId),
    nextName: receiver?.name ?? 'another member',
    notes,
  });
  await postHandoff(tx, deps, {
    handoffId: event.handoffId,
    rotation: event.rotation,
    fromName: nameOf(people, event.fromUserId),
    toName: receiver?.name ?? 'A member',
    notes,
    how: 'reassigned',
    now: event.now,
  });
}

/** notifyCoverageRequested asks the covering member, in their time zone. */
export async function notifyCoverageRequested(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    requestId: number;
    rotation: RotationRef;
    requesterId: number;
    coveringUserId: number;
    startAt: Date;
    endAt: Date;
    notes?: string | null;
    now: Date;
  },
): Promise<void> {
  const people = await loadRecipients(tx, deps.cipher, [event.requesterId, event.coveringUserId]);
  await announce(tx, deps, event.now, {
    type: 'coverage.requested',
    key: `coverage:${event.requestId}:requested`,
    at: event.now,
    told: toldAs('to', [people.get(event.coveringUserId)]),
    rotation: rotationFacts(event.rotation),
    requesterName: nameOf(people, event.requesterId) ?? 'The on-call person',
    startAt: event.startAt,
    endAt: event.endAt,
    notes: event.notes || null,
  });
}

/**
 * notifyCoverageOutcome tells the requester that the covering member accepted or declined. Call it
 * in the transaction that records the answer; each outcome is sent once per request.
 */
export async function notifyCoverageOutcome(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    requestId: number;
    rotation: RotationRef;
    requesterId: number;
    coveringUserId: number;
    outcome: 'accepted' | 'declined';
    startAt: Date;
    endAt: Date;
    now: Date;
  },
): Promise<void> {
  const people = await loadRecipients(tx, deps.cipher, [event.requesterId, event.coveringUserId]);
  await announce(tx, deps, event.now, {
    type: `coverage.${event.outcome}`,
    key: `coverage:${event.requestId}:${event.outcome}`,
    at: event.now,
    told: toldAs('to', [people.get(event.requesterId)]),
    rotation: rotationFacts(event.rotation),
    coveringName: nameOf(people, event.coveringUserId) ?? 'The member you asked',
    startAt: event.startAt,
    endAt: event.endAt,
  });
  if (event.outcome === 'accepted') {
    await postCover(tx, deps, {
      ...event,
      coveringName: nameOf(people, event.coveringUserId) ?? 'A teammate',
      coveredName: nameOf(people, event.requesterId) ?? 'a teammate',
    });
  }
}

/** postCover posts cover accepted or arranged to the rotation's destinations, once per request. */
async function postCover(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    requestId: number;
    rotation: RotationRef;
    coveringName: string;
    coveredName: string;
    startAt: Date;
    endAt: Date;
    now: Date;
  },
): Promise<void> {
  await announce(tx, deps, event.now, {
    type: 'cover',
    key: `coverage:${event.requestId}:covered`,
    at: event.now,
    requestId: event.requestId,
    rotation: { id: event.rotation.id, name: event.rotation.name },
    coveringName: event.coveringName,
    coveredName: event.coveredName,
    startAt: event.startAt,
    endAt: event.endAt,
  });
}

/**
 * notifyCoverArranged tells the covering member and the person covered of cover a manager or
 * administrator arranged (decision 218), each in their time zone, once per request. Call it in
 * the transaction that stores it.
 */
export async function notifyCoverArranged(
  tx: Tx,
  deps: NotifyDeps,
  event: {
    requestId: number;
    rotation: RotationRef;
    arrangedById: number;
    requesterId: number;
    coveringUserId: number;
    startAt: Date;
    endAt: Date;
    notes: string | null;
    now: Date;
  },
): Promise<void> {
  const people = await loadRecipients(tx, deps.cipher, [
    event.arrangedById,
    event.requesterId,
    event.coveringUserId,
  ]);
  const facts = {
    arrangerName: nameOf(people, event.arrangedById) ?? 'A manager',
    requesterName: nameOf(people, event.requesterId) ?? 'a teammate',
    coveringName: nameOf(people, event.coveringUserId) ?? 'A teammate',
    startAt: event.startAt,
    endAt: event.endAt,
    notes: event.notes,
  };
  await announce(tx, deps, event.now, {
    type: 'coverage.arranged',
    key: `coverage:${event.requestId}:arranged`,
    at: event.now,
    told: [
      ...toldAs('covering', [people.get(event.coveringUserId)]),
      ...toldAs('requester', [people.get(event.requesterId)]),
    ],
    rotation: rotationFacts(event.rotation),
    ...facts,
  });
  await postCover(tx, deps, {
    ...event,
    coveringName: facts.coveringName,
    coveredName: facts.requesterName,
  });
}
