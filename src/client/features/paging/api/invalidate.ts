import type { Page } from '@shared/contracts/paging';
import type { QueryClient } from '@tanstack/react-query';
import { myPagesQueryKey } from './get-my-pages';
import { pageDeliveryFailuresQueryKey } from './get-page-delivery-failures';
import { rotationPagesQueryKey } from './get-rotation-pages';

/** refreshPageViews refetches the reads a changed page appears in. */
export function refreshPageViews(queryClient: QueryClient, page: Pick<Page, 'rotation'>) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: myPagesQueryKey }),
    queryClient.invalidateQueries({ queryKey: pageDeliveryFailuresQueryKey }),
    queryClient.invalidateQueries({ queryKey: rotationPagesQueryKey(page.rotation.id) }),
  ]);
}
