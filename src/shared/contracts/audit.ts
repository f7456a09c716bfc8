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

/**
 * The actions of the administrative trail with the words the Audit Log shows for them (one list
 * for the screen, the action filter, the search and the CSV export). A page sent to the backup
 * is not listed: it belongs to the page's history only (decision 130).
 */
export const ADMIN_ACTION_LABELS = {
  'user.invited': 'Invited a user',
  'invitation.deleted': 'Deleted an invitation',
  'user.deleted': 'Deleted a user',
  'user.roles_changed': 'Changed roles',
  'user.time_off_added': 'Recorded time off',
  'user.time_off_removed': 'Removed time off',
  'api_token.created': 'Created an API token',
  'api_token.revoked': 'Revoked an API token',
  'rotation.created': 'Created a rotation',
  'rotation.updated': 'Edited a rotation',
  'rotation.deleted': 'Deleted a rotation',
  'rotation.suspended': 'Suspended a rotation',
  'rotation.activated': 'Activated a rotation',
  'rotation.type_changed': 'Changed rotation type',
  'rotation.member_added': 'Added a member',
  'rotation.member_removed': 'Removed a member',
  'rotation.members_reordered': 'Reordered members',
  'rotation.schedule_added': 'Added a schedule entry',
  'rotation.schedule_deleted': 'Deleted a schedule entry',
  'rotation.schedule_changed': 'Changed a schedule entry',
  'rotation.occurrence_changed': 'Changed one occurrence of a schedule entry',
  'rotation.occurrence_deleted': 'Deleted one occurrence of a schedule entry',
  'page.acknowledged': 'Acknowledged a page',
  'page.escalated': 'Escalated a page',
  'page.resolved': 'Resolved a page',
  'escalation_policy.created': 'Created an escalation policy',
  'escalation_policy.updated': 'Edited an escalation policy',
  'escalation_policy.deleted': 'Deleted an escalation policy',
  'integration.created': 'Created an integration',
  'integration.updated': 'Edited an integration',
  'integration.key_regenerated': 'Regenerated an integration key',
  'integration.deleted': 'Deleted an integration',
  'destination.created': 'Added a chat or webhook destination',
  'destination.updated': 'Edited a chat or webhook destination',
  'destination.deleted': 'Deleted a chat or webhook destination',
  'import.planned': 'Planned an import',
  'import.applied': 'Applied an import',
} as const satisfies Record<string, string>;
export type AdminAction = keyof typeof ADMIN_ACTION_LABELS;
export const ADMIN_ACTIONS = Object.keys(ADMIN_ACTION_LABELS) as AdminAction[];

/** adminActionLabel returns a readable name for an audit trail action such as 'user.invited'. */
export function adminActionLabel(action: string): string {
  const known = (ADMIN_ACTION_LABELS as Record<string, string>)[action];
  if (known) return known;
  const words = action.replace(/[._-]+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : action;
}

/** AdminEventsQuerySchema is the query of GET /api/audit-log/admin-events (and .csv). */
export const AdminEventsQuerySchema = z.object({
  /**
   * matches the actor's name, the target's name or the action (its key or its label), in any
   * case (decision 188)
   */
  search: optionalText('Search', 200, 'Search must be at most 200 characters'),
  /** one action; empty or 'all' means every action */
  action: z
    .union(
      [z.enum(ADMIN_ACTIONS as [AdminAction, ...AdminAction[]]), z.literal('all'), z.literal('')],
      {
        error: 'Action must be one of the actions the trail records',
      },
    )
    .optional()
    .transform((a) => (a && a !== 'all' ? a : undefined)),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(AUDIT_LOG_MAX_LIMIT, `limit must be at most ${AUDIT_LOG_MAX_LIMIT}`)
    .default(AUDIT_LOG_PAGE_SIZE),
  /** events with an id below this one */
  before: idText({ label: 'before', column: 'int8' }).optional(),
});
export type AdminEventsQuery = z.input<typeof AdminEventsQuerySchema>;
export type AdminEventsFilter = Pick<z.output<typeof AdminEventsQuerySchema>, 'search' | 'action'>;

/** AdminEventSchema is one entry of the administrative audit trail. */
export const AdminEventSchema = z.object({
  id: z.number().int(),
  /** who did it; null when the actor's account was deleted or the system acted */
  actor: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** e.g. user.invited, rotation.suspended */
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  /**
   * a readable name for the target: the user's, invitee's or rotation's name (from its deletion
   * when it is gone), or 'Page on <rotation>' for a page
   */
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

/** The columns of the administrative trail's CSV export, in order. */
export const ADMIN_EVENTS_CSV_COLUMNS = [
  'id',
  'time',
  'actor',
  'action',
  'action_label',
  'target_type',
  'target_id',
  'target',
  'details',
] as const;

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
  // Taking the baton when nobody held it, and the first on call of a new rotation (decision 255),
  // have no giver; a null elsewhere is a deleted account.
  const from =
    handoff.fromUser?.name ??
    (handoff.kind === 'take' || handoff.kind === 'start' ? 'no one' : UNKNOWN_PERSON);
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

/** One line of an administrative event's details, as the trail and its CSV show it. */
export interface AdminDetailEntry {
  /** the details key: 'startTime', 'userNames' */
  key: string;
  /** the key in words: 'start time', 'user names' */
  label: string;
  /** the value as text (lists joined with ', '); an instant stays ISO 8601 */
  value: string;
  /** true when the value is an instant, for the screen to show in the viewer's zone */
  instant: boolean;
}

// What the server writes for instants in details: toISOString().
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

/**
 * adminDetailEntries lists an event's details for reading, whole (nothing cut): empty values
 * left out, and a person's id left out where the server put their name beside it (userId and
 * userName: only the name).
 */
export function adminDetailEntries(details: Record<string, unknown>): AdminDetailEntry[] {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .filter(([key]) => !(/Ids?$/.test(key) && key.replace(/Id(s?)$/, 'Name$1') in details))
    .map(([key, value]) => {
      const text = Array.isArray(value)
        ? value.map((v) => (typeof v === 'object' ? JSON.stringify(v) : String(v))).join(', ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value);
      return {
        key,
        label: key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(),
        value: text,
        instant:
          typeof value === 'string' && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value)),
      };
    });
}
