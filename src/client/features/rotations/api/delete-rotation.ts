import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { rotationQueryKey } from './get-rotation';
import { refreshRotationViews } from './refresh';

/** useDeleteRotation deletes a rotation with its members, schedule and history (DELETE). */
export function useDeleteRotation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId }: { rotationId: number; rotationName: string }) =>
      apiRequest<unknown>('DELETE', `/api/rotations/${rotationId}`),
    onSuccess: async (_data, { rotationId, rotationName }) => {
      notifySuccess('Rotation deleted', `${rotationName} has been deleted.`);
      // The page that showed it is left by the caller; nothing may refetch a deleted rotation.
      queryClient.removeQueries({ queryKey: rotationQueryKey(rotationId) });
      await refreshRotationViews(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error deleting rotation',
        error,
        'There was an error deleting the rotation. Please try again.',
      ),
  });
}
