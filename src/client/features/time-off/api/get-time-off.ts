import type { TimeOffList } from '@shared/contracts/time-off';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { timeOffQueryKey } from './keys';

/** useTimeOff reads a person's time off under way or to come (GET /api/users/{id}/time-off). */
export function useTimeOff(personId: number, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...queryOptions<TimeOffList>({ queryKey: timeOffQueryKey(personId) }),
    enabled: options.enabled ?? true,
  });
}
