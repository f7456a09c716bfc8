import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '../lib/notify';
import { rotationQueryKey } from './get-rotation';
import { rotationsQueryKey } from './get-rotations';
import { userRotationsQueryKey } from './get-user-rotations';

export type TakeOnCallVariables = { rotationId: number; rotationName: string };

/**
 * takeOnCallMutationOptions picks up the baton of a rotation nobody holds (POST .../take-oncall),
 * then refreshes what section 7 names: /api/user/rotations and /api/rotations; of the reads under
 * /api/rotations, the list and the rotation taken (its page shows the new holder).
 */
export const takeOnCallMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: ({ rotationId }: TakeOnCallVariables) =>
      apiRequest<unknown>('POST', `/api/rotations/${rotationId}/take-oncall`),
    onSuccess: async (_data, { rotationId, rotationName }) => {
      notifySuccess('On-call responsibility taken', `You are now on-call for ${rotationName}`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userRotationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: rotationsQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: rotationQueryKey(rotationId), exact: true }),
      ]);
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
