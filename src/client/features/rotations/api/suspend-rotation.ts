import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshRotationViews } from './refresh';

/** useSuspendRotation suspends a rotation (POST .../suspend): no handoffs, alerts or automation. */
export function useSuspendRotation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId }: { rotationId: number; rotationName: string }) =>
      apiRequest<unknown>('POST', `/api/rotations/${rotationId}/suspend`),
    onSuccess: async (_data, { rotationName }) => {
      notifySuccess('Rotation suspended', `${rotationName} no longer takes handoffs or alerts.`);
      await refreshRotationViews(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error suspending rotation',
        error,
        'There was an error suspending the rotation. Please try again.',
      ),
  });
}
