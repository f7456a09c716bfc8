import type { CalendarFeedStatus } from '@shared/contracts/calendar';
import { queryOptions, useQuery } from '@tanstack/react-query';

export const feedStatusQueryKey = ['/api/calendar/feed'] as const;

/** useFeedStatus tells whether the signed-in user has calendar feed links. */
export function useFeedStatus() {
  return useQuery(queryOptions<CalendarFeedStatus>({ queryKey: feedStatusQueryKey }));
}
