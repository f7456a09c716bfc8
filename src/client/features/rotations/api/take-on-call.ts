import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '../lib/notify';
import { rotationsQueryKey } from './get-rotations';
import { userRotationsQueryKey } from './get-user-rotations';

export type TakeOnCallVariables = { rotationId: number; rotationName: string };

/** useTakeOnCall picks up the baton of a rotation nobody holds (POST .../take-oncall). */
export function useTakeOnCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId }: TakeOnCallVariables) =>
      apiRequest<unknown>('POST', `/api/rotations/${rotationId}/take-oncall`),
    onSuccess: async (_data, { rotationName }) => {
      notifySuccess('On-call responsibility taken', `You are now on-call for ${rotationName}`);
      // Section 7: then /api/user/rotations and /api/rotations (and so each rotation under it).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: userRotationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: rotationsQueryKey }),
      ]);
    },
    onError: (error) =>
      notifyError(
        'Error taking on-call',
        error,
        'There was an error taking on-call responsibility. Please try again.',
      ),
  });
}
