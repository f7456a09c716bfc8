import type { Rotation, UpdateRotationInput } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '../lib/notify';
import { needsScheduleFirst } from '../lib/rotation-view';
import { notifyScheduleNeeded } from './change-rotation-type';
import { rotationQueryKey } from './get-rotation';
import { rotationsQueryKey } from './get-rotations';

export type UpdateRotationVariables = { rotationId: number; input: UpdateRotationInput };

/**
 * useUpdateRotation edits a rotation (PATCH /api/rotations/{id}). A refused switch to scheduled
 * shows 'Schedule needed' and calls `onScheduleNeeded` (the set-up guide).
 */
export function useUpdateRotation({ onScheduleNeeded }: { onScheduleNeeded?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
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
}
