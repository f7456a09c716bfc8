import { z } from 'zod';
import { PAGE_MESSAGES, PAGE_STATUSES } from '../domain/paging';
import { FromStepSchema, IncidentSourceSchema } from './incidents';
import { idText, text } from './primitives';
import { URGENCIES } from './rotations';

/** A person as pages name them. */
export const PagePersonSchema = z.object({ id: z.number().int(), name: z.string() });
export type PagePerson = z.infer<typeof PagePersonSchema>;

/** PageEventSchema is one step in a page's history after it was sent. */
export const PageEventSchema = z.object({
  /** reopened: a resolved incident taken back to triggered (decision 261), with its reason */
  kind: z.enum([
    'escalated',
    'acknowledged',
    'resolved',
    'backup_notified',
    'not_delivered',
    'reopened',
  ]),
  at: z.string(),
  /** who did it; null for an automatic escalation or an unknown (deleted) user */
  actor: PagePersonSchema.nullable(),
  /** escalations: from whom to whom, why, and whether the clock did it */
  from: PagePersonSchema.nullable().optional(),
  to: PagePersonSchema.nullable().optional(),
  reason: z.string().nullable().optional(),
  automatic: z.boolean().optional(),
  /** backup_notified: the previous holder, told as backup, until then (null: until acknowledged) */
  until: z.string().nullable().optional(),
  /**
   * acknowledgements: in the app, from the link in the email or SMS, or by replying to the SMS
   * (decision 201); resolutions: `sms` when resolved by an SMS reply
   */
  via: z.enum(['app', 'link', 'sms']).optional(),
  /** acknowledgements and resolutions by an integration (an alert that cleared): its name */
  source: z.string().optional(),
  /**
   * not_delivered (decision 163): a notification about the page to `to` failed for good by this
   * channel, for `reason` (the provider's answer, without personal data); `fallbackChannel` is
   * the channel it was sent by instead, if any; voice: a call nobody answered (decision 252)
   */
  channel: z.enum(['email', 'sms', 'voice']).optional(),
  fallbackChannel: z.enum(['email', 'sms']).nullable().optional(),
});
export type PageEvent = z.infer<typeof PageEventSchema>;

/**
 * PageDeliveryFailureSchema is a notification about a page the viewer sent that failed for good
 * while the page is still open (GET /api/user/page-delivery-failures, decision 163).
 */
export const PageDeliveryFailureSchema = z.object({
  /** the failed notification */
  id: z.number().int(),
  pageId: z.number().int(),
  rotation: z.object({ id: z.number().int(), name: z.string() }),
  to: PagePersonSchema.nullable(),
  channel: z.enum(['email', 'sms', 'voice']),
  reason: z.string(),
  at: z.string(),
  fallbackChannel: z.enum(['email', 'sms']).nullable(),
});
export type PageDeliveryFailure = z.infer<typeof PageDeliveryFailureSchema>;

/** PageSchema is a page as the history and "pages for me" show it, with what the viewer may do. */
export const PageSchema = z.object({
  id: z.number().int(),
  rotation: z.object({ id: z.number().int(), name: z.string() }),
  pagedBy: PagePersonSchema.nullable(),
  /**
   * what raised it: a person (then `pagedBy`, or null once deleted), an integration (issue 17) or
   * Baton itself, as an incident's `raisedBy`
   */
  raisedBy: IncidentSourceSchema,
  /** who was paged first (the holder at the time) */
  firstTarget: PagePersonSchema.nullable(),
  /** who the page is with now (differs from firstTarget after an escalation) */
  target: PagePersonSchema.nullable(),
  message: z.string(),
  urgency: z.enum(URGENCIES),
  status: z.enum(PAGE_STATUSES),
  createdAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  escalatedAt: z.string().nullable(),
  resolvedAt: z.string().nullable(),
  /** the next automatic step, while the page is open */
  reminderAt: z.string().nullable(),
  escalatesAt: z.string().nullable(),
  /** the one-based step of its escalation policy it is at, which an escalation sends back */
  step: z.number().int(),
  events: z.array(PageEventSchema),
  actions: z.object({ acknowledge: z.boolean(), resolve: z.boolean(), escalate: z.boolean() }),
});
export type Page = z.infer<typeof PageSchema>;

/** PageListQuerySchema pages through a rotation's history, newest first. */
export const PageListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** only pages with an id below this (the last id of the previous answer) */
  before: idText({ label: 'before' }).optional(),
});

/** EscalatePageInputSchema is the body of POST /api/pages/{id}/escalate. */
export const EscalatePageInputSchema = z.object({
  reason: text({
    label: 'Reason',
    multiline: true,
    trim: true,
    error: PAGE_MESSAGES.reasonRequired,
  })
    .min(1, PAGE_MESSAGES.reasonRequired)
    .max(500, 'Keep the reason under 500 characters'),
  /** the page's `step` as the person saw it (decision 236); optional for older clients */
  fromStep: FromStepSchema,
});
export type EscalatePageInput = z.input<typeof EscalatePageInputSchema>;

/** AckLinkSchema is what an acknowledgement link shows before and after it is used (no sign-in). */
export const AckLinkSchema = z.object({
  state: z.enum(['open', 'acknowledged', 'resolved', 'expired']),
  expiresAt: z.string(),
  page: z.object({
    rotationName: z.string(),
    message: z.string(),
    urgency: z.enum(URGENCIES),
    pagedByName: z.string().nullable(),
    recipientName: z.string().nullable(),
    createdAt: z.string(),
    acknowledgedAt: z.string().nullable(),
    resolvedAt: z.string().nullable(),
  }),
});
export type AckLink = z.infer<typeof AckLinkSchema>;
