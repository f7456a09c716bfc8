import { isNotNull, sql } from 'drizzle-orm';
import type { Severity } from '../../../shared/contracts/incidents';
import type { FieldCipher } from '../../crypto/field-crypto';
import { type Db, selectRows } from '../../db/client';
import { pages } from '../../db/schema';
import { allowAuditReseal } from '../audit/audit-reseal';
import { AUDIT_REASON, auditReasonCtx, sealReason } from '../audit/audit-sealed';

/**
 * The sealed texts of an incident (decisions 163 and 204): the page's message, the incident's own
 * title, description, impact and troubleshooting steps, the escalation reasons and notes in its
 * events' details, and the data step that seals what was stored in clear before decision 163.
 */

/**
 * A page's text is sealed like notifications' content (decision 163): an envelope bound to
 * (pages, message, page id), so it is never in clear in the tables or the write-ahead log.
 */
export const pageMessageCtx = (pageId: number) => ({
  table: 'pages',
  column: 'message',
  rowId: pageId,
});

/** pageMessageOf returns a page's text: the sealed one, or the clear one of a row not yet sealed. */
export function pageMessageOf(
  page: { id: number; messageEnc: string | null; legacyMessage: string | null },
  cipher: FieldCipher,
): string {
  if (page.messageEnc !== null) return cipher.decrypt(page.messageEnc, pageMessageCtx(page.id));
  return page.legacyMessage ?? '';
}

const BATCH = 500;

/**
 * sealClearPageMessages is the data step of migration 0007: it seals the text of pages stored in
 * clear before decision 163 and clears the clear column, in batches of one transaction each.
 * Start-up and `npm run keys:rotate` run it; it returns how many pages it sealed (0 once done).
 */
async function sealClearPageMessages(db: Db, cipher: FieldCipher): Promise<number> {
  let total = 0;
  for (;;) {
    const sealed = await db.transaction(async (tx) => {
      const rows = await tx
        .select({ id: pages.id, message: pages.legacyMessage })
        .from(pages)
        .where(isNotNull(pages.legacyMessage))
        .orderBy(pages.id)
        .limit(BATCH)
        .for('update');
      for (const row of rows) {
        const enc = cipher.encrypt(row.message ?? '', pageMessageCtx(row.id));
        await tx.execute(
          sql`update pages set message_enc = ${enc}, message = null where id = ${row.id}`,
        );
      }
      return rows.length;
    });
    total += sealed;
    if (sealed < BATCH) return total;
  }
}

/**
 * sealClearEscalationReasons seals the reasons page events kept in clear before decision 163
 * (`details.reason` becomes `details.reasonEnc`), in batches of one transaction each.
 */
async function sealClearEscalationReasons(db: Db, cipher: FieldCipher): Promise<number> {
  let total = 0;
  for (;;) {
    const sealed = await db.transaction(async (tx) => {
      // The audit trail is append-only (decision 172): sealing a clear reason is a re-seal, which
      // changes nothing its hash covers.
      await allowAuditReseal(tx);
      const rows = await selectRows<{ id: number; reason: string }>(
        tx,
        sql`select id, details ->> 'reason' as reason from audit_events
            where target_type = 'page' and details ->> 'reason' is not null
            order by id limit ${BATCH} for update`,
      );
      for (const row of rows) {
        const enc = cipher.encrypt(row.reason, auditReasonCtx(Number(row.id)));
        await tx.execute(
          sql`update audit_events
                 set details = (details - 'reason') || jsonb_build_object(${AUDIT_REASON.jsonKey}::text, ${enc}::text)
               where id = ${row.id}`,
        );
      }
      return rows.length;
    });
    total += sealed;
    if (sealed < BATCH) return total;
  }
}

/**
 * sealClearPageContent is migration 0007's data step (decision 163): the page texts and
 * escalation reasons stored in clear before it are sealed. Start-up and keys:rotate run it;
 * it returns how many values it sealed (0 once done).
 */
export async function sealClearPageContent(db: Db, cipher: FieldCipher): Promise<number> {
  return (await sealClearPageMessages(db, cipher)) + (await sealClearEscalationReasons(db, cipher));
}

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

/**
 * incidentFactsOf: what every page of an incident states besides its message: its severity and its
 * description (opened here), as its emails show them (decision 261).
 */
export function incidentFactsOf(
  page: { id: number; severity: string; descriptionEnc: string | null },
  cipher: FieldCipher,
): { severity: Severity; description: string | null } {
  return {
    severity: page.severity as Severity,
    description: openIncidentText(cipher, 'description', page.id, page.descriptionEnc),
  };
}
