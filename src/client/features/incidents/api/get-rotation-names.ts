import type { Rotation } from '@shared/contracts/rotations';
import { queryOptions, useQuery } from '@tanstack/react-query';

/**
 * useRotationNames reads the rotations the viewer may see (GET /api/rotations), for the list's
 * rotation filter and the raise dialog. The key is the rotations screens' own, so they share one
 * cached answer.
 */
export function useRotationNames() {
  return useQuery(queryOptions<Rotation[]>({ queryKey: ['/api/rotations'], staleTime: 30_000 }));
}
