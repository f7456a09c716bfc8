import { z } from 'zod';
import { OPSGENIE_WEEKDAYS } from './opsgenie-windows';

/**
 * What Opsgenie's REST API v2 answers (issue 34, decision 271), as its published document
 * (opsgenie/opsgenie-oas) describes it, for the parts an import reads. Read leniently: fields
 * Baton does not use are ignored, and optional ones may be null or absent.
 */

export const wrapped = <T extends z.ZodType>(data: T) => z.object({ data });

export const UserSchema = z.object({
  id: z.string(),
  username: z.string(),
  fullName: z.string().nullish(),
  role: z.object({ name: z.string() }).nullish(),
  timeZone: z.string().nullish(),
});
export const UsersPageSchema = z.object({
  data: z.array(UserSchema),
  paging: z.object({ next: z.string().nullish() }).nullish(),
});

export const RecipientSchema = z.object({
  type: z.string(),
  id: z.string().nullish(),
  name: z.string().nullish(),
  username: z.string().nullish(),
});
export const TimeOfDaySchema = z.object({
  startHour: z.number().int().min(0).max(24),
  startMin: z.number().int().min(0).max(59),
  endHour: z.number().int().min(0).max(24),
  endMin: z.number().int().min(0).max(59),
});
export const RestrictionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('time-of-day'), restriction: TimeOfDaySchema }),
  z.object({
    type: z.literal('weekday-and-time-of-day'),
    restrictions: z.array(
      TimeOfDaySchema.extend({
        startDay: z.enum(OPSGENIE_WEEKDAYS),
        endDay: z.enum(OPSGENIE_WEEKDAYS),
      }),
    ),
  }),
]);
export const RotationSchema = z.object({
  id: z.string(),
  name: z.string().nullish(),
  startDate: z.iso.datetime({ offset: true }),
  endDate: z.iso.datetime({ offset: true }).nullish(),
  type: z.enum(['hourly', 'daily', 'weekly']),
  length: z.number().int().min(1).nullish(),
  participants: z.array(RecipientSchema),
  timeRestriction: RestrictionSchema.nullish(),
});
export const ScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  timezone: z.string(),
  enabled: z.boolean().nullish(),
  rotations: z.array(RotationSchema).nullish(),
});
export const OverrideSchema = z.object({
  alias: z.string().nullish(),
  user: RecipientSchema,
  startDate: z.iso.datetime({ offset: true }),
  endDate: z.iso.datetime({ offset: true }),
  rotations: z.array(z.object({ id: z.string().nullish(), name: z.string().nullish() })).nullish(),
});
export const PeriodSchema = z.object({
  startDate: z.iso.datetime({ offset: true }),
  endDate: z.iso.datetime({ offset: true }),
  type: z.string().nullish(),
  recipient: RecipientSchema.nullish(),
});
export const TimelineSchema = z.object({
  finalTimeline: z.object({
    rotations: z
      .array(
        z.object({
          id: z.string().nullish(),
          name: z.string().nullish(),
          order: z.number().nullish(),
          periods: z.array(PeriodSchema).nullish(),
        }),
      )
      .nullish(),
  }),
});
export const DurationSchema = z.object({
  timeAmount: z.number().min(0),
  timeUnit: z.string().nullish(),
});
export const EscalationSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullish(),
  rules: z.array(
    z.object({
      condition: z.string().nullish(),
      notifyType: z.string().nullish(),
      delay: DurationSchema,
      recipient: RecipientSchema,
    }),
  ),
  repeat: z
    .object({ waitInterval: z.number().nullish(), count: z.number().int().nullish() })
    .nullish(),
});
export const IntegrationMetaSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  enabled: z.boolean().nullish(),
});
export const IntegrationSchema = z.object({
  ownerTeam: z.object({ id: z.string().nullish(), name: z.string().nullish() }).nullish(),
  recipients: z.array(RecipientSchema).nullish(),
});
export const RoutingRuleSchema = z.object({
  name: z.string().nullish(),
  isDefault: z.boolean().nullish(),
  order: z.number().nullish(),
  notify: RecipientSchema.nullish(),
});

export type Rotation = z.infer<typeof RotationSchema>;
export type Schedule = z.infer<typeof ScheduleSchema>;
export type Override = z.infer<typeof OverrideSchema>;
export type Timeline = z.infer<typeof TimelineSchema>;
export type Escalation = z.infer<typeof EscalationSchema>;
export type Recipient = z.infer<typeof RecipientSchema>;
