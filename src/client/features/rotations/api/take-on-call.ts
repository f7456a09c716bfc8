import type { Rotation } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshHandoffHistories, writeRotationAnswer } from './refresh';

export type TakeOnCallVariables = { rotationId: number; rotationName: string };

/**
 * takeOnCallMutationOptions picks up the baton of a rotation nobody holds (POST .../take-oncall),
 * then refreshes what section 7 names: /api/user/rotations, the list and the rotation taken take
 * the answer (the rotation as it now is); recent handoffs, which gained the take, are read again.
 */
export const takeOnCallMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: ({ rotationId }: TakeOnCallVariables) =>
      apiRequest<Rotation>('POST', `/api/rotations/${rotationId}/take-oncall`),
    onSuccess: async (rotation, { rotationName }) => {
      notifySuccess('On-call responsibility taken', `You are now on-call for ${rotationName}`);
      writeRotationAnswer(queryClient, rotation);
      await refreshHandoffHistories(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error taking on-call',
        error,
        'There was an error taking on-call responsibility. Please try again.',
      ),
  });

/** useTakeOnCall picks up the baton of a rotation nobody holds (POST .../take-oncall). */
export function useTakeOnCall() {
  return useMutation(takeOnCallMutationOptions(useQueryClient()));
}
