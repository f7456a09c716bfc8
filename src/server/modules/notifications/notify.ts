import { inArray } from 'drizzle-orm';
import type { User } from '../../../shared/contracts/users';
import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { toUser, type UserRow } from '../users/user-repository';
import {
  batonPassedMessage,
  coverageOutcomeMessage,
  coverageRequestedMessage,
  invitationEmail,
  type MessageContent,
  onCallTakenMessage,
  publicBaseUrl,
  type RotationRef,
  reassignedAwayMessage,
  reassignedToYouMessage,
} from './messages';
import { enqueueNotifications, type NotificationInput } from './outbox';

/**
 * What an event tells whom (decision 061). Each function is called inside the event's own
 * transaction, so the notifications commit or roll back with it; the event key makes a repeat a
 * no-op. The service modules call these; the words live in messages.ts.
 */

/** What the notify functions need: the cipher and, for links, the configuration. */
export interface NotifyDeps {
  cipher: FieldCipher;
  /** PUBLIC_URL and PORT for links; the app's deps carry it (absent: http://localhost:3000) */
  config?: { publicUrl?: string; port?: number };
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

const nameOf = (people: Map<number, User>, id: number | null) =>
  id === null ? null : (people.get(id)?.name ?? null);

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
  const receiver = people.get(event.toUserId);
  if (!receiver) return;
  const content = batonPassedMessage({
    baseUrl: publicBaseUrl(deps.config),
    rotation: event.rotation,
    fromName: nameOf(people, event.fromUserId) ?? 'The previous holder',
    notes: event.notes || null,
    urgent: event.urgent,
  });
  await enqueueNotifications(tx, deps.cipher, event.now, [
    toInput(`handoff:${event.handoffId}`, 'baton.passed', receiver, content),
  ]);
}

/** The rotation facts that decide who manages it: the creator and the members with their roles. */
export interface ManagerFacts {
  createdById: number | null;
  members: readonly { member: { userId: number }; roles: string[]; role: string }[];
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
  const memberManagers = event.rotation.members
    .filter((m) => hasRole(effectiveRoles(m.roles, m.role), 'manager'))
    .map((m) => m.member.userId);
  const candidates = [event.rotation.createdById, ...memberManagers].filter(
    (id): id is number => id !== null && id !== event.takerId,
  );
  if (candidates.length === 0) return;
  const people = await loadRecipients(tx, deps.cipher, [event.takerId, ...candidates], event.known);
  const takerName = nameOf(people, event.takerId) ?? 'A member';
  const content = onCallTakenMessage({
    baseUrl: publicBaseUrl(deps.config),
    rotation: event.rotation,
    takerName,
  });
  const inputs = [...new Set(candidates)]
    .map((id) => people.get(id))
    .filter((u): u is User => u !== undefined)
    .map((u) => toInput(`handoff:${event.handoffId}`, 'baton.taken', u, content));
  await enqueueNotifications(tx, deps.cipher, event.now, inputs);
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
  const baseUrl = publicBaseUrl(deps.config);
  const actorName = nameOf(people, event.actorId) ?? 'A manager';
  const notes = event.notes || null;
  const inputs: NotificationInput[] = [];
  const receiver = people.get(event.toUserId);
  if (receiver) {
    inputs.push(
      toInput(
        `handoff:${event.handoffId}`,
        'baton.reassigned',
        receiver,
        reassignedToYouMessage({
          baseUrl,
          rotation: event.rotation,
          actorName,
          previousName: nameOf(people, event.fromUserId),
          notes,
        }),
      ),
    );
  }
  const previous = event.fromUserId === null ? undefined : people.get(event.fromUserId);
  if (previous && previous.id !== event.toUserId) {
    inputs.push(
      toInput(
        `handoff:${event.handoffId}`,
        'baton.reassigned',
        previous,
        reassignedAwayMessage({
          baseUrl,
          rotation: event.rotation,
          actorName,
          nextName: receiver?.name ?? 'another member',
          notes,
        }),
      ),
    );
  }
  await enqueueNotifications(tx, deps.cipher, event.now, inputs);
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
  const covering = people.get(event.coveringUserId);
  if (!covering) return;
  const content = coverageRequestedMessage({
    baseUrl: publicBaseUrl(deps.config),
    rotation: event.rotation,
    requesterName: nameOf(people, event.requesterId) ?? 'The on-call person',
    startAt: event.startAt,
    endAt: event.endAt,
    notes: event.notes || null,
    timeZone: covering.timezone,
  });
  await enqueueNotifications(tx, deps.cipher, event.now, [
    toInput(`coverage:${event.requestId}:requested`, 'coverage.requested', covering, content),
  ]);
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
  const requester = people.get(event.requesterId);
  if (!requester) return;
  const content = coverageOutcomeMessage({
    baseUrl: publicBaseUrl(deps.config),
    rotation: event.rotation,
    coveringName: nameOf(people, event.coveringUserId) ?? 'The member you asked',
    outcome: event.outcome,
    startAt: event.startAt,
    endAt: event.endAt,
    timeZone: requester.timezone,
  });
  await enqueueNotifications(tx, deps.cipher, event.now, [
    toInput(
      `coverage:${event.requestId}:${event.outcome}`,
      `coverage.${event.outcome}`,
      requester,
      content,
    ),
  ]);
}

/**
 * notifyInvitation emails the invitation link to the invitee (who has no account yet, so email
 * only), once per invitation. Call it in the transaction that stores the invitation.
 */
export async function notifyInvitation(
  tx: Db | Tx,
  deps: NotifyDeps,
  event: {
    invitationId: number;
    name: string;
    email: string;
    role: string;
    expiresAt: Date;
    link: string;
    inviterName?: string | null;
    now: Date;
  },
): Promise<void> {
  const content = invitationEmail(
    { name: event.name, email: event.email, role: event.role, expiresAt: event.expiresAt },
    event.link,
    { inviterName: event.inviterName, baseUrl: publicBaseUrl(deps.config) },
  );
  await enqueueNotifications(tx, deps.cipher, event.now, [
    toInput(
      `invitation:${event.invitationId}`,
      'invitation',
      { id: null, email: event.email, phone: null, notificationPreference: 'email' },
      content,
      { emailOnly: true },
    ),
  ]);
}
