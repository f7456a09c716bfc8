import type { CoverCandidates } from '@shared/contracts/cover-plans';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** The cache key of who could cover one window of one rotation, for one person covered. */
const coverCandidatesQueryKey = (
  rotationId: number,
  window: { startTime: string; endTime: string; requesterId: number | null },
) =>
  [
    '/api/rotations',
    rotationId,
    'cover-candidates',
    window.startTime,
    window.endTime,
    window.requesterId,
  ] as const;

/** useCoverCandidates reads who could cover a window (GET /api/rotations/{id}/cover-candidates). */
export function useCoverCandidates(
  rotationId: number,
  window: { startTime: string; endTime: string; requesterId: number | null } | null,
) {
  return useQuery(
    queryOptions<CoverCandidates>({
      queryKey: coverCandidatesQueryKey(
        rotationId,
        window ?? { startTime: '', endTime: '', requesterId: null },
      ),
      queryFn: ({ signal }) => {
        const query = new URLSearchParams({
          startTime: window?.startTime ?? '',
          endTime: window?.endTime ?? '',
        });
        if (window?.requesterId) query.set('requesterId', String(window.requesterId));
        return apiRequest<CoverCandidates>(
          'GET',
          `/api/rotations/${rotationId}/cover-candidates?${query}`,
          undefined,
          { signal },
        );
      },
      enabled: window !== null,
      staleTime: 30_000,
    }),
  );
}
