import { effectiveRoles, hasRole } from '../../../shared/domain/roles';
import type { FieldCipher } from '../../crypto/field-crypto';

/**
 * What the event sites share besides `announce` (decision 241): the deps they pass on and the
 * managers of a rotation.
 */

/** What the notify functions need: the cipher and, for links, the configuration. */
export interface NotifyDeps {
  cipher: FieldCipher;
  /**
   * PUBLIC_URL and PORT for links; the app's deps carry it (absent: http://localhost:3000); and
   * whether Twilio's auth token is set, for SMS reply codes (decision 201)
   */
  config?: {
    publicUrl?: string;
    port?: number;
    /** and whether Twilio is configured, for calls (decision 252) */
    sms?: { accountSid?: string; authToken?: string; from?: string };
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
