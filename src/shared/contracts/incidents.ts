import { z } from 'zod';
import { NOTIFICATION_METHODS } from '../domain/notification-rules';
import { CALL_OUTCOMES } from '../domain/voice-calls';
import { ESCALATION_TARGET_TYPES } from './escalation-policies';
import { id, idText, text } from './primitives';
import { URGENCIES } from './rotations';

/**
 * Incidents (issue 16, decision 204): the one record of "something needs a person". A page is an
 * incident: `POST /api/rotations/{id}/page` raises one on the rotation's policy, and the page
 * screens and routes of the specification read the same rows. The field names the issue fixes
 * keep its words (`title`, `severity`, `urgency`, `description`, `impact`,
 * `troubleshootingSteps`, `rotationId`, `escalationPolicyId`, `timeline`).
 */

/** Severity, as the specification's incident fields name it: P1 critical, P2 major, P3 minor. */
export const SEVERITIES = ['P1', 'P2', 'P3'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const SEVERITY_LABELS: Record<Severity, string> = {
  P1: 'P1 · Critical',
  P2: 'P2 · Major',
  P3: 'P3 · Minor',
};

/** An incident's status as the incident API shows it (a page's 'escalated' is 'triggered'). */
export const INCIDENT_STATUSES = ['triggered', 'acknowledged', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const INCIDENT_STATUS_LABELS: Record<IncidentStatus, string> = {
  triggered: 'Triggered',
  acknowledged: 'Acknowledged',
  resolved: 'Resolved',
};

export const TITLE_MAX = 200;
export const INCIDENT_TEXT_MAX = 10_000;
export const NOTE_MAX = 5_000;

export const INCIDENT_MESSAGES = {
  notFound: 'Incident not found',
  titleRequired: 'Enter a title',
  titleTooLong: `Keep the title under ${TITLE_MAX} characters`,
  severity: 'Severity must be P1, P2 or P3',
  urgency: 'Urgency must be low, medium or high',
  where: 'Choose the rotation or the escalation policy this incident follows',
  both: 'Choose a rotation or an escalation policy, not both',
  noteRequired: 'Enter a note',
  personRequired: 'Choose the person to reassign this incident to',
  mayNotView: 'You can only view the incidents of your rotations.',
  mayNotRaise: 'You can only raise incidents on rotations you manage.',
  mayNotAct:
    'Only people this incident notified, its rotation’s managers and incident managers can do this.',
  alreadyResolved: 'This incident has already been resolved.',
  /** a reopen of an incident that is not resolved (decision 261) */
  notResolved: 'This incident is not resolved, so there is nothing to reopen.',
  acknowledgedBy: (name: string, at: string) =>
    `This incident was already acknowledged by ${name} at ${at}.`,
  escalateAcknowledged: 'This incident has already been acknowledged. Resolve it, or reassign it.',
  noPerson: 'That person is not in Baton (any more); choose someone else.',
  /** an escalation from a step the incident has left (decision 236); `step` is one-based */
  alreadyMoved: (step: number) =>
    `This incident already moved to step ${step}. Nothing changed: look again before escalating.`,
} as const;

/**
 * fromStep: the one-based step the person saw when they chose to escalate (decision 236). An
 * escalation from a step the incident has left changes nothing (409 INCIDENT_ALREADY_ESCALATED).
 * Optional on the wire for older clients; Baton's client, Slack buttons and SMS codes send it.
 */
export const FromStepSchema = z
  .number({ error: 'fromStep must be a step number' })
  .int('fromStep must be a step number')
  .min(1, 'fromStep must be a step number from 1')
  .max(1000, 'fromStep must be a step number')
  .optional();

const longText = (label: string) =>
  text({ label, multiline: true, trim: true }).max(
    INCIDENT_TEXT_MAX,
    `Keep ${label.toLowerCase()} under ${INCIDENT_TEXT_MAX.toLocaleString('en-US')} characters`,
  );

/**
 * IncidentInputSchema is the body of POST /api/incidents: what the incident is, and the rotation
 * (its policy) or the escalation policy it follows, exactly one of them.
 */
export const IncidentInputSchema = z
  .object({
    title: text({ label: 'Title', trim: true, error: INCIDENT_MESSAGES.titleRequired })
      .min(1, INCIDENT_MESSAGES.titleRequired)
      .max(TITLE_MAX, INCIDENT_MESSAGES.titleTooLong),
    severity: z.enum(SEVERITIES, { error: INCIDENT_MESSAGES.severity }).default('P2'),
    urgency: z.enum(URGENCIES, { error: INCIDENT_MESSAGES.urgency }).default('high'),
    description: longText('Description').optional(),
    impact: longText('Impact').optional(),
    troubleshootingSteps: longText('Troubleshooting steps').optional(),
    rotationId: id({ label: 'rotationId' }).optional(),
    escalationPolicyId: id({ label: 'escalationPolicyId' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.rotationId === undefined && value.escalationPolicyId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['rotationId'], message: INCIDENT_MESSAGES.where });
    }
    if (value.rotationId !== undefined && value.escalationPolicyId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['escalationPolicyId'],
        message: INCIDENT_MESSAGES.both,
      });
    }
  });
export type IncidentInput = z.input<typeof IncidentInputSchema>;

/** EscalateIncidentInputSchema: POST /api/incidents/{id}/escalate, to the next step or step N. */
export const EscalateIncidentInputSchema = z.object({
  reason: text({ label: 'Reason', multiline: true, trim: true, error: 'Please enter a reason' })
    .min(1, 'Please enter a reason')
    .max(500, 'Keep the reason under 500 characters'),
  /** one-based, as the screen numbers steps; absent: the next step */
  toStep: z
    .number({ error: 'toStep must be a step number' })
    .int('toStep must be a step number')
    .min(1, 'toStep must be a step number from 1')
    .optional(),
  fromStep: FromStepSchema,
});
export type EscalateIncidentInput = z.input<typeof EscalateIncidentInputSchema>;

/** IncidentNoteInputSchema: POST /api/incidents/{id}/notes. */
export const IncidentNoteInputSchema = z.object({
  text: text({ label: 'Note', multiline: true, trim: true, error: INCIDENT_MESSAGES.noteRequired })
    .min(1, INCIDENT_MESSAGES.noteRequired)
    .max(NOTE_MAX, `Keep the note under ${NOTE_MAX.toLocaleString('en-US')} characters`),
});
export type IncidentNoteInput = z.input<typeof IncidentNoteInputSchema>;

/**
 * ResolveIncidentInputSchema: POST /api/incidents/{id}/resolve, with an optional resolution note
 * (what fixed it), sealed on the timeline and shown on the incident (decision 261). The body is
 * optional: the Page API's clients and Slack resolve without one.
 */
export const ResolveIncidentInputSchema = z
  .object({
    note: text({ label: 'Resolution note', multiline: true, trim: true })
      .max(
        NOTE_MAX,
        `Keep the resolution note under ${NOTE_MAX.toLocaleString('en-US')} characters`,
      )
      .optional(),
  })
  .optional();
export type ResolveIncidentInput = z.input<typeof ResolveIncidentInputSchema>;

/**
 * ReopenIncidentInputSchema: POST /api/incidents/{id}/reopen, a resolved incident back to
 * triggered, climbing its policy again from step 1 (decision 261), with an optional reason.
 */
export const ReopenIncidentInputSchema = z
  .object({
    reason: text({ label: 'Reason', multiline: true, trim: true })
      .max(500, 'Keep the reason under 500 characters')
      .optional(),
  })
  .optional();
export type ReopenIncidentInput = z.input<typeof ReopenIncidentInputSchema>;

/** ReassignIncidentInputSchema: POST /api/incidents/{id}/reassign, to a person. */
export const ReassignIncidentInputSchema = z.object({
  userId: id({ label: 'userId', error: INCIDENT_MESSAGES.personRequired }),
  reason: text({ label: 'Reason', multiline: true, trim: true })
    .max(500, 'Keep the reason under 500 characters')
    .optional(),
});
export type ReassignIncidentInput = z.input<typeof ReassignIncidentInputSchema>;

/** IncidentListQuerySchema: GET /api/incidents, newest first, paged by an id cursor. */
export const IncidentListQuerySchema = z.object({
  status: z
    .enum(INCIDENT_STATUSES, { error: 'status must be triggered, acknowledged or resolved' })
    .optional(),
  /** 'open': triggered or acknowledged */
  open: z.enum(['true', 'false']).optional(),
  severity: z.enum(SEVERITIES, { error: INCIDENT_MESSAGES.severity }).optional(),
  rotationId: idText({ label: 'rotationId' }).optional(),
  /** only incidents that notified the viewer (or are with them now) */
  mine: z.enum(['true', 'false']).optional(),
  /** words in the title (case-insensitive; titles are sealed, so matched after reading) */
  q: text({ label: 'search' }).max(200, 'Keep the search under 200 characters').optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: idText({ label: 'before' }).optional(),
});
export type IncidentListQuery = z.input<typeof IncidentListQuerySchema>;

const PersonRef = z.object({ id: z.number().int(), name: z.string() });

/** What raised an incident: a person, or (issue 17) an integration. */
export const IncidentSourceSchema = z.object({
  kind: z.enum(['user', 'integration', 'system']),
  /** the person (kind user) */
  user: PersonRef.nullable(),
  /** a name to show: the person's, or the integration's */
  name: z.string(),
});

/**
 * The kinds of timeline event. Each carries `at` (ISO) and `actor` (a person, or null for the
 * clock and for machines); the rest depends on the kind.
 */
export const TIMELINE_KINDS = [
  'raised',
  'notified',
  'step_reached',
  'step_skipped',
  'reminder',
  'acknowledged',
  'note',
  'reassigned',
  'escalated',
  'resolved',
  'exhausted',
  'alert',
  'rules_skipped',
  'call',
  'reopened',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export const TimelineEventSchema = z.object({
  kind: z.enum(TIMELINE_KINDS),
  at: z.string(),
  actor: PersonRef.nullable(),
  /** step_reached, step_skipped, reminder, escalated: one-based step and loop */
  step: z.number().int().optional(),
  loop: z.number().int().optional(),
  /** step_reached, reminder, reassigned: who it notified, with why ('holder', 'named', …) */
  notified: z.array(PersonRef.extend({ reasons: z.array(z.string()) })).optional(),
  /** step_skipped: why ('nobody to notify', 'rotation suspended', 'person deleted', …) */
  skipReason: z.string().optional(),
  /** step_skipped and step_reached: targets that reached nobody, and why */
  skipped: z
    .array(
      z.object({
        target: z.object({ type: z.enum(ESCALATION_TARGET_TYPES), id: z.number().int() }),
        reason: z.string(),
        person: PersonRef.nullable(),
      }),
    )
    .optional(),
  /** notified: to whom, by which channel, with what result */
  to: PersonRef.nullable().optional(),
  /** notified: calls since decision 252, push since decision 253 */
  channel: z.enum(['email', 'sms', 'voice', 'push']).optional(),
  /**
   * notified: pending, sent, retried (a failed attempt waits for the next), failed for good, or
   * stopped (a rule's delayed message its incident's acknowledgement or resolution stopped), or
   * bundled (held by the person's limit, then sent inside another message, decision 254)
   */
  delivery: z.enum(['pending', 'sent', 'retried', 'failed', 'stopped', 'bundled']).optional(),
  /**
   * notified: why it waited (decision 254): held to the person's working hours (a low-urgency
   * page) or by their limit of texts and calls (then sent in one bundle with the others held)
   */
  held: z.enum(['working-hours', 'limit']).optional(),
  /**
   * notified: a text or call the limit held whose words went by email at once (decision 265), or
   * (on an email) the email that carried them
   */
  limitEmail: z.enum(['emailed', 'email']).optional(),
  /** notified: when a message a notification rule delayed is due (decision 251) */
  dueAt: z.string().optional(),
  /** rules_skipped: the person's rules that could not reach them (`to`), each with why */
  rules: z
    .array(
      z.object({
        method: z.enum(NOTIFICATION_METHODS),
        delayMinutes: z.number().int(),
        reason: z.string(),
      }),
    )
    .optional(),
  /** rules_skipped: no rule could reach them, so the page went by email at once */
  emailInstead: z.boolean().optional(),
  /** call: what a phone call to `to` came to (decision 252) */
  callOutcome: z.enum(CALL_OUTCOMES).optional(),
  /** call: the key pressed that did something (1 acknowledge, 2 escalate, 3 repeat); null: none */
  key: z.enum(['1', '2', '3']).nullable().optional(),
  /** notified: how many times it was tried (a sent notification tried twice was retried) */
  attempts: z.number().int().optional(),
  /** notified (failed): the provider's answer, without personal data */
  error: z.string().nullable().optional(),
  /** escalated, reassigned, reopened: the reason typed; note: the note's text; resolved: the resolution note */
  reason: z.string().nullable().optional(),
  text: z.string().optional(),
  /**
   * acknowledged, resolved: in the app, by the email's link, by SMS reply, by an integration,
   * from Slack, or by a key pressed on a phone call
   */
  via: z.enum(['app', 'link', 'sms', 'integration', 'slack', 'phone']).optional(),
  automatic: z.boolean().optional(),
  /** raised, acknowledged, resolved, alert: the integration that did it (issue 17), by name */
  source: z.string().optional(),
  /** alert: what the alert did to this incident: a new event on its key, or folded into a storm */
  alertOutcome: z.enum(['updated', 'folded']).optional(),
});
export type TimelineEvent = z.infer<typeof TimelineEventSchema>;

/** IncidentSchema: an incident as every /api/incidents answer shows it. */
export const IncidentSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  severity: z.enum(SEVERITIES),
  urgency: z.enum(URGENCIES),
  description: z.string().nullable(),
  impact: z.string().nullable(),
  troubleshootingSteps: z.string().nullable(),
  status: z.enum(INCIDENT_STATUSES),
  raisedBy: IncidentSourceSchema,
  rotation: PersonRef.nullable(),
  escalationPolicy: z.object({
    /** null once the policy is deleted: the incident keeps its copy */
    id: z.number().int().nullable(),
    name: z.string(),
    repeat: z.number().int(),
    stepCount: z.number().int(),
  }),
  /** where it is on its copy of the policy: one-based step and loop */
  currentStep: z.number().int(),
  currentLoop: z.number().int(),
  /** the next automatic step while unacknowledged; null when none comes (exhausted, closed) */
  nextStepAt: z.string().nullable(),
  exhaustedAt: z.string().nullable(),
  /** who it is with now (the people the current step notified) */
  assignees: z.array(PersonRef),
  createdAt: z.string(),
  acknowledgedAt: z.string().nullable(),
  acknowledgedBy: PersonRef.nullable(),
  resolvedAt: z.string().nullable(),
  resolvedBy: PersonRef.nullable(),
  /** what the person who resolved it wrote about the fix (decision 261); null: none, or open */
  resolutionNote: z.string().nullable(),
  /**
   * who acknowledged and who resolved it, as `raisedBy` names its source: a person, or the
   * integration whose alert cleared; null until it happens
   */
  acknowledgedBySource: IncidentSourceSchema.nullable(),
  resolvedBySource: IncidentSourceSchema.nullable(),
  /** the integration that raised it (issue 17); null: a person, or the integration is deleted */
  integration: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  /** distinct alert events received for it (a repeat of the same event is not counted) */
  alertCount: z.number().int(),
  lastAlertAt: z.string().nullable(),
  /** its integration's "alert storm" incident: distinct alerts past the per-minute limit */
  storm: z.boolean(),
  /** what the viewer may do now */
  actions: z.object({
    acknowledge: z.boolean(),
    resolve: z.boolean(),
    escalate: z.boolean(),
    reassign: z.boolean(),
    addNote: z.boolean(),
    /** a resolved incident back to triggered (decision 261) */
    reopen: z.boolean(),
  }),
  /** GET /api/incidents/{id} and the actions answer it; the list leaves it out */
  timeline: z.array(TimelineEventSchema).optional(),
});
export type Incident = z.infer<typeof IncidentSchema>;

/** IncidentListSchema answers GET /api/incidents: a page of incidents and the counts by status. */
export const IncidentListSchema = z.object({
  incidents: z.array(IncidentSchema),
  /** the id to pass as `before` for the next page, or null at the end */
  nextBefore: z.number().int().nullable(),
  /** every incident the viewer may see that matches the filters but `status`, by status */
  counts: z.object({
    triggered: z.number().int(),
    acknowledged: z.number().int(),
    resolved: z.number().int(),
  }),
});
export type IncidentList = z.infer<typeof IncidentListSchema>;
