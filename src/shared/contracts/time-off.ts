import { z } from 'zod';
import { idText, instant, text } from './primitives';

/**
 * Contracts of time off (issue 18, decision 217): `GET`, `POST /api/users/{id}/time-off`,
 * `DELETE /api/users/{id}/time-off/{entryId}`, and the warnings the dashboard and the rotation
 * page show (`GET /api/time-off/warnings`); the impact before saving
 * (`POST /api/users/{id}/time-off/preview`) and the team's list (`GET /api/time-off`), decision 256.
 */

/** The longest note on an entry of time off. */
export const TIME_OFF_NOTE_MAX = 500;

/** TimeOffInputSchema is the body of POST /api/users/{id}/time-off. */
export const TimeOffInputSchema = z
  .object({
    startTime: instant({
      label: 'Start time',
      message: 'Start time must be a valid date and time',
    }),
    endTime: instant({ label: 'End time', message: 'End time must be a valid date and time' }),
    note: text({ label: 'Note', multiline: true, trim: true })
      .max(TIME_OFF_NOTE_MAX, `Note must be at most ${TIME_OFF_NOTE_MAX} characters`)
      .nullable()
      .optional(),
  })
  .refine((s) => Date.parse(s.endTime) > Date.parse(s.startTime), {
    message: 'End time must be after start time',
    path: ['endTime'],
  });
export type TimeOffInput = z.infer<typeof TimeOffInputSchema>;

/** TimeOffEntrySchema is one entry of a person's time off, as they and their managers read it. */
export const TimeOffEntrySchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  /** ISO */
  startTime: z.string(),
  /** ISO */
  endTime: z.string(),
  /** personal: only the person, their rotations' managers and administrators read it */
  note: z.string().nullable(),
  /** who recorded it, when not the person themself; null when they did (or that account is gone) */
  recordedBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  createdAt: z.string(),
});
export type TimeOffEntry = z.infer<typeof TimeOffEntrySchema>;

/** TimeOffListSchema is GET /api/users/{id}/time-off: the entries under way or to come, earliest first. */
export const TimeOffListSchema = z.object({ entries: z.array(TimeOffEntrySchema) });
export type TimeOffList = z.infer<typeof TimeOffListSchema>;

/**
 * ShiftMoveSchema is one stretch of a rotation whose holder a proposed entry of time off would
 * change (decision 256): from whom, to whom (null: nobody would hold it).
 */
export const ShiftMoveSchema = z.object({
  rotationId: z.number().int(),
  rotationName: z.string(),
  /** the rotation's zone, for the dates the dialog writes */
  timeZone: z.string(),
  /** ISO */
  start: z.string(),
  end: z.string(),
  from: z.object({ id: z.number().int(), name: z.string() }),
  to: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type ShiftMove = z.infer<typeof ShiftMoveSchema>;

/**
 * TimeOffImpactSchema is POST /api/users/{id}/time-off/preview: what recording the entry would
 * change in the next TIME_OFF_IMPACT_DAYS, nothing written (decision 256).
 */
export const TimeOffImpactSchema = z.object({
  /** ISO: the span compared */
  from: z.string(),
  to: z.string(),
  moves: z.array(ShiftMoveSchema),
});
export type TimeOffImpact = z.infer<typeof TimeOffImpactSchema>;

/** How far ahead the impact of time off is shown. */
export const TIME_OFF_IMPACT_DAYS = 56;

/** TeamTimeOffEntrySchema is one entry of GET /api/time-off, with the person it is for. */
export const TeamTimeOffEntrySchema = TimeOffEntrySchema.extend({
  person: z.object({ id: z.number().int(), name: z.string() }),
});
export type TeamTimeOffEntry = z.infer<typeof TeamTimeOffEntrySchema>;

/**
 * TeamTimeOffSchema is GET /api/time-off (decision 256): the time off under way or to come of the
 * people whose time off the caller manages (administrators: everyone; managers: the people in
 * the rotations they manage, and themselves; anyone else: their own), earliest first.
 */
export const TeamTimeOffSchema = z.object({ entries: z.array(TeamTimeOffEntrySchema) });
export type TeamTimeOff = z.infer<typeof TeamTimeOffSchema>;

/** A stretch of a rotation that nobody available holds: every member is away (decision 217). */
export const GapWarningSchema = z.object({
  rotationId: z.number().int(),
  rotationName: z.string(),
  /** ISO */
  start: z.string(),
  /** ISO */
  end: z.string(),
});
export type GapWarning = z.infer<typeof GapWarningSchema>;

/** A scheduled rotation's entry whose person is away for part of it. */
export const ScheduleCollisionSchema = z.object({
  rotationId: z.number().int(),
  rotationName: z.string(),
  scheduleEntryId: z.number().int(),
  person: z.object({ id: z.number().int(), name: z.string() }),
  /** the entry, ISO */
  entryStart: z.string(),
  entryEnd: z.string(),
  /** the time off it collides with, ISO */
  awayStart: z.string(),
  awayEnd: z.string(),
});
export type ScheduleCollision = z.infer<typeof ScheduleCollisionSchema>;

/**
 * TimeOffWarningsSchema is GET /api/time-off/warnings: the gaps in the next GAP_WARNING_DAYS and
 * the upcoming schedule entries that collide with time off, of every rotation the viewer sees (or
 * of `rotationId`).
 */
export const TimeOffWarningsSchema = z.object({
  /** ISO: the span the gaps were looked for in */
  from: z.string(),
  to: z.string(),
  gaps: z.array(GapWarningSchema),
  collisions: z.array(ScheduleCollisionSchema),
});
export type TimeOffWarnings = z.infer<typeof TimeOffWarningsSchema>;

/** TimeOffWarningsQuerySchema is the query of GET /api/time-off/warnings: one rotation's, or all. */
export const TimeOffWarningsQuerySchema = z.object({
  rotationId: idText({ label: 'rotationId' }).optional(),
});
export type TimeOffWarningsQuery = z.input<typeof TimeOffWarningsQuerySchema>;
