import type { HandoffHistoryPage } from '@shared/contracts/audit';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** The rotation page shows this many of its latest handoffs (decision 187). */
export const ROTATION_HANDOFF_HISTORY_LIMIT = 10;

/**
 * rotationHandoffHistoryQueryKey sits under ['/api/audit-log/handoffs'], which every write that
 * adds or acknowledges a handoff reads again.
 */
export const rotationHandoffHistoryQueryKey = (rotationId: number) =>
  ['/api/audit-log/handoffs', { rotationId, limit: ROTATION_HANDOFF_HISTORY_LIMIT }] as const;

/** rotationHandoffHistoryQueryOptions reads a rotation's latest handoffs, newest first. */
export const rotationHandoffHistoryQueryOptions = (rotationId: number) =>
  queryOptions({
    queryKey: rotationHandoffHistoryQueryKey(rotationId),
    queryFn: ({ signal }) =>
      apiRequest<HandoffHistoryPage>(
        'GET',
        `/api/audit-log/handoffs?rotationId=${rotationId}&limit=${ROTATION_HANDOFF_HISTORY_LIMIT}`,
        undefined,
        { signal },
      ),
    // The engine hands batons over too: read it afresh on each visit and on focus.
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
  });

/** useRotationHandoffHistory returns a rotation's latest handoffs with the notes left with them. */
export function useRotationHandoffHistory(rotationId: number) {
  return useQuery(rotationHandoffHistoryQueryOptions(rotationId));
}
