import { z } from 'zod';
import { instant, text } from './primitives';

/**
 * The bodies monitoring tools send to Baton's inbound alert endpoints (issue 17, decision 208),
 * field for field as their vendors document them, so a tool configured for PagerDuty, Opsgenie,
 * Alertmanager or Grafana reaches Baton by changing only its URL and key. Unknown fields are
 * accepted and ignored (vendors add fields; a sender must not break on an upgrade). Limits are the
 * vendors' own: PagerDuty Events API v2 (summary ≤ 1024 characters, dedup_key ≤ 255), Opsgenie's
 * Alert API (message ≤ 130, alias ≤ 512, description ≤ 15,000, note ≤ 25,000 are refused beyond;
 * entity ≤ 512, source ≤ 100, user ≤ 100, 20 tags of ≤ 50 and details ≤ 8,000 in all are cut, see
 * `clip`). Alertmanager truncates summary, message and description to these limits itself.
 *
 * Free text is built on `text` (primitives.ts): control characters other than tab and line breaks
 * and broken Unicode are refused everywhere, since PostgreSQL cannot store some of them.
 */

export const PAGERDUTY_LIMITS = { summary: 1024, dedupKey: 255, source: 1024 } as const;
export const OPSGENIE_LIMITS = {
  message: 130,
  alias: 512,
  description: 15_000,
  entity: 512,
  source: 100,
  user: 100,
  note: 25_000,
  tags: 20,
  tag: 50,
  detailsTotal: 8_000,
} as const;
/**
 * The longest Opsgenie alias Baton takes: close and acknowledge name the alert by its alias in the
 * URL path, and the router takes a path parameter of at most 100 characters (Fastify's
 * maxParamLength) and answers 414 beyond. A longer alias is refused at create (422), or its
 * alert could never be closed by its source (issue 30, decision 235).
 */
export const OPSGENIE_ALIAS_MAX = 100;

/** What Baton keeps of a label, annotation or field name and of a free-text value it did not limit. */
export const ALERT_KEY_MAX = 1_000;
export const ALERT_VALUE_MAX = 20_000;
/** At most this many alerts in one Alertmanager or Grafana message (Alertmanager's max_alerts). */
export const ALERT_GROUP_MAX = 1_000;

const line = (label: string, max: number) =>
  text({ label, error: `${label} is required`, typeError: `${label} must be text` }).max(
    max,
    `${label} must be at most ${max.toLocaleString('en-US')} characters`,
  );
const para = (label: string, max: number) =>
  text({
    label,
    multiline: true,
    error: `${label} is required`,
    typeError: `${label} must be text`,
  }).max(max, `${label} must be at most ${max.toLocaleString('en-US')} characters`);
const required = (label: string, max: number, multiline = false) =>
  (multiline ? para(label, max) : line(label, max)).refine(
    (s) => s.trim() !== '',
    `${label} must not be empty`,
  );
/**
 * A field a real sender does not limit itself (Alertmanager's Opsgenie receiver sends `source`,
 * `entity`, `tags` and every common label in `details` as they come): cut to the vendor's limit
 * rather than refused, since refusing it would lose the alert.
 */
export function clip(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}
const clipped = (label: string, max: number) =>
  line(label, ALERT_VALUE_MAX).transform((s) => clip(s, max));
const when = (label: string) =>
  instant({ label, message: `${label} must be a date and time (ISO 8601)` });

/** A map of names to text values: Alertmanager's and Grafana's labels and annotations. */
const stringMap = (label: string) =>
  z.record(line(`${label} name`, ALERT_KEY_MAX), para(`${label} value`, ALERT_VALUE_MAX), {
    error: `${label} must be an object of text values`,
  });

/** Any JSON value (custom_details, Opsgenie details values): checked only for being JSON. */
const jsonValue: z.ZodType<unknown> = z.json();

// ---------------------------------------------------------------------------------------------
// PagerDuty Events API v2: POST /v2/enqueue

export const PAGERDUTY_EVENT_ACTIONS = ['trigger', 'acknowledge', 'resolve'] as const;
export type PagerDutyEventAction = (typeof PAGERDUTY_EVENT_ACTIONS)[number];
export const PAGERDUTY_SEVERITIES = ['critical', 'error', 'warning', 'info'] as const;
export type PagerDutySeverity = (typeof PAGERDUTY_SEVERITIES)[number];

export const PagerDutyLinkSchema = z.object({
  href: line('links[].href', 2_048),
  text: line('links[].text', 1_024).optional(),
});
export const PagerDutyImageSchema = z.object({
  src: line('images[].src', 2_048),
  href: line('images[].href', 2_048).optional(),
  alt: line('images[].alt', 1_024).optional(),
});

export const PagerDutyPayloadSchema = z.object(
  {
    summary: required('payload.summary', PAGERDUTY_LIMITS.summary, true),
    source: required('payload.source', PAGERDUTY_LIMITS.source),
    severity: z.enum(PAGERDUTY_SEVERITIES, {
      error: 'payload.severity must be one of critical, error, warning, info',
    }),
    timestamp: when('payload.timestamp').optional(),
    component: line('payload.component', 1_024).optional(),
    group: line('payload.group', 1_024).optional(),
    class: line('payload.class', 1_024).optional(),
    custom_details: jsonValue.optional(),
  },
  { error: 'payload is required: an object with summary, source and severity' },
);

const PAGERDUTY_BASE = {
  routing_key: required('routing_key', 255),
  // On a trigger, an empty dedup_key is read as none: Baton generates one, as PagerDuty does.
  dedup_key: line('dedup_key', PAGERDUTY_LIMITS.dedupKey).optional(),
  client: line('client', 1_024).optional(),
  client_url: line('client_url', 2_048).optional(),
  links: z.array(PagerDutyLinkSchema).max(50, 'links: at most 50').optional(),
  images: z.array(PagerDutyImageSchema).max(50, 'images: at most 50').optional(),
};

/**
 * A PagerDuty event. `trigger` needs a payload; `acknowledge` and `resolve` need the dedup_key of
 * the alert they act on (PagerDuty ignores their payload). A trigger without dedup_key gets one
 * generated, which the answer returns.
 */
export const PagerDutyEventSchema = z.discriminatedUnion(
  'event_action',
  [
    z.object({
      ...PAGERDUTY_BASE,
      event_action: z.literal('trigger'),
      payload: PagerDutyPayloadSchema,
    }),
    z.object({
      ...PAGERDUTY_BASE,
      event_action: z.enum(['acknowledge', 'resolve']),
      dedup_key: required('dedup_key', PAGERDUTY_LIMITS.dedupKey),
      payload: z.unknown().optional(),
    }),
  ],
  { error: 'event_action must be one of trigger, acknowledge, resolve' },
);
export type PagerDutyEvent = z.infer<typeof PagerDutyEventSchema>;

/** PagerDuty's answers: 202 on success, 400 naming each bad field. */
export const PagerDutySuccessSchema = z.object({
  status: z.literal('success'),
  message: z.literal('Event processed'),
  dedup_key: z.string(),
});
export type PagerDutySuccess = z.infer<typeof PagerDutySuccessSchema>;
export interface PagerDutyInvalid {
  status: 'invalid event';
  message: string;
  errors: string[];
}
/** PagerDutyRefusalSchema: every refusal of the PagerDuty endpoint, in PagerDuty's shape. */
export const PagerDutyRefusalSchema = z.object({
  /** 'invalid event' for a 400, 'error' otherwise */
  status: z.string(),
  message: z.string(),
  errors: z.array(z.string()),
  code: z.string(),
});

// ---------------------------------------------------------------------------------------------
// Opsgenie Alert API: POST v2/alerts, POST v2/alerts/{identifier}/close | /acknowledge

export const OPSGENIE_PRIORITIES = ['P1', 'P2', 'P3', 'P4', 'P5'] as const;
export type OpsgeniePriority = (typeof OPSGENIE_PRIORITIES)[number];
export const OPSGENIE_IDENTIFIER_TYPES = ['id', 'alias', 'tiny'] as const;
export type OpsgenieIdentifierType = (typeof OPSGENIE_IDENTIFIER_TYPES)[number];

export const OpsgenieResponderSchema = z.object({
  type: z.enum(['team', 'user', 'escalation', 'schedule'], {
    error: 'responders[].type must be one of team, user, escalation, schedule',
  }),
  id: line('responders[].id', 512).optional(),
  name: line('responders[].name', 512).optional(),
  username: line('responders[].username', 512).optional(),
});

/** Opsgenie keeps 8,000 characters of details in all: later entries are cut, then dropped. */
function clipDetails(details: Record<string, string>): Record<string, string> {
  const kept: Record<string, string> = {};
  let left: number = OPSGENIE_LIMITS.detailsTotal;
  for (const key of Object.keys(details)) {
    const room = left - key.length;
    if (room <= 0) break;
    const value = clip(details[key] ?? '', room);
    kept[key] = value;
    left = room - value.length;
  }
  return kept;
}

export const OpsgenieCreateAlertSchema = z.object({
  message: required('message', OPSGENIE_LIMITS.message, true),
  // An empty alias is read as none: Baton assigns one, as Opsgenie does.
  alias: line('alias', OPSGENIE_LIMITS.alias)
    .refine(
      (alias) => alias.length <= OPSGENIE_ALIAS_MAX,
      `alias must be at most ${OPSGENIE_ALIAS_MAX} characters: Baton closes and acknowledges an alert by its alias in the URL, which holds no more`,
    )
    .optional(),
  description: para('description', OPSGENIE_LIMITS.description).optional(),
  responders: z.array(OpsgenieResponderSchema).max(50, 'responders: at most 50').optional(),
  visibleTo: z.array(OpsgenieResponderSchema).max(50, 'visibleTo: at most 50').optional(),
  actions: z.array(line('actions[]', 50)).max(10, 'actions: at most 10').optional(),
  tags: z
    .array(clipped('tags[]', OPSGENIE_LIMITS.tag))
    .max(100, 'tags: at most 100')
    .transform((tags) => tags.slice(0, OPSGENIE_LIMITS.tags))
    .optional(),
  details: z
    .record(line('details key', ALERT_KEY_MAX), para('details value', ALERT_VALUE_MAX), {
      error: 'details must be an object of text values',
    })
    .transform(clipDetails)
    .optional(),
  entity: clipped('entity', OPSGENIE_LIMITS.entity).optional(),
  source: clipped('source', OPSGENIE_LIMITS.source).optional(),
  priority: z
    .enum(OPSGENIE_PRIORITIES, { error: 'priority must be one of P1, P2, P3, P4, P5' })
    .optional(),
  user: clipped('user', OPSGENIE_LIMITS.user).optional(),
  note: para('note', OPSGENIE_LIMITS.note).optional(),
});
export type OpsgenieCreateAlert = z.infer<typeof OpsgenieCreateAlertSchema>;

/** The body of close and acknowledge (all optional; Alertmanager sends only `source`). */
export const OpsgenieAlertActionSchema = z.object({
  user: clipped('user', OPSGENIE_LIMITS.user).optional(),
  source: clipped('source', OPSGENIE_LIMITS.source).optional(),
  note: para('note', OPSGENIE_LIMITS.note).optional(),
});
export type OpsgenieAlertAction = z.infer<typeof OpsgenieAlertActionSchema>;

/** The query of close and acknowledge: Opsgenie's default identifierType is `id`. */
export const OpsgenieIdentifierQuerySchema = z.object({
  identifierType: z
    .enum(OPSGENIE_IDENTIFIER_TYPES, { error: 'identifierType must be one of id, alias, tiny' })
    .default('id'),
});
export const OpsgenieIdentifierSchema = required('identifier', OPSGENIE_ALIAS_MAX);

/** Opsgenie's answers: 202 `{result, took, requestId}`; errors `{message, errors?, took, requestId}`. */
export const OpsgenieAcceptedSchema = z.object({
  result: z.literal('Request will be processed'),
  took: z.number(),
  requestId: z.string(),
});
export type OpsgenieAccepted = z.infer<typeof OpsgenieAcceptedSchema>;
export const OpsgenieErrorSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
  took: z.number(),
  requestId: z.string(),
});
export type OpsgenieError = z.infer<typeof OpsgenieErrorSchema>;
/** OpsgenieRefusalSchema: every refusal of the Opsgenie endpoints, in Opsgenie's shape. */
export const OpsgenieRefusalSchema = OpsgenieErrorSchema.extend({ code: z.string() });

// ---------------------------------------------------------------------------------------------
// Alertmanager webhook, version 4

export const ALERT_STATUSES = ['firing', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];
const alertStatus = (label: string) =>
  z.enum(ALERT_STATUSES, { error: `${label} must be firing or resolved` });

export const AlertmanagerAlertSchema = z.object({
  status: alertStatus('alerts[].status'),
  labels: stringMap('alerts[].labels'),
  annotations: stringMap('alerts[].annotations').default({}),
  startsAt: when('alerts[].startsAt').optional(),
  endsAt: when('alerts[].endsAt').optional(),
  generatorURL: line('alerts[].generatorURL', 2_048).optional(),
  fingerprint: required('alerts[].fingerprint', 255),
});
export type AlertmanagerAlert = z.infer<typeof AlertmanagerAlertSchema>;

const ALERTMANAGER_GROUP = {
  receiver: line('receiver', ALERT_KEY_MAX).optional(),
  status: alertStatus('status'),
  groupKey: required('groupKey', 4_096, true),
  truncatedAlerts: z
    .number({ error: 'truncatedAlerts must be a number' })
    .int('truncatedAlerts must be a whole number')
    .min(0, 'truncatedAlerts must not be negative')
    .default(0),
  groupLabels: stringMap('groupLabels').default({}),
  commonLabels: stringMap('commonLabels').default({}),
  commonAnnotations: stringMap('commonAnnotations').default({}),
  externalURL: line('externalURL', 2_048).optional(),
};

export const AlertmanagerWebhookSchema = z.object({
  ...ALERTMANAGER_GROUP,
  version: z.literal('4', { error: 'version must be "4" (Alertmanager webhook version 4)' }),
  alerts: z
    .array(AlertmanagerAlertSchema)
    .min(1, 'alerts must hold at least one alert')
    .max(ALERT_GROUP_MAX, `alerts: at most ${ALERT_GROUP_MAX}`),
});
export type AlertmanagerWebhook = z.infer<typeof AlertmanagerWebhookSchema>;

// ---------------------------------------------------------------------------------------------
// Grafana webhook contact point (version "1"): the Alertmanager fields and Grafana's own

export const GrafanaAlertSchema = AlertmanagerAlertSchema.extend({
  dashboardURL: line('alerts[].dashboardURL', 2_048).optional(),
  panelURL: line('alerts[].panelURL', 2_048).optional(),
  silenceURL: line('alerts[].silenceURL', 2_048).optional(),
  imageURL: line('alerts[].imageURL', 2_048).optional(),
  values: z
    .record(line('alerts[].values name', ALERT_KEY_MAX), z.number().nullable(), {
      error: 'alerts[].values must be an object of numbers',
    })
    .nullable()
    .optional(),
  valueString: para('alerts[].valueString', ALERT_VALUE_MAX).optional(),
});
export type GrafanaAlert = z.infer<typeof GrafanaAlertSchema>;

export const GrafanaWebhookSchema = z.object({
  ...ALERTMANAGER_GROUP,
  version: z.literal('1', { error: 'version must be "1" (Grafana webhook version 1)' }),
  orgId: z
    .number({ error: 'orgId must be a number' })
    .int('orgId must be a whole number')
    .optional(),
  title: para('title', ALERT_VALUE_MAX).optional(),
  state: line('state', 100).optional(),
  message: para('message', ALERT_VALUE_MAX).optional(),
  alerts: z
    .array(GrafanaAlertSchema)
    .min(1, 'alerts must hold at least one alert')
    .max(ALERT_GROUP_MAX, `alerts: at most ${ALERT_GROUP_MAX}`),
});
export type GrafanaWebhook = z.infer<typeof GrafanaWebhookSchema>;

// ---------------------------------------------------------------------------------------------
// Generic: JSON or form fields, for scripts and cron jobs

export const GENERIC_LIMITS = { summary: 1024, details: 15_000, dedup: 255 } as const;

export const GenericAlertSchema = z
  .object({
    summary: required('summary', GENERIC_LIMITS.summary, true).optional(),
    details: para('details', GENERIC_LIMITS.details).optional(),
    // `dedup=` from a form is read as none on a trigger; closing needs one.
    dedup: line('dedup', GENERIC_LIMITS.dedup).optional(),
    action: z
      .enum(['trigger', 'close'], { error: 'action must be close (or left out)' })
      .optional(),
  })
  .refine((b) => b.action === 'close' || b.summary !== undefined, {
    path: ['summary'],
    message: 'summary is required',
  })
  .refine((b) => b.action !== 'close' || (b.dedup ?? '').trim() !== '', {
    path: ['dedup'],
    message: 'dedup is required to close an alert',
  });
export type GenericAlert = z.infer<typeof GenericAlertSchema>;

// ---------------------------------------------------------------------------------------------
// What an alert reads as (shared by the normalizers and the alert lists)

/** One row of an alert's details table: labels, annotations, custom details, flattened. */
export const AlertDetailRowSchema = z.object({
  /** where the row comes from: 'Labels', 'Annotations', 'Details', 'Alert e94c744a · Labels' */
  section: z.string(),
  label: z.string(),
  value: z.string(),
});
export type AlertDetailRow = z.infer<typeof AlertDetailRowSchema>;

export const AlertLinkSchema = z.object({ href: z.string(), text: z.string() });
export type AlertLink = z.infer<typeof AlertLinkSchema>;
