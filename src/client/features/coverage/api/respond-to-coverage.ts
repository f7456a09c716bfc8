import type { CoverageRequestView } from '@shared/contracts/coverage';
import type { CoverageAction } from '@shared/domain/coverage';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { coverageRequestsQueryKey } from '@/lib/shared-reads';

const DONE: Record<CoverageAction, [string, (r: CoverageRequestView) => string]> = {
  accept: [
    'Coverage accepted',
    (r) => `You will hold the baton for ${r.rotation.name} during the window.`,
  ],
  decline: ['Coverage declined', (r) => `${r.requester.name} has been told.`],
  cancel: ['Coverage cancelled', (r) => `The coverage window for ${r.rotation.name} is cancelled.`],
};

/** useRespondToCoverage accepts, declines or cancels a coverage request, then refetches what it changes. */
export function useRespondToCoverage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: CoverageAction }) =>
      apiRequest<CoverageRequestView>('POST', `/api/coverage-requests/${id}/${action}`),
    onSuccess: async (request, { action }) => {
      const [title, description] = DONE[action];
      notifySuccess(title, description(request));
      await Promise.all(
        [
          coverageRequestsQueryKey,
          ['/api/rotations'],
          ['/api/user/rotations'],
          ['/api/calendar'],
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
    onError: (error) =>
      notifyError(
        'Error answering coverage request',
        error,
        'There was an error answering the coverage request. Please try again.',
      ),
  });
}
