import type { PassBatonInput } from '@shared/contracts/rotations';
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
import { RECENT_HANDOFFS_KEY_ROOT } from './refresh';

export type PassBatonVariables = {
  rotationId: number;
  toUserId: number;
  notes?: string;
  /** an emergency handoff: the receiver must acknowledge it, and the caller stays backup until then */
  urgent?: boolean;
  /** the receiver's name, for the success toast */
  toUserName?: string;
};

/** passBatonPayload returns the handoff body: notes left out when empty, urgent only when set. */
export function passBatonPayload({ toUserId, notes, urgent }: PassBatonVariables): PassBatonInput {
  const trimmed = notes?.trim();
  return {
    toUserId,
    ...(trimmed ? { notes: trimmed } : {}),
    ...(urgent ? { urgent: true } : {}),
  };
}

/**
 * passBatonMutationOptions hands the caller's baton to another member (POST .../handoff), then
 * refreshes what section 7 names: the rotation, the user's rotations, recent handoffs and the list.
 */
export const passBatonMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (variables: PassBatonVariables) =>
      apiRequest<unknown>(
        'POST',
        `/api/rotations/${variables.rotationId}/handoff`,
        passBatonPayload(variables),
      ),
    onSuccess: async (_data, { rotationId, toUserName }) => {
      notifySuccess(
        'Baton passed successfully',
        `You've passed the baton to ${toUserName || 'another team member'}`,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: rotationQueryKey(rotationId) }),
        queryClient.invalidateQueries({ queryKey: userRotationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: RECENT_HANDOFFS_KEY_ROOT }),
        queryClient.invalidateQueries({ queryKey: rotationsQueryKey, exact: true }),
      ]);
    },
    onError: (error) =>
      notifyError(
        'Error passing baton',
        error,
        'There was an error passing the baton. Please try again.',
      ),
  });

/** usePassBaton hands the caller's baton to another member (POST .../handoff). */
export function usePassBaton() {
  return useMutation(passBatonMutationOptions(useQueryClient()));
}
