import type { Reachability } from '@shared/contracts/reachability';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const PATH = '/api/users/reachability';
export const reachabilityQueryKey = [PATH] as const;

/**
 * useReachability reads how each person the viewer looks after can be reached (administrators:
 * everyone; managers: the people of their rotations; anyone else: themselves).
 */
export function useReachability(enabled = true) {
  return useQuery({
    queryKey: reachabilityQueryKey,
    queryFn: ({ signal }) => apiRequest<Reachability>('GET', PATH, undefined, { signal }),
    enabled,
  });
}
