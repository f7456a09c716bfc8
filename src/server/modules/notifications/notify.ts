import type { User } from '../../../shared/contracts/users';
import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import { zoneOrUtc } from '../../../shared/domain/time-zones';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import type { MessageContent } from './message-layout';
import { type MessageContext, publicBaseUrl, type RotationRef } from './messages';
import { enqueueNotifications, type NotificationInput } from './outbox';

/**
 * What an event tells whom (decisions 061 and 185), for the events not yet typed (decision 241):
 * the engine's and the services' other rotation notices call sendNotices inside the event's own
 * transaction, with words from messages.ts, so the notifications commit or roll back with it; the
 * event key makes a repeat a no-op. The typed person events (`person-events.ts`) are announced by
 * their sites through `announce`.
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
