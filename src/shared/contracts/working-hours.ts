import { z } from 'zod';
import { text } from './primitives';

/**
 * A person's working hours (issue 33, decision 254): `PUT /api/users/{id}/working-hours` takes
 * `{ days, start, end, holdLowUrgency }` (days 0 = Sunday … 6 = Saturday, local 'HH:MM' in the
 * person's own zone); `GET` answers the same with `own` (false: none chosen yet, the default
 * shown) and the person's `timeZone` they are read in.
 */

const dayMessage = 'A day must be a number from 0 (Sunday) to 6 (Saturday)';
const weekday = z
  .number({ error: dayMessage })
  .int(dayMessage)
  .min(0, dayMessage)
  .max(6, dayMessage);
const localTime = (label: string) =>
  text({ label, error: `Enter the ${label.toLowerCase()} as HH:MM` }).regex(
    /^([01]\d|2[0-3]):[0-5]\d$/,
    `${label} must be HH:MM (24-hour)`,
  );

export const WorkingHoursSchema = z.object({
  days: z
    .array(weekday, { error: 'Choose the days you work' })
    .min(1, 'Choose at least one working day')
    .max(7, 'Choose each day at most once')
    .refine((days) => new Set(days).size === days.length, 'Each day may be chosen once'),
  start: localTime('Start time'),
  end: localTime('End time'),
  holdLowUrgency: z.boolean({ error: 'Say whether low urgency waits for your working hours' }),
});
export type WorkingHoursInput = z.infer<typeof WorkingHoursSchema>;

export const WorkingHoursAnswerSchema = WorkingHoursSchema.extend({
  /** true: the person chose these; false: none chosen, the default is shown (nothing held) */
  own: z.boolean(),
  /** the person's profile zone the hours are read in */
  timeZone: z.string(),
});
export type WorkingHoursAnswer = z.infer<typeof WorkingHoursAnswerSchema>;
