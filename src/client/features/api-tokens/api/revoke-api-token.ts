import type { ApiToken } from '@shared/contracts/api-tokens';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { allApiTokensQueryKey, apiTokensQueryKey } from './keys';

/**
 * useRevokeApiToken revokes a token (DELETE /api/user/tokens/{id}, 204): it stops working on
 * every instance from the next request. Administrators revoke anyone's the same way.
 */
export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: Pick<ApiToken, 'id' | 'name'>) =>
      apiRequest<void>('DELETE', `/api/user/tokens/${token.id}`),
    onSuccess: async (_answer, token) => {
      notifySuccess('API token revoked', `${token.name} no longer works.`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
        queryClient.invalidateQueries({ queryKey: allApiTokensQueryKey }),
      ]);
    },
    onError: (error) =>
      notifyError('Error revoking API token', error, 'The API token could not be revoked.'),
  });
}
