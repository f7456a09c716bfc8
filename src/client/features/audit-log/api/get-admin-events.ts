import type { AdminEventsPage } from '@shared/contracts/audit';
import { AUDIT_LOG_PAGE_SIZE } from '@shared/contracts/audit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** adminEventsQueryOptions reads the administrative audit trail (administrators only), newest first. */
const adminEventsQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['/api/audit-log/admin-events'] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(AUDIT_LOG_PAGE_SIZE) });
      if (pageParam) params.set('before', String(pageParam));
      return apiRequest<AdminEventsPage>(
        'GET',
        `/api/audit-log/admin-events?${params}`,
        undefined,
        { signal },
      );
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
  });

/** useAdminEvents returns the administrative audit trail and 'load more'. */
export function useAdminEvents() {
  return useInfiniteQuery(adminEventsQueryOptions());
}
