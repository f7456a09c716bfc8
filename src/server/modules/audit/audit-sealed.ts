import type { FieldCipher } from '../../crypto/field-crypto';

/**
 * Values sealed inside audit events' details (a key inside the jsonb column): the audit trail
 * owns their names and associated data; the modules that write the events seal with them and
 * key rotation re-seals them.
 */

/**
 * The name of a deleted user or invitation, kept in its audit event's details (decision 132):
 * an envelope under `details.targetNameEnc`, bound to (audit_events, target_name, event id).
 */
export const AUDIT_TARGET_NAME = {
  table: 'audit_events',
  field: 'target_name',
  jsonKey: 'targetNameEnc',
} as const;

/** auditTargetNameCtx is the associated data that binds a sealed target name to its event. */
export const auditTargetNameCtx = (eventId: number) => ({
  table: AUDIT_TARGET_NAME.table,
  column: AUDIT_TARGET_NAME.field,
  rowId: eventId,
});

/**
 * The reason a page was escalated, kept in its event's details (decision 163): an envelope under
 * `details.reasonEnc`, bound to (audit_events, reason, event id).
 */
export const AUDIT_REASON = {
  table: 'audit_events',
  field: 'reason',
  jsonKey: 'reasonEnc',
} as const;

/** auditReasonCtx is the associated data that binds a sealed escalation reason to its event. */
export const auditReasonCtx = (eventId: number) => ({
  table: AUDIT_REASON.table,
  column: AUDIT_REASON.field,
  rowId: eventId,
});

/** sealReason seals an escalation reason for its page event's details (decision 163). */
export function sealReason(cipher: FieldCipher, eventId: number, reason: string) {
  return { [AUDIT_REASON.jsonKey]: cipher.encrypt(reason, auditReasonCtx(eventId)) };
}

/** reasonOf returns a page event's escalation reason: the sealed one, or a clear one not yet sealed. */
export function reasonOf(
  event: { id: number; details: Record<string, unknown> | null },
  cipher: FieldCipher,
): string | null {
  const sealed = event.details?.[AUDIT_REASON.jsonKey];
  if (typeof sealed === 'string') return cipher.decrypt(sealed, auditReasonCtx(event.id));
  return typeof event.details?.reason === 'string' ? event.details.reason : null;
}
