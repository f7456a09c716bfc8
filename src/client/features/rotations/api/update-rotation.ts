import type { Rotation, UpdateRotationInput } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { needsScheduleFirst } from '../lib/rotation-view';
import { notifyScheduleNeeded } from './change-rotation-type';
import { rotationQueryKey } from './get-rotation';
import { rotationsQueryKey } from './get-rotations';

export type UpdateRotationVariables = { rotationId: number; input: UpdateRotationInput };

/**
 * updateRotationMutationOptions edits a rotation (PATCH /api/rotations/{id}), then invalidates the
 * list and the rotation (section 7). A refused switch to scheduled shows 'Schedule needed' and
 * calls `onScheduleNeeded` (the set-up guide).
 */
export const updateRotationMutationOptions = (
  queryClient: QueryClient,
  { onScheduleNeeded }: { onScheduleNeeded?: () => void } = {},
) =>
  mutationOptions({
    mutationFn: ({ rotationId, input }: UpdateRotationVariables) =>
      apiRequest<Rotation>('PATCH', `/api/rotations/${rotationId}`, input),
    onSuccess: async (_data, { rotationId }) => {
      notifySuccess('Rotation updated', 'Your rotation has been updated successfully.');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: rotationsQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: rotationQueryKey(rotationId) }),
      ]);
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && needsScheduleFirst(error.body?.message)) {
        notifyScheduleNeeded();
        onScheduleNeeded?.();
        return;
      }
      notifyError(
        'Error updating rotation',
        error,
        'There was an error updating the rotation. Please try again.',
      );
    },
  });

/** useUpdateRotation edits a rotation (PATCH /api/rotations/{id}). */
export function useUpdateRotation(options: { onScheduleNeeded?: () => void } = {}) {
  return useMutation(updateRotationMutationOptions(useQueryClient(), options));
}
