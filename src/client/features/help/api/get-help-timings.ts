import type { HelpTimings } from '@shared/contracts/help';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const helpTimingsQueryKey = ['/api/help/timings'] as const;

/** helpTimingsQueryOptions reads the deployment's handoff timings (GET /api/help/timings, public). */
const helpTimingsQueryOptions = () =>
  queryOptions({
    queryKey: helpTimingsQueryKey,
    queryFn: ({ signal }) =>
      apiRequest<HelpTimings>('GET', '/api/help/timings', undefined, { signal }),
  });

/** useHelpTimings returns the handoff timings the help pages describe. */
export function useHelpTimings() {
  return useQuery(helpTimingsQueryOptions());
}
