import type { CoverageRequest, CoverageRequestInput } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '../lib/notify';
import { rotationQueryKey } from './get-rotation';

export type RequestCoverageVariables = CoverageRequestInput & {
  rotationId: number;
  coveringUserName: string;
};

/** useRequestCoverage asks another member to hold the baton for a window (POST .../cover). */
export function useRequestCoverage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      rotationId,
      coveringUserId,
      startTime,
      endTime,
      notes,
    }: RequestCoverageVariables) => {
      const body: CoverageRequestInput = {
        rotationId,
        coveringUserId,
        startTime,
        endTime,
        notes: notes?.trim() ? notes.trim() : null,
      };
      return apiRequest<CoverageRequest>('POST', `/api/rotations/${rotationId}/cover`, body);
    },
    onSuccess: async (_data, { rotationId, coveringUserName }) => {
      notifySuccess('Coverage requested', `${coveringUserName} has been asked to cover you.`);
      await queryClient.invalidateQueries({ queryKey: rotationQueryKey(rotationId) });
    },
    onError: (error) =>
      notifyError(
        'Error requesting coverage',
        error,
        'There was an error requesting coverage. Please try again.',
      ),
  });
}
