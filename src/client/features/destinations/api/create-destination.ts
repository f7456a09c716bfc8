import type { DestinationCreated, DestinationInput } from '@shared/contracts/destinations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { destinationsQueryKey } from './keys';

/**
 * useCreateDestination adds a destination (POST /api/destinations); a webhook's answer carries
 * its signing secret, this once. A refusal is left to the form.
 */
export function useCreateDestination() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DestinationInput) =>
      apiRequest<DestinationCreated>('POST', '/api/destinations', input),
    onSuccess: async (created) => {
      notifySuccess(
        'Destination added',
        created.secret ? 'Copy its signing secret now: it is shown once.' : undefined,
      );
      await queryClient.invalidateQueries({ queryKey: destinationsQueryKey });
    },
  });
}
