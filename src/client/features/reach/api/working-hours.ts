import type { WorkingHoursAnswer, WorkingHoursInput } from '@shared/contracts/working-hours';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';

/*
 * A person's working hours (decision 254): GET and PUT /api/users/{id}/working-hours. A save's
 * answer replaces the cached read.
 */

const pathOf = (userId: number) => `/api/users/${userId}/working-hours`;
export const workingHoursQueryKey = (userId: number) => [pathOf(userId)] as const;

/** useWorkingHours reads a person's working hours (own: false, the default shown). */
export function useWorkingHours(userId: number) {
  return useQuery({
    queryKey: workingHoursQueryKey(userId),
    queryFn: ({ signal }) =>
      apiRequest<WorkingHoursAnswer>('GET', pathOf(userId), undefined, { signal }),
  });
}

/**
 * useSaveWorkingHours sets them; a refusal is left to the form (its fields beside them). `who`
 * names the person in the toast: 'you' on one's profile, their name for an administrator.
 */
export function useSaveWorkingHours(userId: number, who = 'you') {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (hours: WorkingHoursInput) =>
      apiRequest<WorkingHoursAnswer>('PUT', pathOf(userId), hours),
    onSuccess: (answer) => {
      queryClient.setQueryData(workingHoursQueryKey(userId), answer);
      notifySuccess(
        'Working hours saved',
        answer.holdLowUrgency
          ? 'Low-urgency pages outside them wait until they begin.'
          : `Low-urgency pages reach ${who} at any time.`,
      );
    },
  });
}
