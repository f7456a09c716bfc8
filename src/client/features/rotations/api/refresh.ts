import type { QueryClient } from '@tanstack/react-query';
import { rotationsQueryKey } from './get-rotations';
import { userRotationsQueryKey } from './get-user-rotations';

/**
 * refreshRotationViews refetches every rotation read (the list, each rotation and its schedule,
 * all under /api/rotations) and the signed-in user's rotations. Used after changes whose refetch
 * the specification leaves open; those it names refetch exactly what it names.
 */
export function refreshRotationViews(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: rotationsQueryKey }),
    queryClient.invalidateQueries({ queryKey: userRotationsQueryKey }),
  ]);
}

/** RECENT_HANDOFFS_KEY_ROOT is the root of the recent-handoffs reads (GET /api/handoffs/recent). */
export const RECENT_HANDOFFS_KEY_ROOT = ['/api/handoffs/recent'] as const;
