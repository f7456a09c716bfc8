import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type {
  EscalationPolicyValue,
  EscalationStep,
} from '../../shared/contracts/escalation-policies';
import type { RotationLayer } from '../../shared/contracts/rotations';
import type { NotificationRules } from '../../shared/domain/notification-rules';
import type { WorkingHours } from '../../shared/domain/working-hours';

/** An incident's copy of its escalation policy (the policy as it was when raised). */
export type IncidentPolicyCopy = Pick<EscalationPolicyValue, 'name' | 'repeat' | 'steps'>;

// Columns named *_enc hold AES-256-GCM envelopes (see src/server/crypto/field-crypto.ts), bound
// to their table, column and row id. Never compare or sort on them in SQL.
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    nameEnc: text('name_enc').notNull(),
    emailEnc: text('email_enc').notNull(),
    /** HMAC-SHA256 blind index of the normalised email address */
    emailIndex: text('email_index').notNull(),
    phoneEnc: text('phone_enc'),
    /** legacy single role, kept readable; 'member' is read as on-call */
    role: text('role').notNull().default('on-call'),
    roles: text('roles').array().notNull().default(sql`ARRAY['on-call']::text[]`),
    timezone: text('timezone').notNull().default('UTC'),
    notificationPreference: text('notification_preference').notNull().default('email'),
    handoffReminderMinutes: integer('handoff_reminder_minutes').notNull().default(30),
    /** the person's own notification rules (decision 251); null: their preference's */
    notificationRules: jsonb('notification_rules').$type<NotificationRules>(),
    /** the person's working hours, and whether low urgency waits for them (decision 254) */
    workingHours: jsonb('working_hours').$type<WorkingHours>(),
    oidcIssuer: text('oidc_issuer'),
    oidcSubject: text('oidc_subject'),
    /** secret for this user's calendar feed URL, stored hashed */
    calendarTokenHash: text('calendar_token_hash'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_index_key').on(t.emailIndex),
    uniqueIndex('users_oidc_subject_key').on(t.oidcIssuer, t.oidcSubject),
    check(
      'users_notification_preference_check',
      sql`${t.notificationPreference} in ('email', 'sms', 'both', 'all')`,
    ),
    check('users_roles_not_empty', sql`cardinality(${t.roles}) > 0`),
  ],
);

/**
 * Escalation policies (issue 16, decisions 200 and 202): a name, a repeat count and the ordered
 * steps, stored whole as the shared contract's parsed value (`EscalationPolicyValue['steps']`),
 * so an incident's copy is the same JSON. Targets name rotations and people by id without a
 * foreign key: a target whose rotation or person is gone reaches nobody and is skipped (decision
 * 200), as an incident's copy of the policy must too.
 */
export const escalationPolicies = pgTable(
  'escalation_policies',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    repeat: smallint('repeat').notNull().default(0),
    steps: jsonb('steps').$type<EscalationStep[]>().notNull(),
    /**
     * Round robin (decision 204): for each step, how many turns it has given; a new incident
     * reaching a round-robin step takes the next person. Indexed like `steps`.
     */
    turns: integer('turns').array().notNull().default(sql`'{}'::integer[]`),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('escalation_policies_name_check', sql`char_length(${t.name}) between 1 and 220`),
    check('escalation_policies_repeat_check', sql`${t.repeat} between 0 and 9`),
    check(
      'escalation_policies_steps_check',
      sql`jsonb_typeof(${t.steps}) = 'array' and jsonb_array_length(${t.steps}) between 1 and 20`,
    ),
  ],
);

export const rotations = pgTable(
  'rotations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    cadence: text('cadence').notNull().default('weekly'),
    type: text('type').notNull().default('fixed'),
    suspended: boolean('suspended').notNull().default(false),
    /** the member holding the baton; a composite foreign key keeps it a member (see migration 0001) */
    holderUserId: integer('holder_user_id'),
    holderSince: ts('holder_since'),
    /**
     * whose turn the current shift of a fixed rotation is (decision 256): the member the order goes
     * on from. The holder, except while someone covers an away member's shift; null or no longer
     * a member: the holder
     */
    turnUserId: integer('turn_user_id').references(() => users.id, { onDelete: 'set null' }),
    nextHandoffAt: ts('next_handoff_at'),
    timeZone: text('time_zone').notNull().default('UTC'),
    /** local wall-clock time of the shift boundary, HH:MM */
    handoffTime: text('handoff_time').notNull().default('09:00'),
    /** weekday of the boundary for weekly rotations, 0 = Sunday … 6 = Saturday */
    handoffWeekday: smallint('handoff_weekday').notNull().default(1),
    /** N: turns of N hours, days or weeks (the first layer's; 1 for the specification's cadences) */
    cadenceEvery: smallint('cadence_every').notNull().default(1),
    /**
     * the rotation's layers (decision 247): StoredLayer[], whose turns follow the clock; null for a
     * rotation of the specification's fields alone. cadence, cadence_every, handoff_time and
     * handoff_weekday then repeat the first layer's.
     */
    layers: jsonb('layers').$type<RotationLayer[] | null>(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** the policy a page on this rotation climbs; a policy in use cannot be deleted (decision 202) */
    escalationPolicyId: integer('escalation_policy_id')
      .notNull()
      .references(() => escalationPolicies.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('rotations_escalation_policy_idx').on(t.escalationPolicyId),
    check('rotations_cadence_check', sql`${t.cadence} in ('hourly', 'daily', 'weekly')`),
    check('rotations_cadence_every_check', sql`${t.cadenceEvery} between 1 and 365`),
    check(
      'rotations_layers_check',
      sql`${t.layers} is null or (jsonb_typeof(${t.layers}) = 'array' and jsonb_array_length(${t.layers}) between 1 and 10)`,
    ),
    check('rotations_type_check', sql`${t.type} in ('fixed', 'scheduled')`),
    check('rotations_name_check', sql`char_length(${t.name}) between 1 and 200`),
    check(
      'rotations_handoff_time_check',
      sql`${t.handoffTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`,
    ),
    check('rotations_handoff_weekday_check', sql`${t.handoffWeekday} between 0 and 6`),
    index('rotations_next_handoff_at_idx').on(t.nextHandoffAt),
  ],
);

export const rotationMembers = pgTable(
  'rotation_members',
  {
    id: serial('id').primaryKey(),
    rotationId: integer('rotation_id')
      .notNull()
      .references(() => rotations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    order: integer('order').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('rotation_members_rotation_user_key').on(t.rotationId, t.userId),
    index('rotation_members_user_idx').on(t.userId),
    check('rotation_members_order_check', sql`${t.order} >= 0`),
  ],
);

export const scheduleEntries = pgTable(
  'schedule_entries',
  {
    id: serial('id').primaryKey(),
    rotationId: integer('rotation_id')
      .notNull()
      .references(() => rotations.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startAt: ts('start_at').notNull(),
    endAt: ts('end_at').notNull(),
    /** a repeating entry's RRULE (decision 250's subset); null for a single entry */
    recurrence: text('recurrence'),
    /** a series' last occurrence's end; null for a series that never ends and a single entry */
    seriesEndAt: ts('series_end_at'),
    /** the starts (ISO instants) of the occurrences taken out of a series */
    takenOut: jsonb('taken_out').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('schedule_entries_end_after_start', sql`${t.endAt} > ${t.startAt}`),
    check(
      'schedule_entries_series_end',
      sql`${t.recurrence} is not null or ${t.seriesEndAt} is null`,
    ),
    check('schedule_entries_taken_out_array', sql`jsonb_typeof(${t.takenOut}) = 'array'`),
    index('schedule_entries_rotation_start_idx').on(t.rotationId, t.startAt),
  ],
);

export const handoffs = pgTable(
  'handoffs',
  {
    id: serial('id').primaryKey(),
    rotationId: integer('rotation_id')
      .notNull()
      .references(() => rotations.id, { onDelete: 'cascade' }),
    fromUserId: integer('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    toUserId: integer('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** success, acknowledged, missed, escalated (or another status shown raw) */
    status: text('status').notNull().default('success'),
    /** take, pass, reassign, auto, schedule, coverage, coverage_end, member_removed */
    kind: text('kind').notNull(),
    notes: text('notes'),
    urgent: boolean('urgent').notNull().default(false),
    occurredAt: ts('occurred_at').notNull().defaultNow(),
    acknowledgedAt: ts('acknowledged_at'),
    /** idempotency key of an automatic handoff: the same boundary is never handed off twice */
    effectKey: text('effect_key'),
  },
  (t) => [
    // NULLS FIRST is what `order by … desc` means: an index sorted otherwise is not used for it.
    index('handoffs_occurred_at_idx').on(
      t.occurredAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('handoffs_rotation_idx').on(
      t.rotationId,
      t.occurredAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    uniqueIndex('handoffs_effect_key_key').on(t.effectKey),
  ],
);

export const coverageRequests = pgTable(
  'coverage_requests',
  {
    id: serial('id').primaryKey(),
    rotationId: integer('rotation_id')
      .notNull()
      .references(() => rotations.id, { onDelete: 'cascade' }),
    requesterId: integer('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    coveringUserId: integer('covering_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startAt: ts('start_at').notNull(),
    endAt: ts('end_at').notNull(),
    notes: text('notes'),
    /** pending, accepted, declined, cancelled, active, completed */
    status: text('status').notNull().default('pending'),
    createdAt: createdAt(),
    respondedAt: ts('responded_at'),
    /**
     * Who arranged the cover for the requester (a manager or administrator, issue 18): such cover
     * is accepted when made. Null when the requester asked for it themself.
     */
    arrangedById: integer('arranged_by_id').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('coverage_requests_end_after_start', sql`${t.endAt} > ${t.startAt}`),
    index('coverage_requests_rotation_idx').on(t.rotationId, t.startAt),
  ],
);

/**
 * A person's time off (issue 18): a fixed rotation's shift that overlaps it goes to the next member
 * who is available. The note is personal: sealed with the field cipher, bound to
 * (time_off, note, id).
 */
export const timeOff = pgTable(
  'time_off',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startAt: ts('start_at').notNull(),
    endAt: ts('end_at').notNull(),
    noteEnc: text('note_enc'),
    /** who recorded it: the person, a manager of one of their rotations, or an administrator */
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('time_off_end_after_start', sql`${t.endAt} > ${t.startAt}`),
    index('time_off_user_idx').on(t.userId, t.startAt),
    index('time_off_end_idx').on(t.endAt),
  ],
);

export const pages = pgTable(
  'pages',
  {
    id: serial('id').primaryKey(),
    /** the rotation it was raised on; null for an incident raised on a policy alone (decision 204) */
    rotationId: integer('rotation_id').references(() => rotations.id, { onDelete: 'cascade' }),
    /** who raised it: the pager of a page, the person who raised an incident (null: a machine) */
    pagedById: integer('paged_by_id').references(() => users.id, { onDelete: 'set null' }),
    targetUserId: integer('target_user_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * The page text as it was stored before decision 163, in clear; start-up seals it into
     * `message_enc` and clears it (sealClearPageMessages). New pages never write it.
     */
    legacyMessage: text('message'),
    /** the page text, sealed with the field cipher, bound to (pages, message, id) */
    messageEnc: text('message_enc'),
    urgency: text('urgency').notNull().default('high'),
    /** triggered, acknowledged, escalated, resolved */
    status: text('status').notNull().default('triggered'),
    ackTokenHash: text('ack_token_hash'),
    createdAt: createdAt(),
    acknowledgedAt: ts('acknowledged_at'),
    escalatedAt: ts('escalated_at'),
    resolvedAt: ts('resolved_at'),
    // The incident (issue 16, decision 204): a page is an incident.
    /** the title, sealed, bound to (pages, title, id); null: the page's message is its title */
    titleEnc: text('title_enc'),
    /** P1 critical, P2 major, P3 minor (the specification's incident fields) */
    severity: text('severity').notNull().default('P2'),
    /** sealed like the title, bound to their own columns; null when not given */
    descriptionEnc: text('description_enc'),
    impactEnc: text('impact_enc'),
    troubleshootingEnc: text('troubleshooting_enc'),
    /** the policy it was raised on; null once that policy is deleted (the copy below stays) */
    escalationPolicyId: integer('escalation_policy_id').references(() => escalationPolicies.id, {
      onDelete: 'set null',
    }),
    /** the policy as it was when raised: editing the policy never changes an incident's course */
    policy: jsonb('policy').$type<IncidentPolicyCopy>().notNull(),
    /** where it is on that copy (EscalationProgress): zero-based step and loop */
    stepIndex: smallint('step_index').notNull().default(0),
    loop: smallint('loop').notNull().default(0),
    stepStartedAt: ts('step_started_at').notNull().defaultNow(),
    /** the current step reached nobody: the next is due at once */
    stepSkipped: boolean('step_skipped').notNull().default(false),
    /** the people the current step notified (who it is with now) */
    assigneeIds: integer('assignee_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** everyone it has notified so far (they may acknowledge and resolve it) */
    notifiedIds: integer('notified_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** when the policy ran out with nobody acknowledging; the incident stays open */
    exhaustedAt: ts('exhausted_at'),
    acknowledgedById: integer('acknowledged_by_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    resolvedById: integer('resolved_by_id').references(() => users.id, { onDelete: 'set null' }),
    // Alerts in (issue 17, decision 209)
    /** the integration that raised it (null: a person, or the integration is deleted) */
    integrationId: integer('integration_id').references(() => integrations.id, {
      onDelete: 'set null',
    }),
    // Its count of distinct alerts is counted from `alerts` (countIncidentAlerts, decision 216).
    /** the integration's "alert storm" incident: distinct alerts past its per-minute limit */
    storm: boolean('storm').notNull().default(false),
  },
  (t) => [
    // the open incidents (decision 229): the open-incident metric's `status <> 'resolved'`
    index('pages_open_status_idx').on(t.status).where(sql`${t.status} <> 'resolved'`),
    index('pages_integration_idx')
      .on(t.integrationId, t.createdAt.desc())
      .where(sql`${t.integrationId} is not null`),
    check('pages_urgency_check', sql`${t.urgency} in ('low', 'medium', 'high')`),
    check('pages_severity_check', sql`${t.severity} in ('P1', 'P2', 'P3')`),
    check('pages_step_check', sql`${t.stepIndex} >= 0 and ${t.loop} >= 0`),
    index('pages_open_idx')
      .on(t.stepStartedAt)
      .where(sql`${t.status} in ('triggered', 'escalated') and ${t.exhaustedAt} is null`),
    index('pages_created_idx').on(t.createdAt.desc(), t.id.desc()),
    check(
      'pages_message_check',
      sql`${t.messageEnc} is not null or ${t.legacyMessage} is not null`,
    ),
    index('pages_rotation_idx').on(t.rotationId, t.createdAt.desc()),
  ],
);

export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    nameEnc: text('name_enc').notNull(),
    emailEnc: text('email_enc').notNull(),
    emailIndex: text('email_index').notNull(),
    role: text('role').notNull(),
    /** SHA-256 of the single-use random token, for lookup (decision 110) */
    tokenHash: text('token_hash').notNull(),
    /**
     * The token sealed with the field cipher, so an administrator can copy the link of a pending
     * invitation again; null for invitations made before decision 110 (their link still works)
     */
    tokenEnc: text('token_enc'),
    /** pending, accepted, revoked */
    status: text('status').notNull().default('pending'),
    expiresAt: ts('expires_at').notNull(),
    invitedById: integer('invited_by_id').references(() => users.id, { onDelete: 'set null' }),
    acceptedUserId: integer('accepted_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    createdAt: createdAt(),
    acceptedAt: ts('accepted_at'),
  },
  (t) => [
    uniqueIndex('invitations_token_hash_key').on(t.tokenHash),
    uniqueIndex('invitations_pending_email_key')
      .on(t.emailIndex)
      .where(sql`${t.status} = 'pending'`),
    check(
      'invitations_role_check',
      sql`${t.role} in ('admin', 'manager', 'on-call', 'incident_manager', 'member')`,
    ),
  ],
);

/**
 * ID tokens accepted by POST /api/auth/firebase, by a SHA-256 of what identifies one use (issuer
 * and nonce, or jti, or the token), until each expires: a token signs in once on every instance
 * (decision 011).
 */
export const usedIdTokens = pgTable(
  'used_id_tokens',
  {
    keyHash: text('key_hash').primaryKey(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('used_id_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * Rate-limit counters shared by every instance on the database (decision 161): one row per route
 * and client, the client's address kept only as a keyed hash; a row counts hits until its window
 * ends and is swept after.
 */
export const rateLimitHits = pgTable(
  'rate_limit_hits',
  {
    keyHash: text('key_hash').primaryKey(),
    hits: integer('hits').notNull(),
    windowEndsAt: ts('window_ends_at').notNull(),
  },
  (t) => [index('rate_limit_hits_window_ends_idx').on(t.windowEndsAt)],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the session token; the token itself lives only in the browser's cookie */
    tokenHash: text('token_hash').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    idleExpiresAt: ts('idle_expires_at').notNull(),
    absoluteExpiresAt: ts('absolute_expires_at').notNull(),
  },
  (t) => [
    index('sessions_user_idx').on(t.userId),
    // the expired sessions sweep (decision 229): either expiry passed, in bounded batches
    index('sessions_idle_expires_idx').on(t.idleExpiresAt),
    index('sessions_absolute_expires_idx').on(t.absoluteExpiresAt),
  ],
);

/**
 * Personal API tokens (issue 20, decision 223): a person's bearer tokens for scripts, with their
 * permissions narrowed by a scope. Only the SHA-256 of the token is kept; revoking deletes the
 * row, so the next request on any instance finds nothing. The person's deletion takes them along.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** read or write */
    scope: text('scope').notNull(),
    /** SHA-256 of the token, hex; the token itself is shown once and never stored */
    tokenHash: text('token_hash').notNull(),
    /** the token's last four characters, to tell tokens apart */
    tokenHint: text('token_hint').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    /** written at most once a minute */
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_key').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId),
    check('api_tokens_scope_check', sql`${t.scope} in ('read', 'write')`),
    check('api_tokens_name_check', sql`char_length(${t.name}) between 1 and 100`),
  ],
);

export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /**
     * email, sms, voice (a call, decision 252), chat (a destination's chat or webhook message) or
     * token-sync (decision 228)
     */
    channel: text('channel').notNull(),
    kind: text('kind').notNull(),
    /** encrypted JSON { to, subject, text, html } */
    contentEnc: text('content_enc').notNull(),
    /** one notification per (event, recipient, channel) */
    dedupeKey: text('dedupe_key').notNull(),
    /** pending, sending, sent, failed, or stopped (a delayed rule its incident's acknowledgement stopped, decision 251) */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    providerResponse: text('provider_response'),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
    /** when it failed for good (decision 163: administrators' banner, the pager's notice) */
    failedAt: ts('failed_at'),
    /** the page it is about, if any: a failure shows in that page's history (decision 163) */
    pageId: integer('page_id').references(() => pages.id, { onDelete: 'set null' }),
    /** a chat or webhook message's destination (channel chat, decision 221) */
    destinationId: integer('destination_id').references(() => destinations.id, {
      onDelete: 'cascade',
    }),
    /**
     * why it waited (decision 254): 'working-hours' (a low-urgency page held to the person's
     * working hours) or 'limit' (held by the person's limit of texts and calls); null: it did not.
     * 'limit-email': the email that carries the words of a text or call the limit held (decision
     * 265)
     */
    held: text('held'),
  },
  (t) => [
    uniqueIndex('notifications_dedupe_key_key').on(t.dedupeKey),
    index('notifications_due_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    index('notifications_failed_idx').on(t.failedAt).where(sql`${t.status} = 'failed'`),
    index('notifications_page_idx').on(t.pageId).where(sql`${t.pageId} is not null`),
    index('notifications_destination_idx')
      .on(t.destinationId, t.createdAt)
      .where(sql`${t.destinationId} is not null`),
    check(
      'notifications_channel_check',
      sql`${t.channel} in ('email', 'sms', 'voice', 'chat', 'token-sync', 'push')`,
    ),
    check(
      'notifications_destination_check',
      sql`(${t.channel} = 'chat') = (${t.destinationId} is not null)`,
    ),
  ],
);

/**
 * The places each person's limit of texts and calls has given (decision 265): one row per text or
 * call the limit let go, when it let it go. Every instance counts here, under a lock per person,
 * so two instances never both send past the limit; rows older than the window are deleted by the
 * next decision for the person.
 */
export const personLimitSends = pgTable(
  'person_limit_sends',
  {
    notificationId: bigint('notification_id', { mode: 'number' })
      .primaryKey()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sentAt: ts('sent_at').notNull(),
  },
  (t) => [index('person_limit_sends_user_idx').on(t.userId, t.sentAt)],
);

/**
 * The administrative audit trail, append-only (decision 172): triggers of migration 0006 refuse
 * UPDATE, DELETE and TRUNCATE, and chain every insert to the one before it. The chain columns are
 * set by the insert trigger (never by the app) and are NOT NULL in the database; they are
 * declared nullable here only so inserts need not name them.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** no foreign key: the trail keeps who acted after that user is deleted (decision 172) */
    actorUserId: integer('actor_user_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    /** position in the hash chain, 1, 2, 3 … in the order the inserts took the chain head */
    chainSeq: bigint('chain_seq', { mode: 'number' }),
    /** the hash of the event before this one in the chain (64 zeros for the first) */
    prevHash: text('prev_hash'),
    /** SHA-256 (hex) of this event's fields and prev_hash: see audit_event_digest in 0006 */
    hash: text('hash'),
  },
  (t) => [
    index('audit_events_created_at_idx').on(t.createdAt.desc()),
    uniqueIndex('audit_events_chain_seq_key').on(t.chainSeq),
  ],
);

/**
 * The audit chain's head, one row: the last event's position and hash. The insert trigger locks
 * it (FOR UPDATE), so concurrent inserts from every instance form one line; the integrity check
 * compares it with the last event, so events deleted from the end are found too.
 */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    id: smallint('id').primaryKey().default(1),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [check('audit_chain_head_one_row', sql`${t.id} = 1`)],
);

/**
 * The codes a person replies by SMS to act on a page (decision 201): "Reply 4821 to acknowledge,
 * 4821R to resolve". One per page, recipient and number, issued when the SMS is written; the
 * number is kept only as a keyed hash (FieldCipher.phoneIndex). Open while `closed_at` is null:
 * a code is unique among its number's open codes, and closes when the page is acknowledged or
 * resolved.
 */
export const smsReplyCodes = pgTable(
  'sms_reply_codes',
  {
    id: serial('id').primaryKey(),
    pageId: integer('page_id')
      .notNull()
      .references(() => pages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** HMAC-SHA256 of the number the code was sent to, under the blind-index key */
    phoneHash: text('phone_hash').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
    closedAt: ts('closed_at'),
  },
  (t) => [
    check('sms_reply_codes_code_check', sql`${t.code} ~ '^[0-9]{4}$'`),
    uniqueIndex('sms_reply_codes_open_code_key')
      .on(t.phoneHash, t.code)
      .where(sql`${t.closedAt} is null`),
    index('sms_reply_codes_page_idx').on(t.pageId),
  ],
);

/**
 * Phone calls (issue 33, decision 252): one row per call (Twilio's CallSid) a `voice`
 * notification placed, bound server-side to its notification, incident and person when Twilio
 * first calls back (the URL carries the notification's id and a keyed hash of it; Twilio's
 * signature covers both). What Twilio last said of it, who answered, the key pressed and what it
 * came to. A notification retried after a failed request may have placed more than one call.
 */
export const voiceCalls = pgTable(
  'voice_calls',
  {
    id: serial('id').primaryKey(),
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    pageId: integer('page_id')
      .notNull()
      .references(() => pages.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Twilio's CallSid, as its callbacks name it */
    callSid: text('call_sid').notNull(),
    /** Twilio's CallStatus, as last heard */
    status: text('status').notNull(),
    /** answering machine detection's AnsweredBy, when it was on */
    answeredBy: text('answered_by'),
    /** the step (zero-based) the incident was at when the call was answered: 2 escalates from it */
    stepIndex: integer('step_index'),
    /** the last key pressed that did something: 1, 2 or 3 */
    key: text('key'),
    /** what the call came to (answered, no-answer, busy, failed, canceled, machine); null: not over */
    outcome: text('outcome'),
    createdAt: createdAt(),
    endedAt: ts('ended_at'),
  },
  (t) => [
    uniqueIndex('voice_calls_call_sid_key').on(t.callSid),
    index('voice_calls_notification_idx').on(t.notificationId),
    index('voice_calls_page_idx').on(t.pageId),
  ],
);

/**
 * Integrations (issue 17, decision 209): a key by which a monitoring tool raises incidents on a
 * rotation's escalation policy, or on a policy alone. The key is stored only as its SHA-256 hash;
 * Grafana's signing secret is sealed like personal fields.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    rotationId: integer('rotation_id').references(() => rotations.id, { onDelete: 'cascade' }),
    escalationPolicyId: integer('escalation_policy_id').references(() => escalationPolicies.id, {
      onDelete: 'cascade',
    }),
    /** SHA-256 (hex) of the key */
    keyHash: text('key_hash').notNull(),
    /** the key's last four characters, to tell keys apart on the screen */
    keyHint: text('key_hint').notNull(),
    /** the tool it is for: alertmanager, grafana, pagerduty, opsgenie, email or generic */
    source: text('source').notNull().default('generic'),
    /** group (one incident per Alertmanager group key) or fingerprint (one per alert) */
    grouping: text('grouping').notNull().default('group'),
    /** subject (messages with one subject are one incident) or message (each its own) */
    emailDedup: text('email_dedup').notNull().default('subject'),
    /** severity (P1, P2 high; P3 low), high or low */
    urgency: text('urgency').notNull().default('severity'),
    /** new incidents a minute before further distinct alerts fold into the storm incident */
    stormLimit: integer('storm_limit').notNull().default(20),
    /** inbound requests a second for this key before 429 */
    rateLimit: integer('rate_limit').notNull().default(50),
    /** Grafana's HMAC signing secret, sealed, bound to (integrations, signing_secret, id) */
    signingSecretEnc: text('signing_secret_enc'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    keyRegeneratedAt: ts('key_regenerated_at'),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [
    uniqueIndex('integrations_key_hash_key').on(t.keyHash),
    index('integrations_rotation_idx').on(t.rotationId),
    index('integrations_policy_idx').on(t.escalationPolicyId),
    check(
      'integrations_target_check',
      sql`(${t.rotationId} is null) <> (${t.escalationPolicyId} is null)`,
    ),
    check('integrations_name_check', sql`char_length(${t.name}) between 1 and 100`),
    check(
      'integrations_source_check',
      sql`${t.source} in ('alertmanager', 'grafana', 'pagerduty', 'opsgenie', 'email', 'generic')`,
    ),
    check('integrations_grouping_check', sql`${t.grouping} in ('group', 'fingerprint')`),
    check('integrations_email_dedup_check', sql`${t.emailDedup} in ('subject', 'message')`),
    check('integrations_urgency_check', sql`${t.urgency} in ('severity', 'high', 'low')`),
    check('integrations_limits_check', sql`${t.stormLimit} >= 1 and ${t.rateLimit} >= 1`),
  ],
);

/**
 * Every alert event received (issue 17): what it said (summary, details and links sealed as one
 * JSON envelope, the raw payload sealed and cut at ALERT_PAYLOAD_KEEP), what Baton did with it,
 * and how often the same event came again (Alertmanager re-sends whole groups).
 */
export const alerts = pgTable(
  'alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    /** the incident it raised, updated, folded into, acknowledged or resolved; null: ignored */
    pageId: integer('page_id').references(() => pages.id, { onDelete: 'set null' }),
    format: text('format').notNull(),
    action: text('action').notNull(),
    outcome: text('outcome').notNull(),
    /** SHA-256 (hex) of the dedup key */
    dedupKeyHash: text('dedup_key_hash').notNull(),
    /** SHA-256 (hex) of the normalized event: the same event again is a repeat */
    eventHash: text('event_hash').notNull(),
    severity: text('severity'),
    /** sealed JSON { summary, source, details, links }, bound to (alerts, event, id) */
    eventEnc: text('event_enc').notNull(),
    /**
     * the raw payload, sealed, bound to (alerts, payload, id); null once dropped, ALERT_PAYLOAD_DAYS
     * after the alert was last seen with its incident resolved (decision 232)
     */
    payloadEnc: text('payload_enc'),
    payloadCut: boolean('payload_cut').notNull().default(false),
    receivedAt: ts('received_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    seenCount: integer('seen_count').notNull().default(1),
  },
  (t) => [
    index('alerts_integration_idx').on(t.integrationId, t.id.desc()),
    index('alerts_page_idx').on(t.pageId, t.id.desc()).where(sql`${t.pageId} is not null`),
    index('alerts_payload_kept_idx').on(t.lastSeenAt).where(sql`${t.payloadEnc} is not null`),
    check('alerts_action_check', sql`${t.action} in ('trigger', 'acknowledge', 'resolve')`),
  ],
);

/**
 * Each dedup key an integration has sent, and the incident it belongs to now (issue 17): one open
 * incident per integration and key. The row is the lock that keeps two deliveries of one new key
 * from raising two incidents. Open while `resolved_at` is null; resolving the incident (from the
 * source or in Baton) closes every key on it, so the next trigger raises a new incident.
 */
export const alertKeys = pgTable(
  'alert_keys',
  {
    integrationId: integer('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    dedupKeyHash: text('dedup_key_hash').notNull(),
    pageId: integer('page_id').references(() => pages.id, { onDelete: 'set null' }),
    /** the latest alert of this key, and its event hash (a repeat only touches that alert) */
    lastAlertId: bigint('last_alert_id', { mode: 'number' }),
    lastEventHash: text('last_event_hash'),
    lastSeenAt: ts('last_seen_at').notNull(),
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    primaryKey({ columns: [t.integrationId, t.dedupKeyHash] }),
    index('alert_keys_page_idx').on(t.pageId).where(sql`${t.resolvedAt} is null`),
  ],
);

/** A shift as a shift-change baseline keeps it (ISO instants). */
export interface StoredShift {
  userId: number;
  start: string;
  end: string;
}

/** One change of a person's shift, as a shift notice keeps it (ISO instants). */
export interface StoredShiftChange {
  kind: 'moved' | 'added' | 'removed';
  before: { start: string; end: string } | null;
  after: { start: string; end: string } | null;
  /** a removed shift: who is on call in its time now (user ids; decision 262) */
  coveredBy?: number[];
}

/**
 * "Your shift moved" (issue 18, decision 219): a rotation's projected shifts for the coming 8
 * weeks, kept at its first change (before it applied), until `due_at` (2 minutes later) when the
 * engine compares them with the projection then and tells each person whose shifts changed. One
 * row per rotation: changes while it waits are told with it. User ids and times only, in clear.
 */
export const shiftBaselines = pgTable(
  'shift_baselines',
  {
    id: serial('id').primaryKey(),
    rotationId: integer('rotation_id')
      .notNull()
      .references(() => rotations.id, { onDelete: 'cascade' }),
    takenAt: ts('taken_at').notNull(),
    dueAt: ts('due_at').notNull(),
    shifts: jsonb('shifts').$type<StoredShift[]>().notNull(),
  },
  (t) => [
    uniqueIndex('shift_baselines_rotation_key').on(t.rotationId),
    index('shift_baselines_due_idx').on(t.dueAt),
  ],
);

/**
 * A person's in-app notice that their shifts in a rotation changed (decision 219), shown on the
 * dashboard until they dismiss it. The changes are written in words when read, in the reader's
 * zone. `event_key` is the outbox event it goes with: once per person and event.
 */
export const shiftNotices = pgTable(
  'shift_notices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rotationId: integer('rotation_id')
      .notNull()
      .references(() => rotations.id, { onDelete: 'cascade' }),
    eventKey: text('event_key').notNull(),
    changes: jsonb('changes').$type<StoredShiftChange[]>().notNull(),
    createdAt: createdAt(),
    dismissedAt: ts('dismissed_at'),
  },
  (t) => [
    uniqueIndex('shift_notices_user_event_key').on(t.userId, t.eventKey),
    index('shift_notices_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * What changed, for the live stream (issue 19, decision 220): one row per change, written in the
 * transaction that made it, so it is seen at commit and not before; its id is the stream's event
 * id, the same on every instance. It names what changed by kind and id, nothing personal. Kept
 * for ten minutes, for browsers that reconnect with `Last-Event-ID`.
 */
export const changeEvents = pgTable(
  'change_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** rotation, handoff, incident, coverage, user, ... (shared/contracts/live-events.ts) */
    kind: text('kind').notNull(),
    entityId: integer('entity_id'),
    /** the rotation the change belongs to, when it belongs to one */
    rotationId: integer('rotation_id'),
    createdAt: createdAt(),
  },
  (t) => [index('change_events_created_idx').on(t.createdAt)],
);

/**
 * Where Baton posts what happens (issue 19, decision 221): a chat webhook (Slack, Mattermost,
 * Discord, Microsoft Teams Workflows) or a signed generic webhook, for one rotation, escalation
 * policy or integration. The URL (a credential in itself) and the webhook's signing secret are
 * sealed; `url_hint` tells destinations apart on the screen. Messages go through the outbox
 * (`notifications` rows with channel `chat` and this `destination_id`).
 */
export const destinations = pgTable(
  'destinations',
  {
    id: serial('id').primaryKey(),
    /** slack, mattermost, discord, teams or webhook */
    kind: text('kind').notNull(),
    /** sealed, bound to (destinations, url, id) */
    urlEnc: text('url_enc').notNull(),
    /** the host and the URL's last four characters, e.g. hooks.slack.com …Xy12 */
    urlHint: text('url_hint').notNull(),
    /** a webhook's Standard Webhooks secret (whsec_…), sealed, bound to (destinations, secret, id) */
    secretEnc: text('secret_enc'),
    rotationId: integer('rotation_id').references(() => rotations.id, { onDelete: 'cascade' }),
    escalationPolicyId: integer('escalation_policy_id').references(() => escalationPolicies.id, {
      onDelete: 'cascade',
    }),
    integrationId: integer('integration_id').references(() => integrations.id, {
      onDelete: 'cascade',
    }),
    /** what to post: handoff, cover, incident.raised, ... digest */
    events: jsonb('events').$type<string[]>().notNull(),
    /** the daily digest's local time (HH:MM) and zone, when `events` has digest */
    digestTime: text('digest_time'),
    digestTimeZone: text('digest_time_zone'),
    /** the first failed delivery of an unbroken run of failures; null once one is delivered */
    failingSince: ts('failing_since'),
    /** when the owners were told it has failed for an hour (once per run of failures) */
    failingToldAt: ts('failing_told_at'),
    lastDeliveredAt: ts('last_delivered_at'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('destinations_rotation_idx').on(t.rotationId),
    index('destinations_policy_idx').on(t.escalationPolicyId),
    index('destinations_integration_idx').on(t.integrationId),
    check(
      'destinations_kind_check',
      sql`${t.kind} in ('slack', 'mattermost', 'discord', 'teams', 'webhook')`,
    ),
    check(
      'destinations_target_check',
      sql`num_nonnulls(${t.rotationId}, ${t.escalationPolicyId}, ${t.integrationId}) = 1`,
    ),
  ],
);

/**
 * Token sync (issue 21, decision 228): one row per session signed in through the identity
 * provider while TOKEN_SYNC_URL is set. It holds the person's latest ID token, sealed, which the
 * outbox's token-sync channel sends to the companion service, and, for OpenID Connect, the sealed
 * refresh token the engine renews it with while the person is active. The session's end sets
 * `ended_at` (and queues the DELETE); the row is deleted once that DELETE is delivered or has
 * failed for good.
 */
export const tokenSyncs = pgTable(
  'token_syncs',
  {
    id: serial('id').primaryKey(),
    /** the session it follows; null once that session row is gone (sign-out, deletion) */
    sessionTokenHash: text('session_token_hash').references(() => sessions.tokenHash, {
      onDelete: 'set null',
    }),
    /** oidc (renewable with the refresh token) or firebase (the exchanged token only) */
    source: text('source').notNull(),
    /** the latest ID token, sealed, bound to (token_syncs, id_token, id) */
    idTokenEnc: text('id_token_enc').notNull(),
    /** that token's iat */
    issuedAt: ts('issued_at').notNull(),
    /** OpenID Connect's refresh token, sealed, bound to (token_syncs, refresh_token, id) */
    refreshTokenEnc: text('refresh_token_enc'),
    /** when the session ended and the DELETE was queued */
    endedAt: ts('ended_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('token_syncs_session_key').on(t.sessionTokenHash),
    index('token_syncs_open_idx').on(t.issuedAt).where(sql`${t.endedAt} is null`),
    check('token_syncs_source_check', sql`${t.source} in ('oidc', 'firebase')`),
  ],
);

/**
 * Push subscriptions (issue 33, decision 253): one row per device a person turned push on for,
 * the browser's `PushSubscription` sealed. The endpoint and keys are personal data: sealed,
 * bound to (push_subscriptions, endpoint|keys|name, id); `endpoint_hash` is the endpoint's SHA-256,
 * so the same device subscribed again is one row. Deleting the person deletes them.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** the push service's URL for this device, sealed */
    endpointEnc: text('endpoint_enc').notNull(),
    /** the endpoint's SHA-256, hex (unique: one row per device; the URL holds a long random token) */
    endpointHash: text('endpoint_hash').notNull(),
    /** the subscription's keys `{ p256dh, auth }` as JSON, sealed */
    keysEnc: text('keys_enc').notNull(),
    /** the device's name as the person sees it ("Chrome on Android"), sealed */
    nameEnc: text('name_enc').notNull(),
    /** when the push service says the subscription ends; null: it did not say */
    expiresAt: ts('expires_at'),
    /** the last push the push service accepted */
    lastSentAt: ts('last_sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpointHash),
    index('push_subscriptions_user_idx').on(t.userId),
  ],
);

/**
 * Baton's VAPID key pair (decision 253), generated once on first use when VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY are not configured: one row (id 1); the private key sealed, bound to
 * (push_keys, private_key, 1).
 */
export const pushKeys = pgTable(
  'push_keys',
  {
    id: integer('id').primaryKey(),
    publicKey: text('public_key').notNull(),
    privateKeyEnc: text('private_key_enc').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('push_keys_one_row', sql`${t.id} = 1`)],
);

/**
 * The setup checklist (issue 35, decision 258), per administrator: when they dismissed it and
 * when a test page they sent themselves reached them. The steps themselves are read from the
 * install's rows each time. Deleting the person deletes theirs.
 */
export const setupChecklists = pgTable('setup_checklists', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  dismissedAt: ts('dismissed_at'),
  testPageAt: ts('test_page_at'),
});

/**
 * Imports (issue 34, decision 268): one plan read from a source (PagerDuty, Opsgenie, Grafana
 * OnCall, a calendar file, a spreadsheet) and, once applied, what it did. The snapshot the plan
 * was made from and the plan itself are sealed (they hold people's names and addresses), bound to
 * (imports, snapshot | plan, id); the source's API key is never stored. Deleting the person who
 * made it keeps the import.
 */
export const imports = pgTable(
  'imports',
  {
    id: serial('id').primaryKey(),
    source: text('source').notNull(),
    /** which account or file, as the reader names it: with source ids it keys the links */
    account: text('account').notNull(),
    /** planned, then applied (once) */
    status: text('status').notNull().default('planned'),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    appliedAt: ts('applied_at'),
    /** the window the snapshot's overrides and renderings cover: [from, to) */
    windowFrom: ts('window_from').notNull(),
    windowTo: ts('window_to').notNull(),
    /** the SourceSnapshot as JSON, sealed */
    snapshotEnc: text('snapshot_enc').notNull(),
    /** the ImportPlan as JSON (without id and status), sealed */
    planEnc: text('plan_enc').notNull(),
  },
  (t) => [
    index('imports_created_at_idx').on(t.createdAt),
    check('imports_status_check', sql`${t.status} in ('planned', 'applied')`),
  ],
);

/**
 * What each import made (decision 268): the Baton object a source's object became, by source,
 * account, kind and the source's id, so importing again updates it instead of making another. A
 * link whose Baton object was deleted since is made again on the next apply.
 */
export const importLinks = pgTable(
  'import_links',
  {
    id: serial('id').primaryKey(),
    source: text('source').notNull(),
    account: text('account').notNull(),
    /** person, rotation, policy, integration or cover */
    kind: text('kind').notNull(),
    sourceId: text('source_id').notNull(),
    /** the user, rotation, escalation policy, integration or coverage request's id */
    batonId: integer('baton_id').notNull(),
    /** the import that made or last changed it */
    importId: integer('import_id').references(() => imports.id, { onDelete: 'set null' }),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('import_links_source_key').on(t.source, t.account, t.kind, t.sourceId),
    check(
      'import_links_kind_check',
      sql`${t.kind} in ('person', 'rotation', 'policy', 'integration', 'cover')`,
    ),
  ],
);
