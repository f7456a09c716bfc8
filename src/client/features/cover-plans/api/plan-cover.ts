import type { CoverPlanInput } from '@shared/contracts/cover-plans';
import type { CoverageRequestView } from '@shared/contracts/coverage';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { coverageRequestsQueryKey } from '@/lib/shared-reads';

export type PlanCoverVariables = CoverPlanInput & { rotationId: number };

/**
 * usePlanCover asks a teammate to cover a window of one's own shifts, or arranges it for someone
 * else (POST /api/rotations/{id}/cover-plans), then refreshes what shows it: the coverage
 * requests, the calendar and the rotation. A refusal stays with the form that shows it.
 */
export function usePlanCover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, ...body }: PlanCoverVariables) =>
      apiRequest<CoverageRequestView>('POST', `/api/rotations/${rotationId}/cover-plans`, body),
    onSuccess: async (request) => {
      if (request.arrangedBy) {
        notifySuccess(
          'Cover arranged',
          `${request.coveringUser.name} covers ${request.requester.name} in ${request.rotation.name}.`,
        );
      } else {
        notifySuccess(
          'Cover requested',
          `${request.coveringUser.name} has been asked to cover you in ${request.rotation.name}.`,
        );
      }
      await Promise.all(
        [coverageRequestsQueryKey, ['/api/calendar'], ['/api/rotations']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
  });
}
