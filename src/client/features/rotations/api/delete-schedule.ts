import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshRotationViews } from './refresh';

/** useDeleteSchedule removes a schedule entry (DELETE /api/rotation-schedules/{scheduleId}). */
export function useDeleteSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId }: { scheduleId: number }) =>
      apiRequest<unknown>('DELETE', `/api/rotation-schedules/${scheduleId}`),
    onSuccess: async () => {
      notifySuccess('Schedule deleted', 'The schedule entry has been removed.');
      await refreshRotationViews(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error deleting schedule',
        error,
        'There was an error deleting the schedule. Please try again.',
      ),
  });
}
