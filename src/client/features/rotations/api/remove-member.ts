import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshHandoffHistories, refreshRotationViews } from './refresh';

export type RemoveMemberVariables = { rotationId: number; userId: number; userName: string };

/** useRemoveMember removes an on-call person from a rotation (DELETE .../on-call/{userId}). */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, userId }: RemoveMemberVariables) =>
      apiRequest<unknown>('DELETE', `/api/rotations/${rotationId}/on-call/${userId}`),
    onSuccess: async (_data, { userName }) => {
      notifySuccess('On-call person removed', `${userName} has been removed from the rotation.`);
      // Removing the holder may pass the baton on, which writes a handoff.
      await Promise.all([refreshRotationViews(queryClient), refreshHandoffHistories(queryClient)]);
    },
    onError: (error) =>
      notifyError(
        'Error removing on-call person',
        error,
        'There was an error removing the on-call person. Please try again.',
      ),
  });
}
