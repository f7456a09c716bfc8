import { z } from 'zod';
import type { Cadence } from '../domain/layers';
import { MAX_COUNT, MAX_INTERVAL, recurrenceRefusal } from '../domain/recurrence';
import { isTimeZone } from '../domain/time-zones';
import { INT4_MAX, id, instant, text } from './primitives';

/**
 * Contracts of the rotation API (specification sections 3, 5 and 7). Server routes validate with
 * these schemas; client forms use them (or a form schema derived from them).
 */

export const CADENCES = ['daily', 'weekly'] as const;
export const ROTATION_TYPES = ['fixed', 'scheduled'] as const;
export const URGENCIES = ['low', 'medium', 'high'] as const;
export const HANDOFF_STATUSES = ['success', 'acknowledged', 'missed', 'escalated'] as const;

/** A user as rotation answers embed them. */
export const PersonSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string().nullable().optional(),
});
export type Person = z.infer<typeof PersonSchema>;

export const RotationMemberSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  order: z.number().int(),
  user: PersonSchema,
});
export type RotationMember = z.infer<typeof RotationMemberSchema>;

/** A layer's on-duty window as reads answer it. */
export const OnDutyWindowReadSchema = z.object({
  days: z.array(z.number().int()),
  start: z.string(),
  end: z.string(),
});

/** LayerSchema is one layer of a rotation as every rotation read answers it (decision 247). */
export const LayerSchema = z.object({
  name: z.string(),
  /** members' user ids in turn order: the first held the layer's first turn */
  memberIds: z.array(z.number().int()),
  cadence: z.enum(['hourly', 'daily', 'weekly']),
  /** N: each turn lasts N hours, days or weeks */
  cadenceEvery: z.number().int(),
  /** local wall-clock time of the layer's boundaries, HH:MM */
  handoffTime: z.string(),
  /** 0 = Sunday … 6 = Saturday (weekly layers) */
  handoffWeekday: z.number().int(),
  /** when the layer is on duty; empty: always */
  activeWindows: z.array(OnDutyWindowReadSchema),
  /** when the layer's turns began (ISO) */
  startsAt: z.string(),
});
export type RotationLayer = z.infer<typeof LayerSchema>;

/** RotationSchema is a rotation as GET /api/rotations, /api/rotations/{id} and /api/user/rotations answer it. */
export const RotationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** the first layer's: the specification's daily and weekly, or hourly (decision 247) */
  cadence: z.enum(['hourly', 'daily', 'weekly']),
  /** the first layer's N: turns of N hours, days or weeks (1 for the specification's cadences) */
  cadenceEvery: z.number().int(),
  /**
   * the layers whose turns, stacked, name who is on call (at least one): a rotation made of the
   * specification's fields is one layer of them, its members in order and always on duty
   */
  layers: z.array(LayerSchema),
  /**
   * true when the rotation was given layers: its turns follow the clock from each layer's
   * start; false: the specification's rotation, passing from its holder to the next member
   */
  layered: z.boolean(),
  /** the rotation's pattern in words ("12-hour shifts at 08:00 and 20:00", "Scheduled entries") */
  pattern: z.string(),
  type: z.enum(ROTATION_TYPES),
  suspended: z.boolean(),
  timeZone: z.string(),
  /** local wall-clock time of the shift boundary, HH:MM */
  handoffTime: z.string(),
  /** 0 = Sunday … 6 = Saturday (weekly rotations) */
  handoffWeekday: z.number().int(),
  members: z.array(RotationMemberSchema),
  currentOnCallUserId: z.number().int().nullable(),
  currentOnCall: PersonSchema.nullable(),
  /** when the holder took the baton (ISO) */
  holderSince: z.string().nullable(),
  nextOnCall: PersonSchema.nullable(),
  /** next shift boundary (ISO), null while suspended; a scheduled rotation's next entry start */
  nextHandoffTime: z.string().nullable(),
  createdById: z.number().int().nullable(),
  /** the escalation policy a page on this rotation climbs (issue 16, decision 202) */
  escalationPolicyId: z.number().int(),
  /**
   * the handoff that gave the holder the baton, while they have not acknowledged it (the
   * 'Acknowledge' button shows to them); null when there is none to acknowledge
   */
  unacknowledgedHandoff: z
    .object({
      id: z.number().int(),
      kind: z.string(),
      status: z.string(),
      fromUserId: z.number().int().nullable(),
      toUserId: z.number().int(),
      urgent: z.boolean(),
      /** ISO */
      occurredAt: z.string(),
      /** ISO: after this the handoff is marked missed */
      acknowledgeBy: z.string(),
      /** the handoff's notes, quoted to the receiver (decision 187); null when there are none */
      notes: z.string().nullable(),
      /**
       * who wrote the notes: the one who passed the baton, or asked for the coverage that
       * started; null for a reassignment (a manager's notes) or when they left the rotation
       */
      notesBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    })
    .nullable()
    .optional(),
  /**
   * a fixed rotation's passed shift boundary that no handoff has handled yet: the holder is asked
   * to pass the baton; at `escalateAt` both are told, at `autoTransferAt` it moves by itself
   */
  handoffDue: z
    .object({
      /** ISO */
      boundary: z.string(),
      /** ISO */
      escalateAt: z.string(),
      /** ISO */
      autoTransferAt: z.string(),
    })
    .nullable()
    .optional(),
  /** the previous holder while they stay backup after a handoff (decision 052) */
  backupUserId: z.number().int().nullable().optional(),
  backupOnCall: PersonSchema.nullable().optional(),
  /** ISO end of the backup time; null with a backup: until the emergency handoff is acknowledged */
  backupUntil: z.string().nullable().optional(),
});
export type Rotation = z.infer<typeof RotationSchema>;

const name = text({
  label: 'Rotation name',
  trim: true,
  error: 'Rotation name must be at least 3 characters.',
})
  .min(3, 'Rotation name must be at least 3 characters.')
  .max(200, 'Rotation name must be at most 200 characters.');
const descriptionText = text({ label: 'Description', multiline: true, trim: true }).max(
  2000,
  'Description must be at most 2000 characters.',
);
const description = descriptionText.nullish().transform((d) => (d ? d : null));
/** In an update, a missing description leaves it as it is; empty or null clears it. */
const descriptionChange = descriptionText
  .nullish()
  .transform((d) => (d === undefined ? undefined : d || null));
const timeZone = text({ label: 'Time zone' })
  .max(100, 'Time zone must be an IANA time zone such as Europe/London')
  .refine(isTimeZone, 'Time zone must be an IANA time zone such as Europe/London');
const handoffTime = text({ label: 'Handoff time' }).regex(
  /^([01]\d|2[0-3]):[0-5]\d$/,
  'Handoff time must be HH:MM (24-hour)',
);
const handoffWeekday = z.number().int().min(0).max(6);

// ---------------------------------------------------------------------------------------------
// Layers (issue 32, decisions 246 and 247)

/** A layer's shift length is N hours, days or weeks. */
export const LAYER_CADENCES = ['hourly', 'daily', 'weekly'] as const satisfies readonly Cadence[];
/** The largest N of each cadence: a week of hours, a year of days, a year of weeks. */
export const CADENCE_EVERY_MAX: Record<Cadence, number> = { hourly: 168, daily: 365, weekly: 52 };
const CADENCE_UNITS: Record<Cadence, string> = { hourly: 'hours', daily: 'days', weekly: 'weeks' };
export const LAYER_MEMBERS_MAX = 500;
export const LAYER_WINDOWS_MAX = 14;

const localTime = (label: string) =>
  text({ label, error: `Enter the ${label.toLowerCase()} as HH:MM` }).regex(
    /^([01]\d|2[0-3]):[0-5]\d$/,
    `${label} must be HH:MM (24-hour)`,
  );
const dayMessage = 'A day must be a number from 0 (Sunday) to 6 (Saturday)';
const weekday = (message: string) =>
  z.number({ error: message }).int(message).min(0, message).max(6, message);

/**
 * One on-duty window of a layer: on each of `days` from `start` to `end`, local time in the
 * rotation's zone; an end at or before the start runs into the next day ('00:00'–'00:00' is the
 * whole day).
 */
export const OnDutyWindowSchema = z.object({
  days: z
    .array(weekday(dayMessage), { error: 'Choose the days this window is on duty' })
    .min(1, 'Choose at least one day')
    .refine((days) => new Set(days).size === days.length, 'Each day may be chosen once'),
  start: localTime('Window start'),
  end: localTime('Window end'),
});

const cadenceEveryMessage = 'Shift length must be a whole number of hours, days or weeks';

/**
 * LayerInputSchema is one layer of a rotation as a request gives it: its name, its members in turn
 * order, its shift length (`cadence` × `cadenceEvery`), handoff time and weekday, and its on-duty
 * windows (none: always on duty).
 */
export const LayerInputSchema = z
  .object({
    name: text({ label: 'Layer name', trim: true, error: 'Enter a layer name' })
      .min(1, 'Enter a layer name')
      .max(100, 'Layer name must be at most 100 characters'),
    memberIds: z
      .array(id({ label: 'A member' }), { error: 'Add at least one member to the layer' })
      .min(1, 'Add at least one member to the layer')
      .max(LAYER_MEMBERS_MAX, `A layer may have at most ${LAYER_MEMBERS_MAX} turns`),
    cadence: z.enum(LAYER_CADENCES, {
      error: 'Shift length must be counted in hours (hourly), days (daily) or weeks (weekly)',
    }),
    cadenceEvery: z
      .number({ error: cadenceEveryMessage })
      .int(cadenceEveryMessage)
      .min(1, 'Shift length must be at least 1')
      .default(1),
    handoffTime: localTime('Handoff time'),
    handoffWeekday: weekday(
      'Handoff weekday must be a number from 0 (Sunday) to 6 (Saturday)',
    ).default(1),
    activeWindows: z
      .array(OnDutyWindowSchema, { error: 'On-duty windows must be a list of windows' })
      .max(LAYER_WINDOWS_MAX, `A layer may have at most ${LAYER_WINDOWS_MAX} on-duty windows`)
      .default([]),
    /**
     * when the layer's turns begin (its first member's first turn), as an importer gives it;
     * absent: kept from the layer at the same place if its shift is the same, otherwise now
     */
    startsAt: instant({
      label: 'Layer start',
      message: 'Layer start must be a valid date and time',
    }).optional(),
  })
  .superRefine((layer, ctx) => {
    const max = CADENCE_EVERY_MAX[layer.cadence];
    if (layer.cadenceEvery > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['cadenceEvery'],
        message: `Shift length must be at most ${max} ${CADENCE_UNITS[layer.cadence]}`,
      });
    }
  });
export type LayerInput = z.input<typeof LayerInputSchema>;

/** The most layers a rotation may stack. */
export const LAYERS_MAX = 10;
const layers = z
  .array(LayerInputSchema, { error: 'Layers must be a list of layers' })
  .min(1, 'Give the rotation at least one layer')
  .max(LAYERS_MAX, `A rotation may have at most ${LAYERS_MAX} layers`);
export const LAYERS_NEED_FIXED =
  'Layers belong to fixed rotations: a scheduled rotation follows its schedule entries';

export const ROTATION_MEMBER_TWICE = 'Each member may be listed once';
export const MEMBERS_WITH_LAYERS =
  "A layered rotation's members are the people its layers name: list them in the layers";
export const FIRST_ON_CALL_SCHEDULED =
  "A scheduled rotation's entries say who is on call: add a schedule entry instead";
export const FIRST_ON_CALL_NOT_MEMBER = 'The first on call must be one of the members';

/** CreateRotationInputSchema is the body of POST /api/rotations. */
export const CreateRotationInputSchema = z
  .object({
    name,
    description,
    type: z.enum(ROTATION_TYPES).default('fixed'),
    cadence: z.enum(CADENCES).default('weekly'),
    timeZone: timeZone.optional(),
    handoffTime: handoffTime.optional(),
    handoffWeekday: handoffWeekday.optional(),
    /** the rotation's layers (decision 247); absent: one layer of the fields above */
    layers: layers.optional(),
    /** its members in turn order (decision 255); absent: none yet, added one by one */
    memberIds: z
      .array(id({ label: 'A member' }), { error: 'Members must be a list of user ids' })
      .max(LAYER_MEMBERS_MAX, `A rotation may have at most ${LAYER_MEMBERS_MAX} members`)
      .refine((ids) => new Set(ids).size === ids.length, ROTATION_MEMBER_TWICE)
      .optional(),
    /** who holds the baton from creation, one of memberIds; absent: the first of them */
    firstOnCallId: id({ label: 'First on call' }).optional(),
  })
  .refine((r) => !(r.layers && r.type === 'scheduled'), {
    path: ['layers'],
    message: LAYERS_NEED_FIXED,
  })
  .refine((r) => !(r.layers && r.memberIds), {
    path: ['memberIds'],
    message: MEMBERS_WITH_LAYERS,
  })
  .refine((r) => r.firstOnCallId === undefined || r.type === 'fixed', {
    path: ['firstOnCallId'],
    message: FIRST_ON_CALL_SCHEDULED,
  })
  .refine((r) => r.firstOnCallId === undefined || (r.memberIds ?? []).includes(r.firstOnCallId), {
    path: ['firstOnCallId'],
    message: FIRST_ON_CALL_NOT_MEMBER,
  });
export type CreateRotationInput = z.input<typeof CreateRotationInputSchema>;

/** UpdateRotationInputSchema is the body of PATCH /api/rotations/{id}: any of the fields. */
export const UpdateRotationInputSchema = z.object({
  name: name.optional(),
  description: descriptionChange,
  type: z.enum(ROTATION_TYPES).optional(),
  cadence: z.enum(CADENCES).optional(),
  timeZone: timeZone.optional(),
  handoffTime: handoffTime.optional(),
  handoffWeekday: handoffWeekday.optional(),
  /** the escalation policy to follow (decision 202); it must exist */
  escalationPolicyId: id({ label: 'Escalation policy' }).optional(),
  /** new layers (decision 247); null: back to the specification's fields alone */
  layers: layers.nullable().optional(),
});
export type UpdateRotationInput = z.input<typeof UpdateRotationInputSchema>;

export const ChangeTypeInputSchema = z.object({ type: z.enum(ROTATION_TYPES) });

const memberOrder = z
  .number({ error: 'order must be a whole number' })
  .int('order must be a whole number')
  .min(0, 'order must be at least 0')
  .max(INT4_MAX, `order must be at most ${INT4_MAX}`);

/** ReorderMembersInputSchema: the complete list of members (member id and new order). */
export const ReorderMembersInputSchema = z.object({
  members: z
    .array(z.object({ id: id({ label: 'members.id' }), order: memberOrder }))
    .min(1)
    .max(500),
});
export type ReorderMembersInput = z.infer<typeof ReorderMembersInputSchema>;

/** AddMemberInputSchema is the body of POST /api/rotations/{id}/on-call. */
export const AddMemberInputSchema = z.object({
  userId: id({ label: 'userId', error: 'Please select a team member' }),
  order: memberOrder.optional(),
});
export type AddMemberInput = z.infer<typeof AddMemberInputSchema>;

const notes = text({ label: 'Notes', multiline: true })
  .max(5000, 'Notes must be at most 5000 characters.')
  .optional()
  .transform((n) => (n?.trim() ? n.trim() : undefined));

/** PassBatonInputSchema is the body of POST /api/rotations/{id}/handoff. */
export const PassBatonInputSchema = z.object({
  toUserId: id({ label: 'toUserId', error: 'Please select a team member to pass the baton to' }),
  notes,
  /** an emergency handoff needs the receiver's acknowledgement */
  urgent: z.boolean().optional(),
});
export type PassBatonInput = z.input<typeof PassBatonInputSchema>;

/** ReassignInputSchema is the body of POST /api/rotations/{id}/assign-oncall. */
export const ReassignInputSchema = z.object({
  toUserId: id({ label: 'toUserId', error: 'Please select a team member to assign on-call to' }),
  notes: text({ label: 'Notes', multiline: true })
    .max(5000, 'Notes must be at most 5000 characters.')
    .nullish()
    .transform((n) => (n?.trim() ? n.trim() : undefined)),
});
export type ReassignInput = z.input<typeof ReassignInputSchema>;

/**
 * RecurrenceSchema is how a schedule entry repeats (decision 250): daily or weekly on chosen
 * weekdays (0 = Sunday … 6 = Saturday), every `interval` days or weeks, until a local date or
 * `count` times (neither: it never ends). Stored as RRULE text.
 */
export const RecurrenceSchema = z
  .object({
    frequency: z.enum(['daily', 'weekly'], { error: 'Repeats must be daily or weekly.' }),
    interval: z
      .number({ error: `Repeat every must be a whole number from 1 to ${MAX_INTERVAL}.` })
      .default(1),
    weekdays: z.array(z.number({ error: 'Weekdays must be numbers from 0 to 6.' })).optional(),
    until: z.string({ error: 'Until must be a date (YYYY-MM-DD).' }).optional(),
    count: z.number({ error: `Times must be a whole number from 1 to ${MAX_COUNT}.` }).optional(),
  })
  .superRefine((r, ctx) => {
    const refusal = recurrenceRefusal(r, MAX_COUNT);
    if (refusal) {
      ctx.addIssue({
        code: 'custom',
        message: refusal.message,
        path: [refusal.field.replace('recurrence.', '')],
      });
    }
  });
export type RecurrenceInput = z.input<typeof RecurrenceSchema>;

const scheduleWindow = {
  userId: id({ label: 'userId', error: 'Please select a team member' }),
  startTime: instant({
    label: 'Start time',
    message: 'Start time must be a valid date and time',
  }),
  endTime: instant({ label: 'End time', message: 'End time must be a valid date and time' }),
};
const endAfterStart = {
  message: 'End time must be after start time',
  path: ['endTime'],
};
const endsAfterStarts = (s: { startTime?: string; endTime?: string }) =>
  s.startTime === undefined ||
  s.endTime === undefined ||
  Date.parse(s.endTime) > Date.parse(s.startTime);

/**
 * ScheduleEntryInputSchema is the body of POST /api/rotations/{id}/schedules: one window, or the
 * first of a series with `recurrence`.
 */
export const ScheduleEntryInputSchema = z
  .object({ ...scheduleWindow, recurrence: RecurrenceSchema.nullable().optional() })
  .refine(endsAfterStarts, endAfterStart);
export type ScheduleEntryInput = z.infer<typeof ScheduleEntryInputSchema>;

/**
 * ScheduleEntryChangeSchema is the body of PATCH /api/rotation-schedules/{scheduleId}: the whole
 * entry (every occurrence of a series) changes; `recurrence: null` makes a series one window.
 */
export const ScheduleEntryChangeSchema = z
  .object({
    userId: scheduleWindow.userId.optional(),
    startTime: scheduleWindow.startTime.optional(),
    endTime: scheduleWindow.endTime.optional(),
    recurrence: RecurrenceSchema.nullable().optional(),
  })
  .refine(endsAfterStarts, endAfterStart);
export type ScheduleEntryChange = z.infer<typeof ScheduleEntryChangeSchema>;

/**
 * OccurrenceChangeSchema is the body of PATCH /api/rotation-schedules/{scheduleId}/occurrences/
 * {start}: the occurrence leaves its series and becomes a single entry with these changes.
 */
export const OccurrenceChangeSchema = z
  .object({
    userId: scheduleWindow.userId.optional(),
    startTime: scheduleWindow.startTime.optional(),
    endTime: scheduleWindow.endTime.optional(),
  })
  .refine(endsAfterStarts, endAfterStart);
export type OccurrenceChange = z.infer<typeof OccurrenceChangeSchema>;

const OccurrenceSchema = z.object({ startTime: z.string(), endTime: z.string() });

/**
 * ScheduleEntrySchema is a schedule entry as answered. A series also carries its rule, its words
 * and its coming occurrences (up to UPCOMING_OCCURRENCES, the one in progress first); its
 * startTime and endTime are its first occurrence's (in GET .../current: the one covering now).
 */
export const ScheduleEntrySchema = z.object({
  id: z.number().int(),
  rotationId: z.number().int(),
  userId: z.number().int(),
  user: PersonSchema,
  startTime: z.string(),
  endTime: z.string(),
  recurrence: z
    .object({
      frequency: z.enum(['daily', 'weekly']),
      interval: z.number().int(),
      weekdays: z.array(z.number().int()).optional(),
      until: z.string().optional(),
      count: z.number().int().optional(),
    })
    .optional(),
  repeats: z.string().optional(),
  occurrences: z.array(OccurrenceSchema).optional(),
});
export type ScheduleEntry = z.infer<typeof ScheduleEntrySchema>;

/** How many coming occurrences a series lists. */
export const UPCOMING_OCCURRENCES = 12;

/** CoverageRequestInputSchema is the body of POST /api/rotations/{id}/cover. */
export const CoverageRequestInputSchema = z
  .object({
    rotationId: id({ label: 'rotationId' }).optional(),
    coveringUserId: id({
      label: 'coveringUserId',
      error: 'Please select a team member to cover you',
    }),
    startTime: instant({ label: 'Start time', message: 'Please select a start time' }),
    endTime: instant({ label: 'End time', message: 'Please select an end time' }),
    notes: text({ label: 'Notes', multiline: true })
      .max(5000, 'Notes must be at most 5000 characters.')
      .nullable()
      .optional(),
  })
  .refine((c) => Date.parse(c.endTime) > Date.parse(c.startTime), {
    message: 'End time must be after start time',
    path: ['endTime'],
  });
export type CoverageRequestInput = z.infer<typeof CoverageRequestInputSchema>;

export const CoverageRequestSchema = z.object({
  id: z.number().int(),
  rotationId: z.number().int(),
  requester: PersonSchema,
  coveringUser: PersonSchema,
  startTime: z.string(),
  endTime: z.string(),
  notes: z.string().nullable(),
  status: z.string(),
});
export type CoverageRequest = z.infer<typeof CoverageRequestSchema>;

/** PageInputSchema is the body of POST /api/rotations/{id}/page. */
export const PageInputSchema = z.object({
  message: text({
    label: 'Message',
    multiline: true,
    trim: true,
    error: 'Please enter a message',
  })
    .min(1, 'Please enter a message')
    .max(2000),
  urgency: z.enum(URGENCIES).default('high'),
});
export type PageInput = z.input<typeof PageInputSchema>;

export const PageResponseSchema = z.object({ sentTo: z.object({ name: z.string() }) });

/** HandoffSchema is a handoff record as /api/handoffs/recent answers it. */
export const HandoffSchema = z.object({
  id: z.number().int(),
  status: z.string(),
  /** take, start, pass, reassign, auto, schedule, coverage, coverage_end, member_removed */
  kind: z.string(),
  fromUser: PersonSchema.nullable(),
  toUser: PersonSchema.nullable(),
  rotation: z.object({ id: z.number().int(), name: z.string() }),
  timestamp: z.string(),
  notes: z.string().optional(),
  urgent: z.boolean(),
  acknowledgedAt: z.string().nullable(),
});
export type Handoff = z.infer<typeof HandoffSchema>;
