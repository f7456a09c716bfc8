import { z } from 'zod';
import { idText, instant, text } from './primitives';

/**
 * Contracts of time off (issue 18, decision 217): `GET`, `POST /api/users/{id}/time-off`,
 * `DELETE /api/users/{id}/time-off/{entryId}`, and the warnings the dashboard and the rotation
 * page show (`GET /api/time-off/warnings`).
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
