import type { Rotation } from '@shared/contracts/rotations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import {
  DASHBOARD_STALE_MS,
  ROTATIONS_LIST_STALE_MS,
  ROTATIONS_REFETCH_INTERVAL_MS,
} from '../constants';

export const rotationsQueryKey = ['/api/rotations'] as const;

/**
 * fetchRotations reads GET /api/rotations. It first asks who is signed in: when that does not
 * answer 200 the list is empty. An answer that is not an array, or not JSON, counts as empty.
 */
export async function fetchRotations(signal?: AbortSignal): Promise<Rotation[]> {
  try {
    await apiRequest('GET', '/api/auth/user', undefined, { signal });
  } catch {
    return [];
  }
  let data: unknown;
  try {
    data = await apiRequest<unknown>('GET', '/api/rotations', undefined, { signal });
  } catch (error) {
    if (error instanceof SyntaxError) return [];
    throw error;
  }
  return Array.isArray(data) ? (data as Rotation[]) : [];
}

/**
 * rotationsQueryOptions reads every rotation, polled every 15 s (paused while the tab is hidden)
 * and refetched on mount, focus and when the tab becomes visible once older than `staleTime`.
 */
const rotationsQueryOptions = ({ staleTime }: { staleTime: number }) =>
  queryOptions({
    queryKey: rotationsQueryKey,
    queryFn: ({ signal }) => fetchRotations(signal),
    staleTime,
    refetchInterval: ROTATIONS_REFETCH_INTERVAL_MS,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
  });

/** rotationsListQueryOptions is the Rotations screen's read: stale after 5 s (section 9). */
export const rotationsListQueryOptions = () =>
  rotationsQueryOptions({ staleTime: ROTATIONS_LIST_STALE_MS });

/** dashboardRotationsQueryOptions is the dashboard's read: stale after 10 s (section 9). */
export const dashboardRotationsQueryOptions = () =>
  rotationsQueryOptions({ staleTime: DASHBOARD_STALE_MS });

/** useRotations returns every rotation the signed-in user can see. */
export function useRotations({ staleTime }: { staleTime: number }) {
  return useQuery(rotationsQueryOptions({ staleTime }));
}

/** useRotationsList returns every rotation, as the Rotations screen reads them. */
export function useRotationsList() {
  return useQuery(rotationsListQueryOptions());
}

/** useDashboardRotations returns every rotation, as the dashboard's Team Rotations reads them. */
export function useDashboardRotations() {
  return useQuery(dashboardRotationsQueryOptions());
}
