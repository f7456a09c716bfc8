import type { CoverageRequest, CoverageRequestInput } from '@shared/contracts/rotations';
import {
  mutationOptions,
  type QueryClient,
  useMutation,
  useQueryClient,
} from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { coverageRequestsQueryKey } from '@/lib/shared-reads';
import { rotationQueryKey } from './get-rotation';

export type RequestCoverageVariables = CoverageRequestInput & {
  rotationId: number;
  coveringUserName: string;
};

/**
 * requestCoverageMutationOptions asks another member to hold the baton for a window (POST
 * .../cover), then refreshes what shows the new request: the rotation and the coverage requests
 * (the dashboard lists the caller's outgoing ones).
 */
export const requestCoverageMutationOptions = (queryClient: QueryClient) =>
  mutationOptions({
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
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: rotationQueryKey(rotationId) }),
        queryClient.invalidateQueries({ queryKey: coverageRequestsQueryKey }),
      ]);
    },
    onError: (error) =>
      notifyError(
        'Error requesting coverage',
        error,
        'There was an error requesting coverage. Please try again.',
      ),
  });

/** useRequestCoverage asks another member to hold the baton for a window (POST .../cover). */
export function useRequestCoverage() {
  return useMutation(requestCoverageMutationOptions(useQueryClient()));
}
