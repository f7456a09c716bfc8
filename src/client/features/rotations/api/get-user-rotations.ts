import type { Rotation } from '@shared/contracts/rotations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { DASHBOARD_STALE_MS } from '../constants';

export const userRotationsQueryKey = ['/api/user/rotations'] as const;

/** userRotationsQueryOptions reads the signed-in user's rotations, fresh for 10 s on the dashboard. */
export const userRotationsQueryOptions = () =>
  queryOptions<Rotation[]>({
    queryKey: userRotationsQueryKey,
    staleTime: DASHBOARD_STALE_MS,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
  });

/** useUserRotations returns the rotations the signed-in user is a member of. */
export function useUserRotations() {
  return useQuery(userRotationsQueryOptions());
}
