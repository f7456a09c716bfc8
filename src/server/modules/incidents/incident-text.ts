import type { FieldCipher } from '../../crypto/field-crypto';
import { sealReason } from '../paging/page-message';

/**
 * An incident's own texts (decision 204): title, description, impact and troubleshooting steps,
 * sealed like a page's message (decision 163), each bound to (pages, <column>, incident id).
 * `keys:rotate` re-seals them (ENCRYPTED_COLUMNS).
 */
export const INCIDENT_TEXT_COLUMNS = {
  title: 'titleEnc',
  description: 'descriptionEnc',
  impact: 'impactEnc',
  troubleshooting: 'troubleshootingEnc',
} as const;

export type IncidentTextField = keyof typeof INCIDENT_TEXT_COLUMNS;

/** incidentTextCtx is the associated data that binds a sealed incident text to its row. */
export const incidentTextCtx = (field: IncidentTextField, incidentId: number) => ({
  table: 'pages',
  column: field,
  rowId: incidentId,
});

/** sealIncidentText seals a text for its column, or null when it is not given. */
export function sealIncidentText(
  cipher: FieldCipher,
  field: IncidentTextField,
  incidentId: number,
  value: string | undefined | null,
): string | null {
  if (value === undefined || value === null || value === '') return null;
  return cipher.encrypt(value, incidentTextCtx(field, incidentId));
}

/** openIncidentText opens a sealed incident text, or null. */
export function openIncidentText(
  cipher: FieldCipher,
  field: IncidentTextField,
  incidentId: number,
  sealed: string | null,
): string | null {
  return sealed === null ? null : cipher.decrypt(sealed, incidentTextCtx(field, incidentId));
}

/**
 * A note's text is sealed as an escalation reason is (decision 205): an envelope under
 * `details.reasonEnc` of its 'incident.note' event, bound to (audit_events, reason, event id).
 * The audit trail's hash leaves exactly that key out (migration 0006), which is what lets
 * keys:rotate re-seal it; a key of its own (`noteEnc`) would need a migration first.
 */
export const sealNote = (cipher: FieldCipher, eventId: number, text: string) =>
  sealReason(cipher, eventId, text);
