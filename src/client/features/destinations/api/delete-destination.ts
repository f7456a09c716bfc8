import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { destinationsQueryKey } from './keys';

/** useDeleteDestination deletes a destination with its delivery log. */
export function useDeleteDestination() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<void>('DELETE', `/api/destinations/${id}`),
    onSuccess: async () => {
      notifySuccess('Destination deleted');
      await queryClient.invalidateQueries({ queryKey: destinationsQueryKey });
    },
    onError: (error) =>
      notifyError('Error deleting destination', error, 'The destination could not be deleted.'),
  });
}
