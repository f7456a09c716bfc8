import type { ScheduleEntry, ScheduleEntryInput } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshRotationViews } from './refresh';

export type CreateScheduleVariables = ScheduleEntryInput & { rotationId: number };

/** useCreateSchedule adds a schedule entry to a rotation (POST .../schedules). */
export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, userId, startTime, endTime }: CreateScheduleVariables) => {
      const body: ScheduleEntryInput = { userId, startTime, endTime };
      return apiRequest<ScheduleEntry>('POST', `/api/rotations/${rotationId}/schedules`, body);
    },
    onSuccess: async () => {
      notifySuccess('Schedule created', 'The schedule entry has been added.');
      await refreshRotationViews(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error creating schedule',
        error,
        'There was an error creating the schedule. Please try again.',
      ),
  });
}
