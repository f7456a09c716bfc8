import type { Destination, DestinationChange } from '@shared/contracts/destinations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { destinationsQueryKey } from './keys';

/** useUpdateDestination changes a destination's events, digest time or URL (PATCH). */
export function useUpdateDestination() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, change }: { id: number; change: DestinationChange }) =>
      apiRequest<Destination>('PATCH', `/api/destinations/${id}`, change),
    onSuccess: async () => {
      notifySuccess('Destination saved');
      await queryClient.invalidateQueries({ queryKey: destinationsQueryKey });
    },
  });
}
