import type { AddMemberInput } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshRotationViews } from './refresh';

export type AddMemberVariables = AddMemberInput & { rotationId: number; userName: string };

/** useAddMember adds an on-call person at the end of the order (POST .../on-call). */
export function useAddMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, userId, order }: AddMemberVariables) =>
      apiRequest<unknown>('POST', `/api/rotations/${rotationId}/on-call`, { userId, order }),
    onSuccess: async (_data, { userName }) => {
      notifySuccess('On-call person added', `${userName} has been added to the rotation.`);
      await refreshRotationViews(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error adding on-call person',
        error,
        'There was an error adding the on-call person. Please try again.',
      ),
  });
}
