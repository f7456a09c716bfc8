import { z } from 'zod';
import { idText } from './primitives';

/**
 * Contracts of the demo inbox (decision 186): in demo mode, the emails and SMS Baton would have
 * sent by a channel this server has no settings for are kept in the outbox as delivered to the
 * inbox, and shown here, rendered: GET /api/inbox is the signed-in person's own, GET
 * /api/admin/inbox everyone's (administrators). Outside demo mode both answer an empty page with
 * `demoInbox: false`, and nothing is kept: an unconfigured channel stays a visible failure.
 */

/** The inbox shows this many messages at first and this many more per 'Load more'. */
export const INBOX_PAGE_SIZE = 25;
/** The most messages one request may ask for. */
export const INBOX_MAX_LIMIT = 100;

/**
 * DEMO_INBOX_NOTE is the delivery answer recorded on a notification kept in the demo inbox: the
 * outbox view shows it as the provider's answer, and the inbox reads the rows that carry it.
 */
export const DEMO_INBOX_NOTE = 'Kept in the demo inbox';

/** InboxQuerySchema is the query of GET /api/inbox and GET /api/admin/inbox. */
export const InboxQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(INBOX_MAX_LIMIT, `limit must be at most ${INBOX_MAX_LIMIT}`)
    .default(INBOX_PAGE_SIZE),
  /** the nextCursor of the previous page: messages with an id below it */
  before: idText({ label: 'before', column: 'int8' }).optional(),
});
export type InboxQuery = z.input<typeof InboxQuerySchema>;

/** InboxMessageSchema is one message kept in the demo inbox, as its recipient would have had it. */
export const InboxMessageSchema = z.object({
  id: z.number().int(),
  channel: z.enum(['email', 'sms']),
  /** what caused it, e.g. page, handoff.pass, invitation */
  kind: z.string(),
  /** the address or phone number it was for */
  to: z.string(),
  /** the person it was for; null for an address with no account (an invitee) */
  recipient: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  subject: z.string(),
  /** the plain text (for an SMS, the whole message) */
  text: z.string(),
  /** the email's HTML part, if it has one; shown only in a sandboxed frame without scripts */
  html: z.string().nullable(),
  /** when Baton queued it */
  createdAt: z.string(),
  /** when the demo inbox kept it instead of sending it (a digest waits after it is queued) */
  keptAt: z.string(),
});
export type InboxMessage = z.infer<typeof InboxMessageSchema>;

/** InboxPageSchema answers GET /api/inbox and GET /api/admin/inbox, newest first. */
export const InboxPageSchema = z.object({
  /** false outside demo mode: there is no demo inbox, and `messages` is empty */
  demoInbox: z.boolean(),
  messages: z.array(InboxMessageSchema),
  /** pass as `before` for the next page; null when this page is the last */
  nextCursor: z.number().int().nullable(),
});
export type InboxPage = z.infer<typeof InboxPageSchema>;
