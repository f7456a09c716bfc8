import type {
  RecurrenceInput,
  ScheduleEntry,
  ScheduleEntryInput,
} from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshRotationViews } from './refresh';

export type CreateScheduleVariables = Omit<ScheduleEntryInput, 'recurrence'> & {
  rotationId: number;
  recurrence?: RecurrenceInput | null;
};

/** useCreateSchedule adds a schedule entry to a rotation (POST .../schedules). */
export function useCreateSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      rotationId,
      userId,
      startTime,
      endTime,
      recurrence,
    }: CreateScheduleVariables) => {
      const body: ScheduleEntryInput = { userId, startTime, endTime };
      // A repeating entry (decision 250) carries its rule; a single one is the specification's body.
      if (recurrence) Object.assign(body, { recurrence });
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
