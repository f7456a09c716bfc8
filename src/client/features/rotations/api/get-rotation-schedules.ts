import type { ScheduleEntry } from '@shared/contracts/rotations';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** rotationSchedulesQueryKey is /api/rotations/{id}/schedules; it sits under the rotation's key. */
const rotationSchedulesQueryKey = (rotationId: number) =>
  ['/api/rotations', rotationId, 'schedules'] as const;

const rotationSchedulesQueryOptions = (rotationId: number) =>
  queryOptions<ScheduleEntry[]>({
    queryKey: rotationSchedulesQueryKey(rotationId),
    refetchOnWindowFocus: 'always',
    refetchOnMount: 'always',
  });

/** useRotationSchedules returns a rotation's schedule entries. */
export function useRotationSchedules(rotationId: number) {
  return useQuery(rotationSchedulesQueryOptions(rotationId));
}
