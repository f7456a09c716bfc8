import { TimeOffInputSchema } from '@shared/contracts/time-off';
import { z } from 'zod';
import { fromLocalInput } from '@/lib/format-time';

/**
 * timeOffFormSchema checks the time-off form with the shared contract's fields: a start and an
 * end read in `timeZone` (datetime-local values, answered as instants), the end after the start,
 * and an optional note.
 */
export function timeOffFormSchema(timeZone: string) {
  const { startTime, endTime, note } = TimeOffInputSchema.shape;
  const instantIn = (schema: typeof startTime) =>
    z
      .string()
      .transform((value) => fromLocalInput(value, timeZone)?.toISOString())
      .pipe(schema);
  return z
    .object({ startTime: instantIn(startTime), endTime: instantIn(endTime), note })
    .superRefine((entry, ctx) => {
      if (Date.parse(entry.endTime) <= Date.parse(entry.startTime)) {
        ctx.addIssue({
          code: 'custom',
          path: ['endTime'],
          message: 'End time must be after start time',
        });
      }
    });
}

/** The time-off form as typed: datetime-local values and the note. */
export type TimeOffFormValues = z.input<ReturnType<typeof timeOffFormSchema>>;
