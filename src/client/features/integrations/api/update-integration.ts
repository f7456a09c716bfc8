import type { Integration, IntegrationChange } from '@shared/contracts/integrations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { integrationsQueryKey } from './keys';

/**
 * useUpdateIntegration changes an integration's name or settings (PATCH /api/integrations/{id});
 * the lists are read again. A refusal is left to the form.
 */
export function useUpdateIntegration(integrationId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: IntegrationChange) =>
      apiRequest<Integration>('PATCH', `/api/integrations/${integrationId}`, change),
    onSuccess: async (integration) => {
      notifySuccess('Integration saved', integration.name);
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
    },
  });
}
