import type { FieldCipher } from '../../crypto/field-crypto';

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
