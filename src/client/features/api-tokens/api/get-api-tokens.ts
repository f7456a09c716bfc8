import type { ApiTokenList } from '@shared/contracts/api-tokens';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { allApiTokensQueryKey, apiTokensQueryKey } from './keys';

/**
 * apiTokensQuery reads the signed-in person's API tokens (GET /api/user/tokens), or with
 * `everyone` every person's (GET /api/admin/api-tokens, administrators); never the tokens.
 */
export function apiTokensQuery(everyone: boolean) {
  const path = everyone ? '/api/admin/api-tokens' : '/api/user/tokens';
  return queryOptions({
    queryKey: everyone ? allApiTokensQueryKey : apiTokensQueryKey,
    queryFn: ({ signal }) => apiRequest<ApiTokenList>('GET', path, undefined, { signal }),
  });
}

/** useApiTokens reads one's own tokens, or everyone's with `everyone` (administrators). */
export function useApiTokens(everyone = false) {
  return useQuery(apiTokensQuery(everyone));
}
