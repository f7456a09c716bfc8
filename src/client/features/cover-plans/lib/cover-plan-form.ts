import { CoverPlanInputSchema } from '@shared/contracts/cover-plans';
import { z } from 'zod';
import { fromLocalInput } from '@/lib/format-time';

/** A shift the dialog offers to cover: whose, and when. */
export interface CoverableShift {
  userId: number;
  start: Date;
  end: Date;
}

/** The form's choice of window: one of the listed shifts (by index), or a custom one. */
export const CUSTOM_WINDOW = 'custom';

/**
 * coverPlanFormSchema checks the cover form with the shared contract's fields: a covering member,
 * a start and an end read in `timeZone` (answered as instants), the end after the start, and the
 * person covered (given, or chosen when arranging).
 */
export function coverPlanFormSchema(timeZone: string) {
  const { startTime, endTime, notes } = CoverPlanInputSchema.shape;
  const instantIn = (schema: typeof startTime) =>
    z
      .string()
      .transform((value) => fromLocalInput(value, timeZone)?.toISOString())
      .pipe(schema);
  const person = (message: string) =>
    z.string().min(1, message).transform(Number).pipe(z.number().int().min(1, message));
  return z
    .object({
      requesterId: person('Please select the person to cover'),
      window: z.string(),
      coveringUserId: person('Please select a team member to cover the window'),
      startTime: instantIn(startTime),
      endTime: instantIn(endTime),
      notes,
    })
    .superRefine((plan, ctx) => {
      if (Date.parse(plan.endTime) <= Date.parse(plan.startTime)) {
        ctx.addIssue({
          code: 'custom',
          path: ['endTime'],
          message: 'End time must be after start time',
        });
      }
    });
}

export type CoverPlanFormValues = z.input<ReturnType<typeof coverPlanFormSchema>>;
export type CoverPlanFormOutput = z.output<ReturnType<typeof coverPlanFormSchema>>;

/**
 * windowOf returns the instants a form's start and end name in `timeZone`, as ISO text, when
 * both are there and the end is after the start; else null (nothing to ask candidates for yet).
 */
export function windowOf(
  startTime: string,
  endTime: string,
  timeZone: string,
): { startTime: string; endTime: string } | null {
  const start = fromLocalInput(startTime, timeZone);
  const end = fromLocalInput(endTime, timeZone);
  if (!start || !end || end.getTime() <= start.getTime()) return null;
  return { startTime: start.toISOString(), endTime: end.toISOString() };
}

/** upcomingOf returns a person's shifts still to come (or running), clipped to start at `now`. */
export function upcomingOf(
  shifts: readonly CoverableShift[],
  userId: number,
  now: Date,
): CoverableShift[] {
  return shifts
    .filter((s) => s.userId === userId && s.end.getTime() > now.getTime())
    .map((s) => ({ ...s, start: new Date(Math.max(s.start.getTime(), now.getTime())) }))
    .sort((a, b) => a.start.getTime() - b.start.getTime());
}
