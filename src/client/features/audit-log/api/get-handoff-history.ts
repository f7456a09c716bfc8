import type { HandoffHistoryPage } from '@shared/contracts/audit';
import { AUDIT_LOG_PAGE_SIZE } from '@shared/contracts/audit';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * What the Audit Log filters the handoff history by; empty values mean no filter. rotationId
 * (from the page's ?rotationId=) limits it to one rotation.
 */
export type HandoffHistoryFilter = { search: string; status: string; rotationId?: number | null };

/** handoffHistoryParams returns the query string of a history read (without the cursor). */
export function handoffHistoryParams(filter: HandoffHistoryFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.search.trim()) params.set('search', filter.search.trim());
  if (filter.status) params.set('status', filter.status);
  if (filter.rotationId) params.set('rotationId', String(filter.rotationId));
  return params;
}

/**
 * handoffHistoryQueryOptions reads the handoff history page by page (GET
 * /api/audit-log/handoffs), 20 entries a page; the server filters and pages.
 */
const handoffHistoryQueryOptions = (filter: HandoffHistoryFilter) =>
  infiniteQueryOptions({
    queryKey: ['/api/audit-log/handoffs', filter] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = handoffHistoryParams(filter);
      params.set('limit', String(AUDIT_LOG_PAGE_SIZE));
      if (pageParam) params.set('before', pageParam);
      return apiRequest<HandoffHistoryPage>('GET', `/api/audit-log/handoffs?${params}`, undefined, {
        signal,
      });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // The history grows with every handoff: read it afresh on each visit.
    refetchOnMount: 'always',
  });

/** useHandoffHistory returns the filtered handoff history, newest first, and 'load more'. */
export function useHandoffHistory(filter: HandoffHistoryFilter) {
  return useInfiniteQuery(handoffHistoryQueryOptions(filter));
}
