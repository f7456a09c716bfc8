import type { Calendar } from '@shared/contracts/calendar';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** calendarQueryKey is the cache key of one span of the calendar. */
const calendarQueryKey = (from: string, to: string) => ['/api/calendar', from, to] as const;

/**
 * calendarQueryOptions reads who is on call in [from, to): every rotation's shifts. Kept while the
 * next month loads, so moving between months does not flash empty; refreshed every minute.
 */
const calendarQueryOptions = (from: string, to: string) =>
  queryOptions<Calendar>({
    queryKey: calendarQueryKey(from, to),
    queryFn: ({ signal }) =>
      apiRequest<Calendar>(
        'GET',
        `/api/calendar?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
        undefined,
        { signal },
      ),
    staleTime: 30_000,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    placeholderData: keepPreviousData,
  });

/** useCalendar returns every rotation's shifts in [from, to). */
export function useCalendar(from: string, to: string) {
  return useQuery(calendarQueryOptions(from, to));
}
