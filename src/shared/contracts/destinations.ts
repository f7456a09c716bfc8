import { z } from 'zod';
import { id, idText, text } from './primitives';

/**
 * Destinations (issue 19, decision 221): where Baton posts what happens in a rotation, an
 * escalation policy or an integration: a chat webhook (Slack, Mattermost, Discord, Microsoft
 * Teams Workflows) or a signed generic webhook. The field names and event names are the issue's.
 */

export const DESTINATION_KINDS = ['slack', 'mattermost', 'discord', 'teams', 'webhook'] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];

export const DESTINATION_KIND_LABELS: Record<DestinationKind, string> = {
  slack: 'Slack',
  mattermost: 'Mattermost',
  discord: 'Discord',
  teams: 'Microsoft Teams',
  webhook: 'Webhook',
};

export const DESTINATION_EVENTS = [
  'handoff',
  'cover',
  'incident.raised',
  'incident.acknowledged',
  'incident.escalated',
  'incident.resolved',
  'time-off',
  'shift-moved',
  'digest',
] as const;
export type DestinationEvent = (typeof DESTINATION_EVENTS)[number];

export const DESTINATION_EVENT_LABELS: Record<DestinationEvent, string> = {
  handoff: 'Handoffs',
  cover: 'Cover accepted',
  'incident.raised': 'Incident raised',
  'incident.acknowledged': 'Incident acknowledged',
  'incident.escalated': 'Incident escalated',
  'incident.resolved': 'Incident resolved',
  'time-off': 'Time off',
  'shift-moved': 'Shift moved',
  digest: 'Daily digest: on call today and this week',
};

/** The events a signed webhook carries (the digest is a chat message only). */
export const WEBHOOK_EVENT_TYPES = [
  'handoff',
  'cover',
  'incident.raised',
  'incident.acknowledged',
  'incident.escalated',
  'incident.resolved',
  'time-off',
  'shift-moved',
] as const;

export const DESTINATION_URL_MAX = 2000;

export const DESTINATION_MESSAGES = {
  notFound: 'Destination not found',
  kind: 'Choose Slack, Mattermost, Discord, Microsoft Teams or Webhook',
  urlRequired: 'Enter the webhook URL',
  urlInvalid: 'Enter the webhook URL, starting with https://',
  urlTooLong: `Keep the URL under ${DESTINATION_URL_MAX} characters`,
  urlHttps:
    'The webhook URL must start with https:// (http:// is accepted only for a loopback address outside production)',
  urlInsideNetwork:
    'Baton posts only to public addresses; an administrator can allow a private range with DESTINATION_ALLOWED_CIDRS',
  urlHostNotFound: 'The webhook URL’s host name was not found: check the URL',
  where: 'Choose the rotation, escalation policy or integration this destination belongs to',
  onlyOne: 'Choose one of a rotation, an escalation policy or an integration',
  eventsRequired: 'Choose at least one event to post',
  eventUnknown: `Events are any of ${DESTINATION_EVENTS.join(', ')}`,
  digestOnlyChat: 'A webhook does not take the daily digest: choose it for a chat destination',
  digestTime: 'The daily digest needs a time (HH:MM) and a time zone',
  digestTimeFormat: 'Enter the digest time as HH:MM, such as 09:00',
  timeZone: 'Choose a known time zone, such as Europe/London',
  nothingToChange: 'Nothing to change',
  mayNotView: 'You can only view the destinations of your rotations.',
  mayNotManage:
    'Only the rotation’s managers and administrators can add, change, test or delete its chat and webhook destinations.',
  rotationNotFound: 'Rotation not found',
  policyNotFound: 'Escalation policy not found',
  integrationNotFound: 'Integration not found',
} as const;

const url = text({ label: 'URL', trim: true, error: DESTINATION_MESSAGES.urlRequired })
  .min(1, DESTINATION_MESSAGES.urlRequired)
  .max(DESTINATION_URL_MAX, DESTINATION_MESSAGES.urlTooLong)
  .pipe(z.url({ protocol: /^https?$/, error: DESTINATION_MESSAGES.urlInvalid }));

const events = z
  .array(z.enum(DESTINATION_EVENTS, { error: DESTINATION_MESSAGES.eventUnknown }), {
    error: DESTINATION_MESSAGES.eventsRequired,
  })
  .min(1, DESTINATION_MESSAGES.eventsRequired)
  .max(DESTINATION_EVENTS.length)
  .transform((list) => [...new Set(list)]);

const digestTime = z
  .string({ error: DESTINATION_MESSAGES.digestTimeFormat })
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, DESTINATION_MESSAGES.digestTimeFormat);

const digestTimeZone = text({ label: 'Time zone' })
  .min(1, DESTINATION_MESSAGES.timeZone)
  .max(100, DESTINATION_MESSAGES.timeZone)
  .refine(isKnownZone, DESTINATION_MESSAGES.timeZone);

function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** digestProblem names what is wrong with a destination's digest settings, if anything. */
function digestProblem(
  value: {
    kind?: DestinationKind;
    events?: string[];
    digestTime?: string | null;
    digestTimeZone?: string | null;
  },
  ctx: z.RefinementCtx,
): void {
  if (!value.events?.includes('digest')) return;
  if (value.kind === 'webhook') {
    ctx.addIssue({
      code: 'custom',
      path: ['events'],
      message: DESTINATION_MESSAGES.digestOnlyChat,
    });
  }
  if (!value.digestTime) {
    ctx.addIssue({
      code: 'custom',
      path: ['digestTime'],
      message: DESTINATION_MESSAGES.digestTime,
    });
  }
  if (!value.digestTimeZone) {
    ctx.addIssue({
      code: 'custom',
      path: ['digestTimeZone'],
      message: DESTINATION_MESSAGES.digestTime,
    });
  }
}

/**
 * POST /api/destinations: `{ kind, url, rotationId | escalationPolicyId | integrationId, events }`,
 * with `digestTime` and `digestTimeZone` when `events` has `digest`.
 */
export const DestinationInputSchema = z
  .object({
    kind: z.enum(DESTINATION_KINDS, { error: DESTINATION_MESSAGES.kind }),
    url,
    rotationId: id({ label: 'rotationId' }).optional(),
    escalationPolicyId: id({ label: 'escalationPolicyId' }).optional(),
    integrationId: id({ label: 'integrationId' }).optional(),
    events,
    digestTime: digestTime.nullable().optional(),
    digestTimeZone: digestTimeZone.nullable().optional(),
  })
  .superRefine((value, ctx) => {
    const targets = [value.rotationId, value.escalationPolicyId, value.integrationId].filter(
      (v) => v !== undefined,
    );
    if (targets.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['rotationId'], message: DESTINATION_MESSAGES.where });
    } else if (targets.length > 1) {
      ctx.addIssue({ code: 'custom', path: ['rotationId'], message: DESTINATION_MESSAGES.onlyOne });
    }
    digestProblem(value, ctx);
  });
export type DestinationInput = z.infer<typeof DestinationInputSchema>;

/**
 * PATCH /api/destinations/{id}: any of the URL, the events and the digest's time and zone (not
 * its kind or where it belongs). The digest rule is checked against the stored values too.
 */
export const DestinationChangeSchema = z
  .object({
    url: url.optional(),
    events: events.optional(),
    digestTime: digestTime.nullable().optional(),
    digestTimeZone: digestTimeZone.nullable().optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: DESTINATION_MESSAGES.nothingToChange,
  });
export type DestinationChange = z.infer<typeof DestinationChangeSchema>;

/** checkDigest applies the digest rule to a destination as it would be after a change. */
export const DestinationDigestSchema = z
  .object({
    kind: z.enum(DESTINATION_KINDS),
    events: z.array(z.string()),
    digestTime: z.string().nullable(),
    digestTimeZone: z.string().nullable(),
  })
  .superRefine(digestProblem);

/** GET /api/destinations: all the viewer may see, or one rotation's, policy's or integration's. */
export const DestinationListQuerySchema = z.object({
  rotationId: idText({ label: 'rotationId' }).optional(),
  escalationPolicyId: idText({ label: 'escalationPolicyId' }).optional(),
  integrationId: idText({ label: 'integrationId' }).optional(),
  kind: z.enum(DESTINATION_KINDS, { error: DESTINATION_MESSAGES.kind }).optional(),
});

/** DestinationSchema is a destination as the API answers it. */
export const DestinationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(DESTINATION_KINDS),
  /** the URL's host and its last four characters: the URL itself is a credential, never shown */
  urlHint: z.string(),
  rotationId: z.number().int().nullable(),
  escalationPolicyId: z.number().int().nullable(),
  integrationId: z.number().int().nullable(),
  /** the rotation's, policy's or integration's name */
  targetName: z.string().nullable(),
  events: z.array(z.enum(DESTINATION_EVENTS)),
  digestTime: z.string().nullable(),
  digestTimeZone: z.string().nullable(),
  /** the first failed delivery of the current run of failures; null while deliveries succeed */
  failingSince: z.string().nullable(),
  lastDeliveredAt: z.string().nullable(),
  createdAt: z.string(),
  canManage: z.boolean(),
});
export type Destination = z.infer<typeof DestinationSchema>;

/** The answer of POST: the destination and, for a webhook, its signing secret, shown this once. */
export const DestinationCreatedSchema = DestinationSchema.extend({ secret: z.string().optional() });
export type DestinationCreated = z.infer<typeof DestinationCreatedSchema>;

export const DestinationListSchema = z.object({ destinations: z.array(DestinationSchema) });
export type DestinationList = z.infer<typeof DestinationListSchema>;

/** One message of a destination's delivery log. */
export const DestinationDeliverySchema = z.object({
  id: z.number().int(),
  /** the event: handoff, incident.raised, … test, digest */
  event: z.string(),
  /** pending (waiting or retrying), sent, failed */
  status: z.enum(['pending', 'sending', 'sent', 'failed']),
  attempts: z.number().int(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  /** why the last attempt failed, in Baton's fixed words ("The destination answered 503") */
  lastError: z.string().nullable(),
  /**
   * the receiver's status as Baton words it ("HTTP 204"), never its body (decision 234); null
   * when it did not answer or the message failed (the reason is in lastError)
   */
  response: z.string().nullable(),
});
export type DestinationDelivery = z.infer<typeof DestinationDeliverySchema>;

export const DestinationDeliveryListSchema = z.object({
  deliveries: z.array(DestinationDeliverySchema),
});
export type DestinationDeliveryList = z.infer<typeof DestinationDeliveryListSchema>;

/** POST /api/destinations/{id}/test: the queued test message. */
export const DestinationTestResultSchema = z.object({ deliveryId: z.number().int() });
export type DestinationTestResult = z.infer<typeof DestinationTestResultSchema>;

/** The delivery log's page size (newest first). */
export const DELIVERY_LOG_SIZE = 50;
