import type { AlertList } from '@shared/contracts/integrations';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { incidentAlertsQueryKey } from './keys';

/** ALERTS_POLL_MS: an open incident's alerts are read again this often (until issue 19's SSE). */
const ALERTS_POLL_MS = 15_000;

/**
 * useIncidentAlerts reads the alert events an incident took in (GET /api/incidents/{id}/alerts),
 * newest first, a page at a time ("Load more" passes `nextCursor` as `before`). Under the
 * incident's key; read again every 15 s while the incident is open.
 */
export function useIncidentAlerts(
  incidentId: number,
  { enabled, open }: { enabled: boolean; open: boolean },
) {
  return useInfiniteQuery({
    queryKey: incidentAlertsQueryKey(incidentId),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<AlertList>(
        'GET',
        `/api/incidents/${incidentId}/alerts${pageParam === null ? '' : `?before=${pageParam}`}`,
        undefined,
        { signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    // While the incident is open its source may send more (repeats, a resolve).
    refetchInterval: open ? ALERTS_POLL_MS : false,
    refetchOnWindowFocus: true,
  });
}
