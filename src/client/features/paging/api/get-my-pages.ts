import type { Page } from '@shared/contracts/paging';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { myPagesQueryKey } from '@/lib/shared-reads';

/**
 * myPagesQueryOptions reads the unresolved pages sent to the signed-in user. Polled every 30 s
 * while shown, so a new page appears without a reload.
 */
const myPagesQueryOptions = () =>
  queryOptions<Page[]>({
    queryKey: myPagesQueryKey,
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });

/** useMyPages returns the pages waiting for the signed-in user (GET /api/user/pages). */
export function useMyPages() {
  return useQuery(myPagesQueryOptions());
}
