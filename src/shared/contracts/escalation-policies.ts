import { z } from 'zod';
import { id, text } from './primitives';

/**
 * The escalation policy (issue 16, decision 200): a name, ordered steps and a repeat count. The
 * fields the issue fixes keep its names (`name`, `repeat`, `steps`, `delayMinutes`, `targets`,
 * `type`, `id`); a step's two extra fields are named as PagerDuty users know them: `assignment`
 * (PagerDuty's assignment strategy: everyone at once, or round robin) and `activeHours` (the
 * hours a step applies, like PagerDuty's support hours, in the rotation's time zone). The API,
 * the policy editor and the engine all read a policy through this one schema.
 */

export const ESCALATION_TARGET_TYPES = [
  'rotation-holder',
  'rotation-next',
  'rotation-backup',
  'rotation-members',
  'user',
] as const;
export type EscalationTargetType = (typeof ESCALATION_TARGET_TYPES)[number];

/** How a step notifies its people: all of them, or one at a time in turn. */
export const STEP_ASSIGNMENTS = ['everyone', 'round-robin'] as const;
export type StepAssignment = (typeof STEP_ASSIGNMENTS)[number];

/** How many more times the whole policy may run after its last step (the issue's 0–9). */
export const REPEAT_MAX = 9;
/**
 * The longest delay a step may have: one day, as long as an acknowledgement link works
 * (PAGE_TIMINGS.ackLinkValidMs); waiting longer than that for a person is not paging.
 */
export const DELAY_MINUTES_MAX = 24 * 60;
/** Bounds that keep a policy something a person can read on one screen. */
export const STEPS_MAX = 20;
export const TARGETS_MAX = 20;
export const ACTIVE_WINDOWS_MAX = 14;
export const POLICY_NAME_MAX = 220;

const targetTypeList = ESCALATION_TARGET_TYPES.join(', ');

export const EscalationTargetSchema = z.object({
  type: z.enum(ESCALATION_TARGET_TYPES, {
    error: (issue) =>
      issue.input === undefined
        ? 'Choose whom this target notifies'
        : `Unknown target type ${JSON.stringify(issue.input)}; use one of ${targetTypeList}`,
  }),
  /** the rotation's id for the rotation-* types, the person's id for `user` */
  id: id({ label: 'Target id', error: 'Choose a rotation or a person for this target' }),
});
export type EscalationTarget = z.infer<typeof EscalationTargetSchema>;

const localTime = (label: string) =>
  text({ label, error: `Enter ${label.toLowerCase()} as HH:MM` }).regex(
    /^([01]\d|2[0-3]):[0-5]\d$/,
    `${label} must be HH:MM (24-hour)`,
  );

/**
 * One window of a step's active hours: on each listed day (0 = Sunday … 6 = Saturday, as the
 * rotation's handoff weekday) from `startTime` to `endTime`, local time in the rotation's zone.
 * An end at or before the start runs into the next day ('22:00'–'07:00' on Friday covers Friday
 * night until Saturday 07:00); an end equal to the start is the whole day.
 */
export const ActiveWindowSchema = z.object({
  daysOfWeek: z
    .array(
      z
        .number({ error: 'A day must be a number from 0 (Sunday) to 6 (Saturday)' })
        .int('A day must be a number from 0 (Sunday) to 6 (Saturday)')
        .min(0, 'A day must be a number from 0 (Sunday) to 6 (Saturday)')
        .max(6, 'A day must be a number from 0 (Sunday) to 6 (Saturday)'),
      { error: 'Choose the days this step applies' },
    )
    .min(1, 'Choose at least one day')
    .max(7, 'A week has seven days')
    .refine((days) => new Set(days).size === days.length, 'Each day may be chosen once'),
  startTime: localTime('Start time'),
  endTime: localTime('End time'),
});
export type ActiveWindow = z.infer<typeof ActiveWindowSchema>;

const delayMessage = `A delay must be a whole number of minutes from 1 to ${DELAY_MINUTES_MAX}`;

export const EscalationStepSchema = z.object({
  /** minutes from this step's notifications to the next step (or the next loop, or the end) */
  delayMinutes: z
    .number({ error: delayMessage })
    .int(delayMessage)
    .min(1, 'A delay must be at least 1 minute')
    .max(DELAY_MINUTES_MAX, `A delay must be at most ${DELAY_MINUTES_MAX} minutes (one day)`),
  targets: z
    .array(EscalationTargetSchema, { error: 'Add at least one target' })
    .min(1, 'Add at least one target')
    .max(TARGETS_MAX, `A step may have at most ${TARGETS_MAX} targets`),
  assignment: z
    .enum(STEP_ASSIGNMENTS, { error: 'Choose everyone at once or round robin' })
    .default('everyone'),
  /** null or missing: the step applies at every hour */
  activeHours: z
    .array(ActiveWindowSchema, { error: 'Active hours must be a list of windows' })
    .min(1, 'Add at least one window, or let the step apply at all hours')
    .max(ACTIVE_WINDOWS_MAX, `A step may have at most ${ACTIVE_WINDOWS_MAX} windows`)
    .nullish()
    .transform((windows) => windows ?? null),
});
export type EscalationStep = z.infer<typeof EscalationStepSchema>;
export type EscalationStepInput = z.input<typeof EscalationStepSchema>;

const repeatMessage = `Repeat must be a whole number from 0 to ${REPEAT_MAX}`;

/** EscalationPolicyInputSchema is the body of POST /api/escalation-policies. */
export const EscalationPolicyInputSchema = z.object({
  name: text({ label: 'Policy name', trim: true, error: 'Enter a name' })
    .min(1, 'Enter a name')
    .max(POLICY_NAME_MAX, `A name must be at most ${POLICY_NAME_MAX} characters`),
  repeat: z
    .number({ error: repeatMessage })
    .int(repeatMessage)
    .min(0, repeatMessage)
    .max(REPEAT_MAX, repeatMessage),
  steps: z
    .array(EscalationStepSchema, { error: 'Add at least one step' })
    .min(1, 'Add at least one step')
    .max(STEPS_MAX, `A policy may have at most ${STEPS_MAX} steps`),
});
export type EscalationPolicyInput = z.input<typeof EscalationPolicyInputSchema>;
/** A policy once read: defaults filled in. An incident keeps a copy of this as it was raised. */
export type EscalationPolicyValue = z.output<typeof EscalationPolicyInputSchema>;

/**
 * EscalationPolicyChangeSchema is the body of PATCH /api/escalation-policies/{id}: any of the
 * fields, each checked as in a new policy; `steps`, when sent, replaces every step.
 */
export const EscalationPolicyChangeSchema = EscalationPolicyInputSchema.partial();
export type EscalationPolicyChange = z.input<typeof EscalationPolicyChangeSchema>;

/** EscalationPolicySchema is a policy as the API answers it. */
export const EscalationPolicySchema = EscalationPolicyInputSchema.extend({
  id: z.number().int(),
  /** the rotations that follow it, by name (decision 202): a policy in use cannot be deleted */
  rotations: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type EscalationPolicy = z.infer<typeof EscalationPolicySchema>;

/**
 * EscalationPreviewSchema answers GET /api/escalation-policies/{id}/preview: for each step, whom
 * it would notify now (the shared resolveStep over the rotations' current state and people), each
 * person with the channels their preference picks, and what it skips and why; the policy
 * editor's live preview ("at this step now: Priya Shah (holder), by SMS and email").
 */
export const EscalationPreviewSchema = z.object({
  policyId: z.number().int(),
  /** ISO: the instant the preview was computed for */
  at: z.string(),
  /** the zone the steps' active hours are read in: the first rotation that follows the policy */
  timeZone: z.string(),
  steps: z.array(
    z.object({
      /** zero-based */
      stepIndex: z.number().int(),
      delayMinutes: z.number().int(),
      assignment: z.enum(STEP_ASSIGNMENTS),
      /** notify: the step reaches `recipients`; skip: nobody, for `skipReason` */
      status: z.enum(['notify', 'skip']),
      /** the domain's skip reason ('outside the step hours', 'nobody to notify', …) or null */
      skipReason: z.string().nullable(),
      recipients: z.array(
        z.object({
          userId: z.number().int(),
          name: z.string(),
          /** every target that reached them: 'holder', 'next on call', 'backup', 'member', 'named' */
          reasons: z.array(z.string()),
          /** by their notification preference (SMS without a usable number falls back to email) */
          channels: z.array(z.enum(['email', 'sms'])),
        }),
      ),
      skipped: z.array(
        z.object({
          target: z.object({ type: z.enum(ESCALATION_TARGET_TYPES), id: z.number().int() }),
          reason: z.string(),
          /** the person the target named, when it named one that cannot be reached */
          userId: z.number().int().nullable(),
        }),
      ),
    }),
  ),
});
export type EscalationPreview = z.infer<typeof EscalationPreviewSchema>;
