import type { AlertList } from '@shared/contracts/integrations';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { integrationAlertsQueryKey } from './keys';

/**
 * useIntegrationAlerts reads an integration's recent alerts (GET /api/integrations/{id}/alerts),
 * newest first, a page at a time: each page's `nextCursor` is the next page's `before`
 * ("Load more"). Read only while the list is open.
 */
export function useIntegrationAlerts(integrationId: number, { enabled }: { enabled: boolean }) {
  return useInfiniteQuery({
    queryKey: integrationAlertsQueryKey(integrationId),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<AlertList>(
        'GET',
        `/api/integrations/${integrationId}/alerts${pageParam === null ? '' : `?before=${pageParam}`}`,
        undefined,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    refetchOnWindowFocus: true,
  });
}
