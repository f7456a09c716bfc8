import type { PassBatonInput, Rotation } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshHandoffHistories, writeRotationAnswer } from './refresh';

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
 * refreshes what section 7 names: the rotation, the user's rotations and the list take the answer
 * (the rotation as it now is), and recent handoffs, which gained the handoff, are read again.
 */
export const passBatonMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (variables: PassBatonVariables) =>
      apiRequest<Rotation>(
        'POST',
        `/api/rotations/${variables.rotationId}/handoff`,
        passBatonPayload(variables),
      ),
    onSuccess: async (rotation, { toUserName }) => {
      notifySuccess(
        'Baton passed successfully',
        `You've passed the baton to ${toUserName || 'another team member'}`,
      );
      writeRotationAnswer(queryClient, rotation);
      await refreshHandoffHistories(queryClient);
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
