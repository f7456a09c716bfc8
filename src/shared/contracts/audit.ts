import { z } from 'zod';
import { idText, text } from './primitives';
import { HANDOFF_STATUSES, type Handoff, HandoffSchema } from './rotations';

/**
 * Contracts of the Audit Log (specification sections 2, 7 and 9): the handoff history, searched
 * and filtered on the server and read page by page, its CSV export, and the administrative trail.
 */

/** The audit log shows this many entries at first and this many more per 'Load more'. */
export const AUDIT_LOG_PAGE_SIZE = 20;
/** The most entries one request may ask for. */
export const AUDIT_LOG_MAX_LIMIT = 100;

const optionalText = (label: string, max: number, message: string) =>
  text({ label })
    .max(max, message)
    .optional()
    .transform((s) => (s?.trim() ? s.trim() : undefined));

/** HandoffHistoryQuerySchema is the query of GET /api/audit-log/handoffs (and .csv). */
export const HandoffHistoryQuerySchema = z.object({
  /** matches rotation name, from-person name or to-person name, case-insensitive */
  search: optionalText('Search', 200, 'Search must be at most 200 characters'),
  /** one of the four statuses; empty or 'all' means every status */
  status: z
    .union([z.enum(HANDOFF_STATUSES), z.literal('all'), z.literal('')], {
      error: `Status must be one of ${HANDOFF_STATUSES.join(', ')}`,
    })
    .optional()
    .transform((s) => (s && s !== 'all' ? s : undefined)),
  /** one rotation's handoffs only (the rotation page's history; decision 187) */
  rotationId: idText({ label: 'rotationId' }).optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(AUDIT_LOG_MAX_LIMIT, `limit must be at most ${AUDIT_LOG_MAX_LIMIT}`)
    .default(AUDIT_LOG_PAGE_SIZE),
  /** the nextCursor of the previous page: entries strictly older than it */
  before: optionalText('before', 200, 'before is not a valid cursor'),
});
export type HandoffHistoryQuery = z.input<typeof HandoffHistoryQuerySchema>;

/** HandoffHistoryPageSchema is one page of the handoff history, newest first. */
export const HandoffHistoryPageSchema = z.object({
  entries: z.array(HandoffSchema),
  /** pass as `before` for the next page; null when this page is the last */
  nextCursor: z.string().nullable(),
});
export type HandoffHistoryPage = z.infer<typeof HandoffHistoryPageSchema>;

/** AdminEventsQuerySchema is the query of GET /api/audit-log/admin-events. */
export const AdminEventsQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(AUDIT_LOG_MAX_LIMIT, `limit must be at most ${AUDIT_LOG_MAX_LIMIT}`)
    .default(AUDIT_LOG_PAGE_SIZE),
  /** events with an id below this one */
  before: idText({ label: 'before', column: 'int8' }).optional(),
});

/** AdminEventSchema is one entry of the administrative audit trail. */
export const AdminEventSchema = z.object({
  id: z.number().int(),
  /** who did it; null when the actor's account was deleted or the system acted */
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** e.g. user.invited, rotation.suspended */
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** a readable name for the target: the user's or rotation's name when it still exists */
  target: z.string(),
  details: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type AdminEvent = z.infer<typeof AdminEventSchema>;

export const AdminEventsPageSchema = z.object({
  events: z.array(AdminEventSchema),
  nextCursor: z.number().int().nullable(),
});
export type AdminEventsPage = z.infer<typeof AdminEventsPageSchema>;

/** The columns of the handoff history CSV export, in order. */
export const HANDOFF_CSV_COLUMNS = [
  'id',
  'time',
  'rotation',
  'from',
  'from_email',
  'to',
  'to_email',
  'status',
  'kind',
  'urgent',
  'acknowledged_at',
  'entry',
  'notes',
] as const;

const STATUS_BADGES: Record<string, string> = {
  success: 'Success',
  acknowledged: 'Acknowledged',
  missed: 'Missed',
  escalated: 'Escalated',
};

/** The name shown for a person missing from a handoff (a deleted account). */
export const UNKNOWN_PERSON = 'Unknown user';

/**
 * describeHandoff returns the audit log's text and badge for a handoff (specification section 2):
 * success 'Baton passed successfully from A to B'; acknowledged 'B acknowledged new on-call duty';
 * missed 'B missed handoff acknowledgment'; escalated 'Handoff to B was escalated'; any other
 * status a plain 'Handoff from A to B' with the raw status as its badge.
 */
export function describeHandoff(
  handoff: Pick<Handoff, 'status' | 'kind' | 'fromUser' | 'toUser'>,
): { text: string; badge: string } {
  // Taking the baton when nobody held it has no giver; a null elsewhere is a deleted account.
  const from = handoff.fromUser?.name ?? (handoff.kind === 'take' ? 'no one' : UNKNOWN_PERSON);
  const to = handoff.toUser?.name ?? UNKNOWN_PERSON;
  const badge = STATUS_BADGES[handoff.status] ?? handoff.status;
  switch (handoff.status) {
    case 'success':
      return { text: `Baton passed successfully from ${from} to ${to}`, badge };
    case 'acknowledged':
      return { text: `${to} acknowledged new on-call duty`, badge };
    case 'missed':
      return { text: `${to} missed handoff acknowledgment`, badge };
    case 'escalated':
      return { text: `Handoff to ${to} was escalated`, badge };
    default:
      return { text: `Handoff from ${from} to ${to}`, badge };
  }
}

/** neutralizeCsvCell prefixes an apostrophe to a cell a spreadsheet would read as a formula. */
export function neutralizeCsvCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}
