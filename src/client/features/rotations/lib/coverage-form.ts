import { format } from 'date-fns';

export type CoverageErrors = Partial<
  Record<'coveringUserId' | 'startTime' | 'endTime' | 'form', string>
>;

/** toLocalInput returns a date as a datetime-local input value (local time, minutes). */
export const toLocalInput = (date: Date) => format(date, "yyyy-MM-dd'T'HH:mm");

/**
 * validateCoverage returns the coverage form's errors (specification section 5): a covering
 * member, a start and an end, the end after the start, and the requester on call.
 */
export function validateCoverage(input: {
  coveringUserId: string;
  startTime: string;
  endTime: string;
  requesterIsHolder: boolean;
}): CoverageErrors {
  const errors: CoverageErrors = {};
  if (!input.coveringUserId) errors.coveringUserId = 'Please select a team member to cover you';
  const start = Date.parse(input.startTime);
  const end = Date.parse(input.endTime);
  if (!input.startTime || Number.isNaN(start)) errors.startTime = 'Please select a start time';
  if (!input.endTime || Number.isNaN(end)) errors.endTime = 'Please select an end time';
  else if (!Number.isNaN(start) && end <= start)
    errors.endTime = 'End time must be after start time';
  if (!input.requesterIsHolder) errors.form = 'You must be on-call to request coverage';
  return errors;
}
