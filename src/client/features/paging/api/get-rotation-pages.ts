import type { Page } from '@shared/contracts/paging';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { rotationPagesQueryKey } from '@/lib/shared-reads';

/** How many pages each read of the history brings. */
const PAGE_HISTORY_SIZE = 20;

/** rotationPagesQueryOptions reads a rotation's page history, newest first, 20 at a time. */
const rotationPagesQueryOptions = (rotationId: number) =>
  infiniteQueryOptions({
    queryKey: rotationPagesQueryKey(rotationId),
    queryFn: ({ pageParam, signal }) =>
      apiRequest<Page[]>(
        'GET',
        `/api/rotations/${rotationId}/pages?limit=${PAGE_HISTORY_SIZE}${
          pageParam ? `&before=${pageParam}` : ''
        }`,
        undefined,
        { signal },
      ),
    initialPageParam: 0,
    getNextPageParam: (last) =>
      last.length === PAGE_HISTORY_SIZE ? last[last.length - 1].id : undefined,
    refetchOnMount: 'always',
    refetchOnWindowFocus: true,
  });

/** useRotationPages returns a rotation's page history (GET /api/rotations/{id}/pages). */
export function useRotationPages(rotationId: number) {
  return useInfiniteQuery(rotationPagesQueryOptions(rotationId));
}
