import type { CalendarFeedLinks, CalendarFeedStatus } from '@shared/contracts/calendar';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError } from '@/lib/notify';
import { feedStatusQueryKey } from './get-feed-status';

/** useResetFeed makes new calendar feed links (the old ones stop working) and answers them once. */
export function useResetFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<CalendarFeedLinks>('POST', '/api/calendar/feed/reset'),
    onSuccess: () => {
      queryClient.setQueryData<CalendarFeedStatus>(feedStatusQueryKey, { active: true });
    },
    onError: (error) =>
      notifyError(
        'Error creating feed links',
        error,
        'Could not create the calendar feed links. Please try again.',
      ),
  });
}
