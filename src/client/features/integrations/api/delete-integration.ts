import type { Integration } from '@shared/contracts/integrations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { integrationsQueryKey } from './keys';

/**
 * useDeleteIntegration deletes an integration (DELETE /api/integrations/{id}, 204): its key stops
 * working; the incidents it raised stay.
 */
export function useDeleteIntegration() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (integration: Pick<Integration, 'id' | 'name'>) =>
      apiRequest<void>('DELETE', `/api/integrations/${integration.id}`),
    onSuccess: async (_answer, integration) => {
      notifySuccess('Integration deleted', `${integration.name} no longer accepts alerts.`);
      await queryClient.invalidateQueries({ queryKey: integrationsQueryKey });
    },
    onError: (error) =>
      notifyError('Error deleting integration', error, 'The integration could not be deleted.'),
  });
}
