import type { CoverageRequestList } from '@shared/contracts/coverage';
import { queryOptions, useQuery } from '@tanstack/react-query';

import { coverageRequestsQueryKey } from '@/lib/shared-reads';

/** coverageRequestsQueryOptions reads the requests asking the signed-in user to cover, and theirs; every 30 s. */
const coverageRequestsQueryOptions = () =>
  queryOptions<CoverageRequestList>({
    queryKey: coverageRequestsQueryKey,
    staleTime: 10_000,
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
  });

/** useCoverageRequests returns { incoming, outgoing } coverage requests of the signed-in user. */
export function useCoverageRequests() {
  return useQuery(coverageRequestsQueryOptions());
}
