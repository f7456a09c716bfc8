import type { Handoff } from '@shared/contracts/rotations';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** The dashboard shows this many recent handoffs. */
const RECENT_HANDOFFS_LIMIT = 5;

/** recentHandoffsQueryKey sits under ['/api/handoffs/recent'], which a handoff refreshes. */
const recentHandoffsQueryKey = (limit: number) => ['/api/handoffs/recent', { limit }] as const;

/** recentHandoffsQueryOptions reads the latest `limit` handoffs (GET /api/handoffs/recent?limit=n). */
const recentHandoffsQueryOptions = (limit = RECENT_HANDOFFS_LIMIT) =>
  queryOptions({
    queryKey: recentHandoffsQueryKey(limit),
    queryFn: async ({ signal }) => {
      const data = await apiRequest<unknown>(
        'GET',
        `/api/handoffs/recent?limit=${limit}`,
        undefined,
        { signal },
      );
      // At most `limit`, whatever the server sends: the dashboard shows five.
      return Array.isArray(data) ? (data as Handoff[]).slice(0, limit) : [];
    },
    refetchOnWindowFocus: true,
    refetchOnMount: 'always',
  });

/** useRecentHandoffs returns the latest handoffs across the team, newest first. */
export function useRecentHandoffs(limit = RECENT_HANDOFFS_LIMIT) {
  return useQuery(recentHandoffsQueryOptions(limit));
}
