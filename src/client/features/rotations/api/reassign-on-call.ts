import type { ReassignInput, Rotation } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshHandoffHistories, writeRotationAnswer } from './refresh';

export type ReassignVariables = {
  rotationId: number;
  toUserId: number;
  notes?: string;
  toUserName?: string;
};

/**
 * useReassignOnCall moves the baton to another member, by a manager (POST .../assign-oncall); the
 * answer (the rotation as it now is) goes into the reads that show it, recent handoffs are read
 * again.
 */
export function useReassignOnCall() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, toUserId, notes }: ReassignVariables) => {
      const body: ReassignInput = { toUserId, notes: notes?.trim() ? notes.trim() : null };
      return apiRequest<Rotation>('POST', `/api/rotations/${rotationId}/assign-oncall`, body);
    },
    onSuccess: async (rotation, { toUserName }) => {
      notifySuccess(
        'On-call duties reassigned',
        `${toUserName || 'The selected team member'} is now on call.`,
      );
      writeRotationAnswer(queryClient, rotation);
      await refreshHandoffHistories(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error assigning on-call',
        error,
        'There was an error assigning on-call. Please try again.',
      ),
  });
}
