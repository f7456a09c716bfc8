import { CoverageRequestInputSchema } from '@shared/contracts/rotations';
import { z } from 'zod';
import { fromLocalInput } from '@/lib/format-time';
import { chosenPerson } from './chosen-person';

export type CoverageErrors = Partial<
  Record<'coveringUserId' | 'startTime' | 'endTime' | 'form', string>
>;

const FORM_ERROR_PATH = 'root';

/**
 * coverageFormSchema checks the coverage form (specification section 5) with the shared
 * contract's fields: a covering member, a start and an end read in `timeZone` (answered as
 * instants), the end after the start, and the requester on call (a form-wide error, `root`).
 */
export function coverageFormSchema({
  timeZone,
  requesterIsHolder,
}: {
  timeZone: string;
  requesterIsHolder: boolean;
}) {
  const { coveringUserId, startTime, endTime, notes } = CoverageRequestInputSchema.shape;
  const instantIn = (schema: typeof startTime) =>
    z
      .string()
      .transform((value) => fromLocalInput(value, timeZone)?.toISOString())
      .pipe(schema);
  return z
    .object({
      coveringUserId: chosenPerson(coveringUserId),
      startTime: instantIn(startTime),
      endTime: instantIn(endTime),
      notes,
    })
    .superRefine((request, ctx) => {
      if (Date.parse(request.endTime) <= Date.parse(request.startTime)) {
        ctx.addIssue({
          code: 'custom',
          path: ['endTime'],
          message: 'End time must be after start time',
        });
      }
      if (!requesterIsHolder) {
        ctx.addIssue({
          code: 'custom',
          path: [FORM_ERROR_PATH],
          message: 'You must be on-call to request coverage',
        });
      }
    });
}

/** The coverage form as typed: the person select's value and datetime-local values. */
export type CoverageFormValues = z.input<ReturnType<typeof coverageFormSchema>>;

/**
 * validateCoverage returns the coverage form's errors by field (the form-wide one as `form`),
 * as the form shows them: the first message of each field of coverageFormSchema.
 */
export function validateCoverage(
  input: Omit<CoverageFormValues, 'notes'> & { requesterIsHolder: boolean },
  timeZone = 'UTC',
): CoverageErrors {
  const { requesterIsHolder, ...values } = input;
  const parsed = coverageFormSchema({ timeZone, requesterIsHolder }).safeParse({
    ...values,
    notes: '',
  });
  const errors: CoverageErrors = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field =
      issue.path[0] === FORM_ERROR_PATH ? 'form' : (issue.path[0] as keyof CoverageErrors);
    errors[field] ??= issue.message;
  }
  return errors;
}
