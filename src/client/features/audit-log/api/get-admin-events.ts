import type { AdminEventsPage } from '@shared/contracts/audit';
import { AUDIT_LOG_PAGE_SIZE } from '@shared/contracts/audit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** What the administrative trail is filtered by; empty values mean no filter. */
export type AdminEventsFilter = { search: string; action: string };

/** adminEventsParams returns the query string of a trail read or export (without the cursor). */
export function adminEventsParams(filter: AdminEventsFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.search.trim()) params.set('search', filter.search.trim());
  if (filter.action) params.set('action', filter.action);
  return params;
}

/**
 * adminEventsQueryOptions reads the administrative audit trail (administrators only), newest
 * first, searched and filtered by action on the server, 20 events a page.
 */
export const adminEventsQueryOptions = (filter: AdminEventsFilter) =>
  infiniteQueryOptions({
    queryKey: ['/api/audit-log/admin-events', filter] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = adminEventsParams(filter);
      params.set('limit', String(AUDIT_LOG_PAGE_SIZE));
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

/** useAdminEvents returns the filtered administrative audit trail and 'load more'. */
export function useAdminEvents(filter: AdminEventsFilter) {
  return useInfiniteQuery(adminEventsQueryOptions(filter));
}
