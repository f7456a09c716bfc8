import type { IncidentList } from '@shared/contracts/incidents';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { myIncidentsQueryKey } from './keys';

/**
 * useMyIncidents reads the open incidents that notified the signed-in user (GET
 * /api/incidents?mine=true&open=true), for the dashboard. Polled every 15 s while shown.
 */
export function useMyIncidents() {
  return useQuery(
    queryOptions({
      queryKey: myIncidentsQueryKey,
      queryFn: ({ signal }) =>
        apiRequest<IncidentList>('GET', '/api/incidents?mine=true&open=true&limit=20', undefined, {
          signal,
        }),
      refetchInterval: 15_000,
      refetchOnWindowFocus: true,
      refetchOnMount: 'always',
    }),
  );
}
