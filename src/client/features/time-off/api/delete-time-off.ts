import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshAfterTimeOff } from './keys';

/** useDeleteTimeOff takes an entry of time off back (DELETE /api/users/{id}/time-off/{entryId}). */
export function useDeleteTimeOff(personId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (entryId: number) =>
      apiRequest<void>('DELETE', `/api/users/${personId}/time-off/${entryId}`),
    onSuccess: async () => {
      notifySuccess('Time off removed');
      await refreshAfterTimeOff(queryClient, personId);
    },
    onError: (error) => notifyError('Error', error, 'Failed to remove the time off'),
  });
}
