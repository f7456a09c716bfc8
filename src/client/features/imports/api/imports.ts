import type { ImportPlan, ImportRequest, ImportVerify } from '@shared/contracts/imports';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * The import screen's three calls (issue 34): read the source into a plan, apply it, verify it.
 * Each is a person's explicit action, so each is a mutation: nothing is read again behind their
 * back (a plan reads the source, which may be slow and costs the source's rate limit).
 */

/** useMakeImportPlan reads the source (POST /api/imports) and answers the plan; nothing is written. */
export function useMakeImportPlan() {
  return useMutation({
    mutationFn: (request: ImportRequest) => apiRequest<ImportPlan>('POST', '/api/imports', request),
  });
}

/** useApplyImport applies a plan (POST /api/imports/{id}/apply) in one transaction. */
export function useApplyImport() {
  return useMutation({
    mutationFn: (id: number) => apiRequest<ImportPlan>('POST', `/api/imports/${id}/apply`),
  });
}

/** useVerifyImport compares Baton's next 90 days with the source's (GET /api/imports/{id}/verify). */
export function useVerifyImport() {
  return useMutation({
    mutationFn: (id: number) => apiRequest<ImportVerify>('GET', `/api/imports/${id}/verify`),
  });
}
