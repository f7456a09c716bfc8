import type { IntegrationInput, IntegrationWithKey } from '@shared/contracts/integrations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { integrationsQueryKey } from './keys';

/**
 * useCreateIntegration creates an integration (POST /api/integrations); the answer carries its
 * key, this once. The lists are read again. A refusal is left to the form, which shows field
 * messages beside their fields and anything else in a toast.
 */
export function useCreateIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: IntegrationInput) =>
      apiRequest<IntegrationWithKey>('POST', '/api/integrations', input),
    onSuccess: async (integration) => {
      notifySuccess('Integration created', `Copy the key of ${integration.name} now.`);
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
    },
  });
}
