import type { PassBatonInput, Rotation } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { foreseeRotation, withHolder } from './foresee';
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
 * The new holder shows at once, before the answer, and is put back if the server refuses.
 */
export const passBatonMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (variables: PassBatonVariables) =>
      apiRequest<Rotation>(
        'POST',
        `/api/rotations/${variables.rotationId}/handoff`,
        passBatonPayload(variables),
      ),
    onMutate: async ({ rotationId, toUserId }) => ({
      undo: await foreseeRotation(queryClient, rotationId, (r) =>
        withHolder(r, toUserId, new Date()),
      ),
    }),
    onSuccess: async (rotation, { toUserName }) => {
      notifySuccess(
        'Baton passed successfully',
        `You've passed the baton to ${toUserName || 'another team member'}`,
      );
      writeRotationAnswer(queryClient, rotation);
      await refreshHandoffHistories(queryClient);
    },
    onError: (error, _variables, foreseen) => {
      foreseen?.undo();
      notifyError(
        'Error passing baton',
        error,
        'There was an error passing the baton. Please try again.',
      );
    },
  });

/** usePassBaton hands the caller's baton to another member (POST .../handoff). */
export function usePassBaton() {
  return useMutation(passBatonMutationOptions(useQueryClient()));
}
