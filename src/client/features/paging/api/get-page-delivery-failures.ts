import type { PageDeliveryFailure } from '@shared/contracts/paging';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { pageDeliveryFailuresQueryKey } from '@/lib/shared-reads';

/**
 * pageDeliveryFailuresQueryOptions reads what the signed-in user paged that could not be
 * delivered (decision 163). Polled every 15 s while shown, so the pager learns of it at once.
 */
const pageDeliveryFailuresQueryOptions = () =>
  queryOptions<PageDeliveryFailure[]>({
    queryKey: pageDeliveryFailuresQueryKey,
    refetchInterval: 15_000,
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });

/** usePageDeliveryFailures returns GET /api/user/page-delivery-failures. */
export function usePageDeliveryFailures() {
  return useQuery(pageDeliveryFailuresQueryOptions());
}
