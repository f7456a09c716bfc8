import type { FieldCipher } from '../../crypto/field-crypto';
import type { Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { recordAuditEvent } from './audit-events';
import { AUDIT_TARGET_NAME, auditTargetNameCtx } from './audit-sealed';

/** The administrative actions on people that the audit trail records. */
export type PeopleAction =
  | 'user.invited'
  | 'invitation.deleted'
  | 'user.deleted'
  | 'user.roles_changed'
  | 'user.time_off_added'
  | 'user.time_off_removed'
  | 'api_token.created'
  | 'api_token.revoked';

/**
 * recordAdminEvent writes one row of the administrative audit trail, in the caller's transaction.
 * Details hold no personal data in clear. A deletion passes `sealed`: the target's name, which
 * nothing else will keep, is stored in the details as an envelope bound to the event's id (so the
 * id comes from the sequence first), for the trail to show whom it targeted (decision 132).
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
  sealed?: { cipher: FieldCipher; targetName: string },
): Promise<void> {
  let id: number | undefined;
  let details = event.details ?? {};
  if (sealed) {
    [id] = await allocateIds(tx, 'audit_events');
    const envelope = sealed.cipher.encrypt(sealed.targetName, auditTargetNameCtx(id));
    details = { ...details, [AUDIT_TARGET_NAME.jsonKey]: envelope };
  }
  await recordAuditEvent(tx, { ...event, details, id });
}
