import type { IncidentList } from '@shared/contracts/incidents';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type IncidentFilters, incidentListQuery } from '../lib/incident-view';
import { incidentListQueryKey } from './keys';

/** LIST_POLL_MS: the list and its counts are read again this often while shown (until issue 19's SSE). */
const LIST_POLL_MS = 15_000;

/**
 * useIncidents reads GET /api/incidents for the filters, newest first, a page at a time: each
 * page's `nextBefore` is the next page's `before` ("Load more"). Polled every 15 s while shown,
 * so the counts on the status tabs stay live.
 */
export function useIncidents(filters: IncidentFilters) {
  const query = incidentListQuery(filters);
  return useInfiniteQuery({
    queryKey: incidentListQueryKey(query),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<IncidentList>(
        'GET',
        `/api/incidents?${incidentListQuery(filters, pageParam)}`,
        undefined,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextBefore,
    refetchInterval: LIST_POLL_MS,
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
    // While a new search or filter loads, the rows of the last one stay instead of a blank list.
    placeholderData: keepPreviousData,
  });
}
