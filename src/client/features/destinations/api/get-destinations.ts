import type { DestinationList } from '@shared/contracts/destinations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type DestinationScope, destinationListQueryKey, scopeQuery } from './keys';

/** Failing state and last delivery move as the outbox works; read again this often. */
const LIST_POLL_MS = 15_000;

/** destinationsQuery reads the destinations of a scope (GET /api/destinations?…). */
export function destinationsQuery(scope: DestinationScope) {
  return queryOptions({
    queryKey: destinationListQueryKey(scope),
    queryFn: ({ signal }) =>
      apiRequest<DestinationList>('GET', `/api/destinations?${scopeQuery(scope)}`, undefined, {
        signal,
      }),
    refetchInterval: LIST_POLL_MS,
  });
}

/** useDestinations reads the destinations of a rotation, a policy, an integration or a kind. */
export function useDestinations(scope: DestinationScope) {
  return useQuery(destinationsQuery(scope));
}
