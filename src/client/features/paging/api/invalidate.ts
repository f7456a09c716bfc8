import type { QueryClient } from '@tanstack/react-query';
import { myPagesQueryKey } from './get-my-pages';
import { pageDeliveryFailuresQueryKey } from './get-page-delivery-failures';
import { rotationPagesQueryKey } from './get-rotation-pages';

/**
 * refreshPageViews refetches the reads a new or changed page of a rotation appears in: the
 * signed-in user's pages (the dashboard panel and the pages screen), their delivery failures and
 * the rotation's page history. A page answer cannot be written into them directly: each is
 * filtered and ordered by the server (open pages first, failures only), so it is read again.
 */
export function refreshPageViews(queryClient: QueryClient, rotationId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: myPagesQueryKey }),
    queryClient.invalidateQueries({ queryKey: pageDeliveryFailuresQueryKey }),
    queryClient.invalidateQueries({ queryKey: rotationPagesQueryKey(rotationId) }),
  ]);
}
