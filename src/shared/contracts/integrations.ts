import { z } from 'zod';
import { AlertDetailRowSchema, AlertLinkSchema } from './alerts';
import { SEVERITIES } from './incidents';
import { id, idText, text } from './primitives';

/**
 * Integrations (issue 17, decisions 209 and 210): a named key by which a monitoring tool raises
 * incidents on a rotation's policy, or on an escalation policy alone. The key is shown once, when
 * made or regenerated, and stored only as a hash. The field names the issue fixes keep its words
 * (`name`, `rotationId`, `escalationPolicyId`, `key`).
 */

export const INTEGRATION_NAME_MAX = 100;
/** new incidents an integration raises in a minute before further alerts fold into a storm */
export const STORM_LIMIT_DEFAULT = 20;
export const STORM_LIMIT_MAX = 10_000;
/** inbound requests a second one key may make before it is answered 429 */
export const RATE_LIMIT_DEFAULT = 50;
export const RATE_LIMIT_MAX = 10_000;
/** the largest inbound alert body, in bytes (larger: 413) */
export const ALERT_BODY_MAX = 512 * 1024;
/** the most of a raw payload kept with an alert (the rest is cut, and the alert says so) */
export const ALERT_PAYLOAD_KEEP = 64 * 1024;
/** What an alert whose raw payload was dropped shows in its place (decision 232). */
export const ALERT_PAYLOAD_DROPPED =
  'Raw payload no longer kept: Baton drops it some time after the incident is resolved. The summary, details and links stay.';
export const SIGNING_SECRET_MAX = 200;

/** The formats an alert arrives in ('test': the screen's "Send test alert"). */
export const ALERT_FORMATS = [
  'pagerduty',
  'opsgenie',
  'alertmanager',
  'grafana',
  'generic',
  'email',
  'test',
] as const;
export type AlertFormat = (typeof ALERT_FORMATS)[number];
export const ALERT_FORMAT_LABELS: Record<AlertFormat, string> = {
  pagerduty: 'PagerDuty Events v2',
  opsgenie: 'Opsgenie Alert API',
  alertmanager: 'Alertmanager webhook',
  grafana: 'Grafana webhook',
  generic: 'Generic',
  email: 'Email',
  test: 'Test alert',
};

/**
 * The tool an integration is for (decision 260): every format an alert arrives in but the screen's
 * test. It chooses the configuration shown first and the settings that matter; the key is taken
 * on every endpoint whatever the source, so a wrong choice refuses nothing.
 */
export const INTEGRATION_SOURCES = [
  'alertmanager',
  'grafana',
  'pagerduty',
  'opsgenie',
  'email',
  'generic',
] as const satisfies readonly Exclude<AlertFormat, 'test'>[];
export type IntegrationSource = (typeof INTEGRATION_SOURCES)[number];
export const INTEGRATION_SOURCE_LABELS: Record<IntegrationSource, string> = {
  alertmanager: 'Alertmanager',
  grafana: 'Grafana',
  pagerduty: 'PagerDuty format',
  opsgenie: 'Opsgenie format',
  email: 'Email',
  generic: 'Generic',
};
/** What an integration made without a source is for: any tool, by the generic endpoint. */
export const INTEGRATION_SOURCE_DEFAULT: IntegrationSource = 'generic';

/** How an Alertmanager or Grafana message becomes incidents: one per group key, or per alert. */
export const ALERT_GROUPINGS = ['group', 'fingerprint'] as const;
/** How email becomes incidents: messages with the same subject are one, or every message its own. */
export const EMAIL_DEDUPS = ['subject', 'message'] as const;
/** The urgency an integration's incidents take; 'severity': P1 and P2 high, P3 low. */
export const INTEGRATION_URGENCIES = ['severity', 'high', 'low'] as const;

export const INTEGRATION_MESSAGES = {
  notFound: 'Integration not found',
  nameRequired: 'Enter a name',
  nameTooLong: `Keep the name under ${INTEGRATION_NAME_MAX} characters`,
  where: 'Choose the rotation or the escalation policy this integration’s incidents follow',
  both: 'Choose a rotation or an escalation policy, not both',
  mayNotView: 'You can only view the integrations of your rotations.',
  mayNotManage:
    'Only the rotation’s managers and administrators can create, change or delete its integrations.',
  rotationNotFound: 'Rotation not found',
  policyNotFound: 'Escalation policy not found',
  signingSecretLength: `Keep the signing secret between 8 and ${SIGNING_SECRET_MAX} characters`,
  nothingToChange: 'Nothing to change',
  severity: 'Severity must be P1, P2 or P3',
  // Inbound: what a sender with a wrong key reads (nothing is written)
  keyMissing:
    'No integration key: send it as the routing_key, as Authorization: GenieKey <key> or Bearer <key>, or as ?token=<key>.',
  keyUnknown:
    'Unknown integration key: it may have been regenerated or its integration deleted. Copy the current key from the integration in Baton.',
  rateLimited: (perSecond: number) =>
    `Too many alerts: this integration accepts ${perSecond} requests a second. Retry after the time in Retry-After.`,
  tooLarge: `The alert body is larger than ${ALERT_BODY_MAX / 1024} kB.`,
  signatureRequired:
    'This integration has a signing secret: the request must carry Grafana’s X-Grafana-Alerting-Signature and X-Grafana-Alerting-Timestamp headers.',
  signatureWrong:
    'The request’s signature does not match this integration’s signing secret, or its timestamp is more than 5 minutes away from Baton’s clock.',
  signedOnly:
    'This integration has a signing secret: its key is accepted only with Grafana’s signature, at /api/alerts/grafana. Remove the secret to use the key on other endpoints or by email.',
  keyGuesses: (seconds: number) =>
    `Too many wrong integration keys from this address: try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`,
  mayNotViewAlerts: 'You can only view the alerts of the integrations of your rotations.',
} as const;

const name = text({ label: 'Name', trim: true, error: INTEGRATION_MESSAGES.nameRequired })
  .min(1, INTEGRATION_MESSAGES.nameRequired)
  .max(INTEGRATION_NAME_MAX, INTEGRATION_MESSAGES.nameTooLong);

const settings = {
  source: z.enum(INTEGRATION_SOURCES),
  grouping: z.enum(ALERT_GROUPINGS),
  emailDedup: z.enum(EMAIL_DEDUPS),
  urgency: z.enum(INTEGRATION_URGENCIES),
  stormLimit: z.number().int().min(1).max(STORM_LIMIT_MAX),
  rateLimit: z.number().int().min(1).max(RATE_LIMIT_MAX),
  /** Grafana's HMAC secret; null removes it */
  signingSecret: text({ label: 'Signing secret' })
    .min(8, INTEGRATION_MESSAGES.signingSecretLength)
    .max(SIGNING_SECRET_MAX, INTEGRATION_MESSAGES.signingSecretLength)
    .nullable(),
};

/** POST /api/integrations: `{ name, rotationId }` or `{ name, escalationPolicyId }`. */
export const IntegrationInputSchema = z
  .object({
    name,
    rotationId: id({ label: 'rotationId' }).optional(),
    escalationPolicyId: id({ label: 'escalationPolicyId' }).optional(),
    source: settings.source.optional(),
    grouping: settings.grouping.optional(),
    emailDedup: settings.emailDedup.optional(),
    urgency: settings.urgency.optional(),
    stormLimit: settings.stormLimit.optional(),
    rateLimit: settings.rateLimit.optional(),
    signingSecret: settings.signingSecret.optional(),
  })
  .superRefine((value, ctx) => {
    // Named on a field, as the incident form's: the screen shows it beside the choice.
    if (value.rotationId === undefined && value.escalationPolicyId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['rotationId'], message: INTEGRATION_MESSAGES.where });
    }
    if (value.rotationId !== undefined && value.escalationPolicyId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['escalationPolicyId'],
        message: INTEGRATION_MESSAGES.both,
      });
    }
  });
export type IntegrationInput = z.infer<typeof IntegrationInputSchema>;

/** PATCH /api/integrations/{id}: any of the name and settings (not where it routes). */
export const IntegrationChangeSchema = z
  .object({
    name: name.optional(),
    source: settings.source.optional(),
    grouping: settings.grouping.optional(),
    emailDedup: settings.emailDedup.optional(),
    urgency: settings.urgency.optional(),
    stormLimit: settings.stormLimit.optional(),
    rateLimit: settings.rateLimit.optional(),
    signingSecret: settings.signingSecret.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), {
    message: INTEGRATION_MESSAGES.nothingToChange,
  });
export type IntegrationChange = z.infer<typeof IntegrationChangeSchema>;

/** GET /api/integrations: all the viewer may see, or one rotation's or one policy's. */
export const IntegrationListQuerySchema = z.object({
  rotationId: idText({ label: 'rotationId' }).optional(),
  escalationPolicyId: idText({ label: 'escalationPolicyId' }).optional(),
});

/** Where each inbound format is sent, for this Baton (PUBLIC_URL). */
export const IntegrationEndpointsSchema = z.object({
  pagerduty: z.string(),
  opsgenie: z.string(),
  alertmanager: z.string(),
  grafana: z.string(),
  generic: z.string(),
  /** the domain part of `<key>@…`; null while email intake is off (INBOUND_SMTP_PORT) */
  emailDomain: z.string().nullable(),
  emailPort: z.number().int().nullable(),
});
export type IntegrationEndpoints = z.infer<typeof IntegrationEndpointsSchema>;

/** IntegrationSchema is an integration as the API answers it. */
export const IntegrationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  rotationId: z.number().int().nullable(),
  rotationName: z.string().nullable(),
  escalationPolicyId: z.number().int().nullable(),
  escalationPolicyName: z.string().nullable(),
  /** the key's last four characters, to tell keys apart */
  keyHint: z.string(),
  /** the tool it is for (decision 260) */
  source: z.enum(INTEGRATION_SOURCES),
  grouping: z.enum(ALERT_GROUPINGS),
  emailDedup: z.enum(EMAIL_DEDUPS),
  urgency: z.enum(INTEGRATION_URGENCIES),
  stormLimit: z.number().int(),
  rateLimit: z.number().int(),
  hasSigningSecret: z.boolean(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  keyRegeneratedAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  counts: z.object({
    alerts: z.number().int(),
    incidents: z.number().int(),
    openIncidents: z.number().int(),
  }),
  /** whether the viewer may change it, regenerate its key and delete it */
  canManage: z.boolean(),
  endpoints: IntegrationEndpointsSchema,
});
export type Integration = z.infer<typeof IntegrationSchema>;

/** The answer of create and regenerate: the integration and its key, shown this once. */
export const IntegrationWithKeySchema = IntegrationSchema.extend({ key: z.string() });
export type IntegrationWithKey = z.infer<typeof IntegrationWithKeySchema>;

export const IntegrationListSchema = z.object({ integrations: z.array(IntegrationSchema) });
export type IntegrationList = z.infer<typeof IntegrationListSchema>;

/** What happened to one alert event on arrival. */
export const ALERT_OUTCOMES = [
  'raised', // a new incident
  'folded', // into the integration's alert storm incident
  'updated', // a new event on an open incident: alertCount + 1, in its timeline
  'repeated', // the same event again: only its last-seen time changes
  'acknowledged',
  'resolved',
  'ignored', // acknowledge or resolve for no open incident
] as const;
export type AlertOutcome = (typeof ALERT_OUTCOMES)[number];

/** AlertReceiptSchema: what became of one alert event (Alertmanager, Grafana, generic intake). */
export const AlertReceiptSchema = z.object({
  dedupKey: z.string(),
  outcome: z.enum(ALERT_OUTCOMES),
  incidentId: z.number().int().nullable(),
});
/** AlertReceiptsSchema: Alertmanager's and Grafana's answer, one receipt per alert of the group. */
export const AlertReceiptsSchema = z.object({ alerts: z.array(AlertReceiptSchema) });

/** One received alert event, as the integration's and the incident's alert lists show it. */
export const AlertRecordSchema = z.object({
  id: z.number().int(),
  integrationId: z.number().int(),
  integrationName: z.string(),
  incidentId: z.number().int().nullable(),
  format: z.enum(ALERT_FORMATS),
  action: z.enum(['trigger', 'acknowledge', 'resolve']),
  outcome: z.enum(ALERT_OUTCOMES),
  summary: z.string(),
  source: z.string().nullable(),
  severity: z.enum(SEVERITIES).nullable(),
  details: z.array(AlertDetailRowSchema),
  links: z.array(AlertLinkSchema),
  receivedAt: z.string(),
  lastSeenAt: z.string(),
  /** how many times this same event arrived (1: once) */
  seenCount: z.number().int(),
  /**
   * the raw payload as received (JSON text, or the email's text), cut at ALERT_PAYLOAD_KEEP; null
   * once dropped, ALERT_PAYLOAD_DAYS after it was last seen with its incident resolved (decision 232)
   */
  payload: z.string().nullable(),
  payloadCut: z.boolean(),
});
export type AlertRecord = z.infer<typeof AlertRecordSchema>;

export const AlertListQuerySchema = z.object({
  /** alerts older than this id (the list's cursor) */
  before: idText({ label: 'before', column: 'int8' }).optional(),
});

export const AlertListSchema = z.object({
  alerts: z.array(AlertRecordSchema),
  nextCursor: z.number().int().nullable(),
});
export type AlertList = z.infer<typeof AlertListSchema>;

/** POST /api/integrations/{id}/test: "Send test alert" raises an incident through the integration. */
export const TestAlertInputSchema = z
  .object({
    /** the test incident's severity (P3 unless given: a test pages at low urgency) */
    severity: z.enum(SEVERITIES, { error: INTEGRATION_MESSAGES.severity }).optional(),
  })
  .optional();
export type TestAlertInput = z.input<typeof TestAlertInputSchema>;

export const TestAlertResultSchema = z.object({
  incidentId: z.number().int().nullable(),
  outcome: z.enum(ALERT_OUTCOMES),
});
export type TestAlertResult = z.infer<typeof TestAlertResultSchema>;

/**
 * GET /api/integrations/{id}/test: whom "Send test alert" would page now (decision 261), read
 * before sending so the sender is warned: the people of the first step of the integration's
 * policy that reaches someone (an earlier step that reaches nobody is skipped, as the engine
 * does), each with why; none when every step reaches nobody.
 */
export const TestAlertPreviewSchema = z.object({
  /** the integration's rotation; null: an integration on a policy alone */
  rotation: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  policyName: z.string(),
  /** one-based; null: no step reaches anyone now */
  step: z.number().int().nullable(),
  pages: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      /** why the step reaches them: 'holder', 'next on call', 'backup', 'member', 'named' */
      reasons: z.array(z.string()),
    }),
  ),
});
export type TestAlertPreview = z.infer<typeof TestAlertPreviewSchema>;
