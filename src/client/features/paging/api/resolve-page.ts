import type { Page } from '@shared/contracts/paging';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshPageViews } from '@/lib/shared-reads';

/** useResolvePage closes a page (POST /api/pages/{id}/resolve). */
export function useResolvePage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (page: Pick<Page, 'id' | 'rotation'>) =>
      apiRequest<Page>('POST', `/api/pages/${page.id}/resolve`),
    onSuccess: (page) => {
      notifySuccess('Page resolved', `The page for ${page.rotation.name} is closed.`);
      return refreshPageViews(queryClient, page.rotation.id);
    },
    onError: (error) =>
      notifyError('Error resolving page', error, 'The page could not be resolved.'),
  });
}
