import type { OnCallTeamEntry } from '@shared/contracts/on-call-team';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** onCallTeamQueryOptions reads everyone with their rotation assignments (GET /api/on-call-team, no-cache). */
const onCallTeamQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/on-call-team'] as const,
    queryFn: ({ signal }) =>
      apiRequest<OnCallTeamEntry[]>('GET', '/api/on-call-team', undefined, { signal }),
    refetchOnMount: 'always',
  });

/** useOnCallTeam returns the on-call team. */
export function useOnCallTeam() {
  return useQuery(onCallTeamQueryOptions());
}
