import type { Incident } from '@shared/contracts/incidents';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { incidentQueryKey } from './keys';

/** TRIGGERED_POLL_MS: a triggered incident is read again this often, so its timeline fills. */
const TRIGGERED_POLL_MS = 10_000;

/**
 * useIncident reads one incident with its timeline (GET /api/incidents/{id}); read again every
 * 10 s while it is triggered (steps are reached and notifications sent on the server's clock).
 */
export function useIncident(incidentId: number) {
  return useQuery(
    queryOptions<Incident>({
      queryKey: incidentQueryKey(incidentId),
      refetchInterval: (query) =>
        query.state.data?.status === 'triggered' ? TRIGGERED_POLL_MS : false,
      refetchOnMount: 'always',
      refetchOnWindowFocus: true,
    }),
  );
}
