import type { Page } from '@shared/contracts/paging';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshPageViews } from '@/lib/shared-reads';

/** useAcknowledgePage acknowledges a page sent to the signed-in user (POST /api/pages/{id}/acknowledge). */
export function useAcknowledgePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (page: Pick<Page, 'id' | 'rotation'>) =>
      apiRequest<Page>('POST', `/api/pages/${page.id}/acknowledge`),
    onSuccess: (page) => {
      notifySuccess('Page acknowledged', `${page.pagedBy?.name ?? 'The pager'} will be told.`);
      return refreshPageViews(queryClient, page.rotation.id);
    },
    onError: (error) =>
      notifyError('Error acknowledging page', error, 'The page could not be acknowledged.'),
  });
}
