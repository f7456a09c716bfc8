import type { Rotation } from '@shared/contracts/rotations';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** rotationQueryKey is the cache key (and path) of one rotation: /api/rotations/{id}. */
export const rotationQueryKey = (id: number) => ['/api/rotations', id] as const;

/** rotationQueryOptions reads one rotation with its members; refetched on focus and on mount. */
const rotationQueryOptions = (id: number) =>
  queryOptions<Rotation>({
    queryKey: rotationQueryKey(id),
    refetchOnWindowFocus: 'always',
    refetchOnMount: 'always',
  });

/** useRotation returns one rotation; a missing one fails with status 404. */
export function useRotation(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({ ...rotationQueryOptions(id), enabled: options.enabled ?? true });
}
