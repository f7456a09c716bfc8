import type { IntegrationList } from '@shared/contracts/integrations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type IntegrationScope, integrationListQueryKey, scopeQuery } from './keys';

/** LIST_POLL_MS: last-used times and counts move as alerts arrive; read again this often. */
const LIST_POLL_MS = 30_000;

/**
 * integrationsQuery reads a rotation's or a policy's integrations (GET /api/integrations?…),
 * never with their keys: each has its key's last four characters, counts and last-used time.
 */
export function integrationsQuery(scope: IntegrationScope) {
  return queryOptions({
    queryKey: integrationListQueryKey(scope),
    queryFn: ({ signal }) =>
      apiRequest<IntegrationList>(
        'GET',
        scope === 'all' ? '/api/integrations' : `/api/integrations?${scopeQuery(scope)}`,
        undefined,
        { signal },
      ),
    refetchInterval: LIST_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/** useIntegrations reads the integrations of a rotation or a policy, or all the viewer may see. */
export function useIntegrations(scope: IntegrationScope) {
  return useQuery(integrationsQuery(scope));
}
