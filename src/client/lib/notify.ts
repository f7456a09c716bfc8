import type { ReactNode } from 'react';
import { toast } from '@/components/ui/use-toast';
import { getErrorMessage } from '@/lib/api-client';

/*
 * The one toast helper (decision 194): every screen and write tells the user what happened
 * through these, never through `toast` itself, so a success reads the same everywhere and a
 * failure is always the destructive toast with the server's reason when it gave one.
 */

type NotifyOptions = { duration?: number };

/** notifySuccess shows a success toast; the description may hold a link (a ReactNode). */
export function notifySuccess(title: string, description?: ReactNode): void {
  toast({ title, description });
}

/** notifyFailure shows a destructive toast with a fixed text. */
export function notifyFailure(title: string, description: string, options: NotifyOptions = {}) {
  toast({ variant: 'destructive', title, description, ...options });
}

/** notifyError shows a destructive toast with the server's message, or the fallback. */
export function notifyError(
  title: string,
  error: unknown,
  fallback: string,
  options: NotifyOptions = {},
): void {
  notifyFailure(title, getErrorMessage(error, fallback), options);
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
    notifyFailure(FORM_SUBMISSION_ERROR.title, FORM_SUBMISSION_ERROR.description),
): Promise<void> {
  try {
    await submit();
  } catch (error) {
    report(error);
  }
}
