import type { ApiTokenInput, CreatedApiToken } from '@shared/contracts/api-tokens';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { allApiTokensQueryKey, apiTokensQueryKey } from './keys';

/**
 * useCreateApiToken makes a token (POST /api/user/tokens); the answer carries the token, this
 * once. A refusal is left to the form (field messages beside their fields, the rest above it).
 */
export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiTokenInput) =>
      apiRequest<CreatedApiToken>('POST', '/api/user/tokens', input),
    onSuccess: async (token) => {
      notifySuccess('API token created', `Copy ${token.name} now: it is shown only once.`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
        queryClient.invalidateQueries({ queryKey: allApiTokensQueryKey }),
      ]);
    },
  });
}
