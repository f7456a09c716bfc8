import { isNotNull, sql } from 'drizzle-orm';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { pages } from '../../db/schema';

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
export async function sealClearPageMessages(db: Db, cipher: FieldCipher): Promise<number> {
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
