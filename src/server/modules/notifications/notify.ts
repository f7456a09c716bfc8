import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { MessageContent } from './message-layout';
import type { NotificationInput } from './outbox';

/**
 * What the event sites share besides `announce` (decision 241): the deps they pass on, the
 * managers of a rotation, and `toInput` for the incident pages' texts, which are not typed events
 * yet (ack tokens, SMS reply codes, a page's id on each row).
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
