import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api-client';

/** notifyError shows a destructive toast with the server's message, or the fallback. */
export function notifyError(title: string, error: unknown, fallback: string): void {
  toast({ variant: 'destructive', title, description: getErrorMessage(error, fallback) });
}

/** notifySuccess shows a success toast. */
export function notifySuccess(title: string, description?: string): void {
  toast({ title, description });
}

export const FORM_SUBMISSION_ERROR = {
  title: 'Form submission error',
  description: 'There was an error submitting the form. Please try again.',
} as const;

/**
 * guardSubmission runs a form's submit handler; an unexpected exception from it (not a failed
 * request, which the mutation reports itself) becomes the 'Form submission error' toast instead
 * of an unhandled rejection that would leave the user with no feedback.
 */
export async function guardSubmission(
  submit: () => unknown,
  report: (error: unknown) => void = () =>
    toast({ variant: 'destructive', ...FORM_SUBMISSION_ERROR }),
): Promise<void> {
  try {
    await submit();
  } catch (error) {
    report(error);
  }
}
