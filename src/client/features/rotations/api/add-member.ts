import type { AddMemberInput, Person } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { foreseeRotation, withMember } from './foresee';
import { refreshRotationViews } from './refresh';

export type AddMemberVariables = AddMemberInput & { rotationId: number; person: Person };

/**
 * addMemberMutationOptions adds an on-call person at the end of the order (POST .../on-call): the
 * person shows in the rotation at once, is taken out again if the server refuses, and the
 * rotation reads are fetched again after the answer.
 */
export const addMemberMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: ({ rotationId, userId, order }: AddMemberVariables) =>
      apiRequest<unknown>('POST', `/api/rotations/${rotationId}/on-call`, { userId, order }),
    onMutate: async ({ rotationId, person, order }) => ({
      undo: await foreseeRotation(queryClient, rotationId, (r) =>
        withMember(r, person, order ?? r.members.length),
      ),
    }),
    onSuccess: async (_data, { person }) => {
      notifySuccess('On-call person added', `${person.name} has been added to the rotation.`);
      await refreshRotationViews(queryClient);
    },
    onError: (error, _variables, foreseen) => {
      foreseen?.undo();
      notifyError(
        'Error adding on-call person',
        error,
        'There was an error adding the on-call person. Please try again.',
      );
    },
  });

/** useAddMember adds an on-call person at the end of the order (POST .../on-call). */
export function useAddMember() {
  return useMutation(addMemberMutationOptions(useQueryClient()));
}
