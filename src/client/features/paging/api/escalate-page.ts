import type { EscalatePageInput, Page } from '@shared/contracts/paging';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshPageViews } from '@/lib/shared-reads';

export type EscalatePageVariables = { page: Pick<Page, 'id' | 'rotation'> } & EscalatePageInput;

/** useEscalatePage hands a page to the next person, with a reason (POST /api/pages/{id}/escalate). */
export function useEscalatePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ page, reason }: EscalatePageVariables) =>
      apiRequest<Page>('POST', `/api/pages/${page.id}/escalate`, { reason: reason.trim() }),
    onSuccess: (page) => {
      notifySuccess(
        'Page escalated',
        `The page went to ${page.target?.name ?? 'the next person'}.`,
      );
      return refreshPageViews(queryClient, page.rotation.id);
    },
    onError: (error) =>
      notifyError('Error escalating page', error, 'The page could not be escalated.'),
  });
}
