import { TZDate } from '@date-fns/tz';

export type CoverageErrors = Partial<
  Record<'coveringUserId' | 'startTime' | 'endTime' | 'form', string>
>;

/**
 * fromLocalInput returns the instant a datetime-local value names in `timeZone`, or null when it
 * is not one. The input itself has no zone: the browser would read it in its own.
 */
export function fromLocalInput(value: string, timeZone: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number);
  const at = new TZDate(year, month - 1, day, hour, minute, timeZone);
  return Number.isNaN(at.getTime()) ? null : new Date(at.getTime());
}

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
