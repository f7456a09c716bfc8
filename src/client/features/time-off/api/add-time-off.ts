import type { TimeOffEntry, TimeOffInput } from '@shared/contracts/time-off';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifySuccess } from '@/lib/notify';
import { refreshAfterTimeOff } from './keys';

/** useAddTimeOff records time off for a person (POST /api/users/{id}/time-off). */
export function useAddTimeOff(personId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TimeOffInput) =>
      apiRequest<TimeOffEntry>('POST', `/api/users/${personId}/time-off`, input),
    onSuccess: async () => {
      notifySuccess('Time off recorded', 'Rotations will go round it.');
      await refreshAfterTimeOff(queryClient, personId);
    },
  });
}
