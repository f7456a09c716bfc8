import type { TimeOffWarnings } from '@shared/contracts/time-off';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * useTimeOffWarnings reads the gaps ahead and the schedule entries that collide with time off
 * (GET /api/time-off/warnings), of every rotation or of one; refreshed every minute.
 */
export function useTimeOffWarnings(rotationId?: number) {
  return useQuery(
    queryOptions<TimeOffWarnings>({
      queryKey: ['/api/time-off/warnings', rotationId ?? 'all'],
      queryFn: ({ signal }) =>
        apiRequest<TimeOffWarnings>(
          'GET',
          rotationId === undefined
            ? '/api/time-off/warnings'
            : `/api/time-off/warnings?rotationId=${rotationId}`,
          undefined,
          { signal },
        ),
      staleTime: 30_000,
      refetchInterval: 60_000,
    }),
  );
}
