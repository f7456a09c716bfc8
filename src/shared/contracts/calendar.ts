import { z } from 'zod';
import { instant as instantText } from './primitives';
import { LAYER_CADENCES, PersonSchema, ROTATION_TYPES } from './rotations';

/** Contracts of the calendar read and the calendar feeds (decisions 056 and 057). */

/** The widest span one calendar read covers: a month grid (six weeks) with room to spare. */
export const CALENDAR_MAX_DAYS = 62;

const instant = (name: string) =>
  instantText({ label: name, message: `${name} must be a date and time (ISO 8601)` });

/** CalendarQuerySchema is the query of GET /api/calendar: the span to show, [from, to). */
export const CalendarQuerySchema = z
  .object({ from: instant('from'), to: instant('to') })
  .refine((q) => Date.parse(q.to) > Date.parse(q.from), {
    message: 'to must be after from',
    path: ['to'],
  })
  .refine((q) => Date.parse(q.to) - Date.parse(q.from) <= CALENDAR_MAX_DAYS * 86_400_000, {
    message: `The calendar shows at most ${CALENDAR_MAX_DAYS} days at a time`,
    path: ['to'],
  });
export type CalendarQuery = z.infer<typeof CalendarQuerySchema>;

export const SHIFT_SOURCES = ['history', 'rotation', 'schedule', 'coverage'] as const;

/** A stretch of time one person holds a rotation's baton. */
export const CalendarShiftSchema = z.object({
  userId: z.number().int(),
  /** ISO */
  start: z.string(),
  /** ISO */
  end: z.string(),
  /** history: recorded; rotation / schedule: projected; coverage: an accepted coverage window */
  source: z.enum(SHIFT_SOURCES),
  /** coverage ahead: whose shift the window covers (decision 218) */
  coveredUserId: z.number().int().optional(),
});
export type CalendarShift = z.infer<typeof CalendarShiftSchema>;

/** A stretch of a fixed rotation nobody available holds: every member is away (decision 217). */
export const CalendarGapSchema = z.object({
  /** ISO */
  start: z.string(),
  /** ISO */
  end: z.string(),
});
export type CalendarGap = z.infer<typeof CalendarGapSchema>;

export const CalendarRotationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.enum(ROTATION_TYPES),
  cadence: z.enum(LAYER_CADENCES),
  /** the rotation's pattern in words, as the rotation read says it (decision 247) */
  pattern: z.string(),
  /** the rotation's members in turn order: whose rotations they are (issue 35, decision 259) */
  memberIds: z.array(z.number().int()),
  suspended: z.boolean(),
  timeZone: z.string(),
  shifts: z.array(CalendarShiftSchema),
  /** the projection's gaps in the span, from now on (issue 18) */
  gaps: z.array(CalendarGapSchema),
});
export type CalendarRotation = z.infer<typeof CalendarRotationSchema>;

/** A stretch of a member's time off, as the calendar shows it (no note: that is personal). */
export const CalendarTimeOffSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  /** ISO */
  start: z.string(),
  /** ISO */
  end: z.string(),
});
export type CalendarTimeOff = z.infer<typeof CalendarTimeOffSchema>;

/**
 * CalendarSchema is GET /api/calendar: every rotation's shifts (and gaps) in the span, the time
 * off of their members that overlaps it (issue 18), and the people in them.
 */
export const CalendarSchema = z.object({
  from: z.string(),
  to: z.string(),
  rotations: z.array(CalendarRotationSchema),
  timeOff: z.array(CalendarTimeOffSchema),
  people: z.array(PersonSchema),
});
export type Calendar = z.infer<typeof CalendarSchema>;

/** CalendarFeedStatusSchema is GET /api/calendar/feed: whether the user has feed links. */
export const CalendarFeedStatusSchema = z.object({ active: z.boolean() });
export type CalendarFeedStatus = z.infer<typeof CalendarFeedStatusSchema>;

/**
 * CalendarFeedLinksSchema is POST /api/calendar/feed/reset: the new secret links (shown once;
 * only a hash of the secret is stored). Any old links stop working.
 */
export const CalendarFeedLinksSchema = z.object({
  /** the user's own shifts in every rotation */
  personalUrl: z.string(),
  /** one rotation's shifts: replace {rotationId} */
  rotationUrlTemplate: z.string(),
  rotations: z.array(z.object({ id: z.number().int(), name: z.string(), url: z.string() })),
});
export type CalendarFeedLinks = z.infer<typeof CalendarFeedLinksSchema>;
