import { z } from 'zod';

/**
 * ScheduleFormSchema checks the add-schedule form (specification section 5): userId is the
 * select's string, the times ISO strings; the end must come after the start.
 */
export const ScheduleFormSchema = z
  .object({
    userId: z.string().min(1, 'Please select a team member'),
    startTime: z
      .string()
      .refine((s) => !Number.isNaN(Date.parse(s)), 'Start time must be a valid date and time'),
    endTime: z
      .string()
      .refine((s) => !Number.isNaN(Date.parse(s)), 'End time must be a valid date and time'),
  })
  .refine(
    (v) => {
      const start = Date.parse(v.startTime);
      const end = Date.parse(v.endTime);
      // An unreadable time has its own message; the order is judged only between two real times.
      return Number.isNaN(start) || Number.isNaN(end) || end > start;
    },
    {
      message: 'End time must be after start time',
      path: ['endTime'],
    },
  );
export type ScheduleFormValues = z.infer<typeof ScheduleFormSchema>;
export type ScheduleFormErrors = Partial<Record<keyof ScheduleFormValues, string>>;

/** validateScheduleForm returns the first error of each field, or an empty object. */
export function validateScheduleForm(values: ScheduleFormValues): ScheduleFormErrors {
  const result = ScheduleFormSchema.safeParse(values);
  if (result.success) return {};
  const errors: ScheduleFormErrors = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as keyof ScheduleFormValues;
    errors[field] ??= issue.message;
  }
  return errors;
}
