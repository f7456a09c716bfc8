import type { ShiftNotice } from '@shared/contracts/shift-changes';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** The signed-in person's "your shift moved" notices (GET /api/user/shift-notices). */
export const shiftNoticesQueryKey = ['/api/user/shift-notices'] as const;

/**
 * shiftNoticesQueryOptions reads the person's notices not dismissed (decision 219). The engine
 * writes them two minutes after an edit, so they are read again every minute and on focus.
 */
const shiftNoticesQueryOptions = () =>
  queryOptions<ShiftNotice[]>({
    queryKey: shiftNoticesQueryKey,
    staleTime: 10_000,
    refetchInterval: 60_000,
    refetchOnWindowFocus: true,
    refetchOnMount: true,
  });

/** useShiftNotices returns the signed-in person's notices that their shifts moved. */
export function useShiftNotices() {
  return useQuery(shiftNoticesQueryOptions());
}
