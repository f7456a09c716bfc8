import type { Tx } from '../../db/client';
import { auditEvents } from '../../db/schema';

/** The administrative actions on people that the audit trail records. */
export type PeopleAction =
  | 'user.invited'
  | 'invitation.deleted'
  | 'user.deleted'
  | 'user.roles_changed';

/**
 * recordAdminEvent writes one row of the administrative audit trail, in the caller's transaction.
 * Details hold no personal data in clear (names and emails are encrypted elsewhere).
 */
export async function recordAdminEvent(
  tx: Tx,
  event: {
    actorUserId: number;
    action: PeopleAction;
    targetType: 'user' | 'invitation';
    targetId: number;
    details?: Record<string, unknown>;
    at: Date;
  },
): Promise<void> {
  await tx.insert(auditEvents).values({
    actorUserId: event.actorUserId,
    action: event.action,
    targetType: event.targetType,
    targetId: String(event.targetId),
    details: event.details ?? {},
    createdAt: event.at,
  });
}
