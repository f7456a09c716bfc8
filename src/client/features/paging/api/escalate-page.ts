import { ErrorCodes } from '@shared/contracts/errors';
import type { EscalatePageInput, Page } from '@shared/contracts/paging';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshPageViews } from '@/lib/shared-reads';

export type EscalatePageVariables = { page: Pick<Page, 'id' | 'rotation'> } & EscalatePageInput;

/**
 * useEscalatePage hands a page to the next person, with a reason and the step it showed
 * (POST /api/pages/{id}/escalate); a page that moved on first is the error toast's 409.
 */
export function useEscalatePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ page, reason, fromStep }: EscalatePageVariables) =>
      apiRequest<Page>('POST', `/api/pages/${page.id}/escalate`, {
        reason: reason.trim(),
        fromStep,
      }),
    onSuccess: (page) => {
      notifySuccess(
        'Page escalated',
        `The page went to ${page.target?.name ?? 'the next person'}.`,
      );
      return refreshPageViews(queryClient, page.rotation.id);
    },
    onError: async (error, { page }) => {
      notifyError('Error escalating page', error, 'The page could not be escalated.');
      // Someone moved it first (decision 236): show where it is now.
      if (
        error instanceof ApiRequestError &&
        error.body?.code === ErrorCodes.INCIDENT_ALREADY_ESCALATED
      ) {
        await refreshPageViews(queryClient, page.rotation.id);
      }
    },
  });
}
