import { and, desc, eq, lt } from 'drizzle-orm';
import {
  DEMO_INBOX_NOTE,
  type InboxMessage,
  type InboxPage,
  type InboxQuerySchema,
} from '../../../shared/contracts/inbox';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db } from '../../db/client';
import { notifications } from '../../db/schema';
import { loadPeople } from '../audit/audit-repository';
import { decryptContent } from './outbox';

/**
 * The demo inbox (decision 186) is a view of the outbox: the notifications a demo server kept
 * instead of sending (status sent, answer DEMO_INBOX_NOTE), read from their sealed content. It
 * copies nothing, so what it shows is exactly what the recipient would have been sent.
 */

export interface InboxFilter {
  /** one person's messages; undefined: everyone's */
  userId?: number;
  /** hides what belongs to the recipient alone (acknowledgement links) from someone else */
  redact?: (text: string) => string;
}

/** listInbox reads one page of kept messages, newest first, in two queries. */
export async function listInbox(
  db: Db,
  cipher: FieldCipher,
  query: ReturnType<typeof InboxQuerySchema.parse>,
  filter: InboxFilter,
): Promise<InboxPage> {
  // One row more than asked tells whether another page exists.
  const rows = await db
    .select()
    .from(notifications)
    .where(
      and(
        eq(notifications.status, 'sent'),
        eq(notifications.providerResponse, DEMO_INBOX_NOTE),
        filter.userId === undefined ? undefined : eq(notifications.userId, filter.userId),
        query.before === undefined ? undefined : lt(notifications.id, query.before),
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(query.limit + 1);
  const shown = rows.slice(0, query.limit);
  const people = await loadPeople(
    db,
    cipher,
    shown.map((row) => row.userId),
  );
  const redact = filter.redact ?? ((text: string) => text);
  const messages = shown.map((row): InboxMessage => {
    const content = decryptContent(row, cipher);
    const person = row.userId === null ? undefined : people.get(row.userId);
    return {
      id: row.id,
      channel: row.channel === 'sms' ? 'sms' : 'email',
      kind: row.kind,
      to: content.to,
      recipient: person ? { id: person.id, name: person.name } : null,
      subject: content.subject,
      text: redact(content.text),
      html: content.html ? redact(content.html) : null,
      createdAt: row.createdAt.toISOString(),
      keptAt: (row.sentAt ?? row.createdAt).toISOString(),
    };
  });
  const last = shown[shown.length - 1];
  return {
    demoInbox: true,
    messages,
    nextCursor: rows.length > query.limit && last ? last.id : null,
  };
}
