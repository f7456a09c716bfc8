import { ApiRequestError } from '@/lib/api-client';

/**
 * fieldErrorsOf returns the server's messages per field of a refused form (400 with `fields` in
 * the one error shape), only for the fields the form has; null when there are none to show
 * beside a field (the caller then shows the message in a toast).
 */
export function fieldErrorsOf<F extends string>(
  error: unknown,
  formFields: readonly F[],
): Partial<Record<F, string>> | null {
  if (!(error instanceof ApiRequestError) || error.status !== 400) return null;
  const fields = error.body?.fields;
  if (!fields) return null;
  const out: Partial<Record<F, string>> = {};
  let any = false;
  for (const name of formFields) {
    const message = fields[name];
    if (message) {
      out[name] = message;
      any = true;
    }
  }
  return any ? out : null;
}
