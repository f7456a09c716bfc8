import type { TimeOffImpact, TimeOffInput } from '@shared/contracts/time-off';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { timeOffQueryKey } from './keys';

/**
 * useTimeOffImpact reads what recording an entry would change, nothing written
 * (POST /api/users/{id}/time-off/preview, decision 256); idle until the entry is whole.
 */
export function useTimeOffImpact(personId: number, entry: TimeOffInput | null) {
  return useQuery({
    queryKey: [...timeOffQueryKey(personId), 'preview', entry?.startTime, entry?.endTime],
    queryFn: ({ signal }) =>
      apiRequest<TimeOffImpact>(
        'POST',
        `/api/users/${personId}/time-off/preview`,
        { startTime: entry?.startTime, endTime: entry?.endTime },
        { signal },
      ),
    enabled: entry !== null,
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 15_000,
  });
}
