import type {
  OccurrenceChange,
  ScheduleEntry,
  ScheduleEntryChange,
} from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { refreshRotationViews } from './refresh';

/** Which part of a repeating entry a change is for (decision 250). */
export type ChangeScope = 'occurrence' | 'series';

export type ChangeScheduleVariables = {
  scheduleId: number;
  /** the occurrence's start, for a change of that occurrence only */
  occurrenceStart?: string;
  change: ScheduleEntryChange & OccurrenceChange;
};

const occurrenceUrl = (scheduleId: number, start: string) =>
  `/api/rotation-schedules/${scheduleId}/occurrences/${encodeURIComponent(start)}`;

/**
 * useChangeSchedule changes a whole entry (PATCH /api/rotation-schedules/{id}) or, given an
 * occurrence's start, that occurrence only (PATCH .../occurrences/{start}).
 */
export function useChangeSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId, occurrenceStart, change }: ChangeScheduleVariables) =>
      apiRequest<ScheduleEntry>(
        'PATCH',
        occurrenceStart
          ? occurrenceUrl(scheduleId, occurrenceStart)
          : `/api/rotation-schedules/${scheduleId}`,
        change,
      ),
    onSuccess: async () => {
      notifySuccess('Schedule changed', 'The schedule entry has been changed.');
      await refreshRotationViews(queryClient);
    },
    onError: (error) =>
      notifyError(
        'Error changing schedule',
        error,
        'There was an error changing the schedule. Please try again.',
      ),
  });
}

/** useDeleteOccurrence takes one occurrence out of its series (DELETE .../occurrences/{start}). */
export function useDeleteOccurrence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scheduleId, start }: { scheduleId: number; start: string }) =>
      apiRequest<unknown>('DELETE', occurrenceUrl(scheduleId, start)),
    onSuccess: async () => {
      notifySuccess('Schedule deleted', 'The occurrence has been removed.');
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
