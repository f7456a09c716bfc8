import type { CalendarFeedLinks, CalendarFeedStatus } from '@shared/contracts/calendar';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, getErrorMessage } from '@/lib/api-client';
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
      toast({
        variant: 'destructive',
        title: 'Error creating feed links',
        description: getErrorMessage(
          error,
          'Could not create the calendar feed links. Please try again.',
        ),
      }),
  });
}
