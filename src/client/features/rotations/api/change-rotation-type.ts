import type { Rotation } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError, apiRequest } from '@/lib/api-client';
import { notifyError, notifyFailure, notifySuccess } from '@/lib/notify';
import { needsScheduleFirst } from '../lib/rotation-view';
import { refreshRotationViews } from './refresh';

export type ChangeRotationTypeVariables = { rotationId: number; type: Rotation['type'] };

/** notifyScheduleNeeded shows the 'Schedule needed' toast of a refused switch to scheduled. */
export function notifyScheduleNeeded(): void {
  notifyFailure(
    'Schedule needed',
    'Add a schedule first: a scheduled rotation needs at least one schedule entry.',
  );
}

/**
 * useChangeRotationType switches a rotation between fixed and scheduled (PATCH .../type). A switch
 * refused for want of a schedule entry shows 'Schedule needed' and calls `onScheduleNeeded`.
 */
export function useChangeRotationType({ onScheduleNeeded }: { onScheduleNeeded?: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, type }: ChangeRotationTypeVariables) =>
      apiRequest<unknown>('PATCH', `/api/rotations/${rotationId}/type`, { type }),
    onSuccess: async (_data, { type }) => {
      notifySuccess(
        'Rotation type updated',
        type === 'scheduled'
          ? 'On-call now follows the rotation schedule.'
          : 'Members now take turns in a fixed order.',
      );
      await refreshRotationViews(queryClient);
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && needsScheduleFirst(error.body?.message)) {
        notifyScheduleNeeded();
        onScheduleNeeded?.();
        return;
      }
      notifyError(
        'Error changing rotation type',
        error,
        'There was an error changing the rotation type. Please try again.',
      );
    },
  });
}
