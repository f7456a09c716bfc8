import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshRotationViews } from './refresh';

/** useActivateRotation reactivates a suspended rotation (POST .../activate). */
export function useActivateRotation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId }: { rotationId: number; rotationName: string }) =>
      apiRequest<unknown>('POST', `/api/rotations/${rotationId}/activate`),
    onSuccess: async (_data, { rotationName }) => {
      notifySuccess('Rotation activated', `${rotationName} takes handoffs and alerts again.`);
      await refreshRotationViews(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error activating rotation',
        error,
        'There was an error activating the rotation. Please try again.',
      ),
  });
}
