import type { IntegrationWithKey } from '@shared/contracts/integrations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { integrationsQueryKey } from './keys';

/**
 * useRegenerateKey gives an integration a new key (POST /api/integrations/{id}/key); the old key
 * stops working at once, and the answer carries the new one, this once.
 */
export function useRegenerateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (integrationId: number) =>
      apiRequest<IntegrationWithKey>('POST', `/api/integrations/${integrationId}/key`),
    onSuccess: async (integration) => {
      notifySuccess('Key regenerated', `The old key of ${integration.name} no longer works.`);
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
    },
    onError: (error) =>
      notifyError('Error regenerating key', error, 'The key could not be regenerated.'),
  });
}
