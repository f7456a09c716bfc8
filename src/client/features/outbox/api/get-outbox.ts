import { NOTIFICATION_STATUSES, type OutboxEntry } from '@shared/contracts/notifications';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export type OutboxFilter = 'all' | (typeof NOTIFICATION_STATUSES)[number];
export const OUTBOX_FILTERS: readonly OutboxFilter[] = ['all', ...NOTIFICATION_STATUSES];
/** The outbox view shows the latest this many notifications. */
export const OUTBOX_LIMIT = 200;

const outboxQueryKey = (filter: OutboxFilter) => ['/api/admin/notifications', { filter }] as const;

/** outboxQueryOptions reads the latest notifications, optionally of one delivery state (admins). */
const outboxQueryOptions = (filter: OutboxFilter) =>
  queryOptions({
    queryKey: outboxQueryKey(filter),
    queryFn: ({ signal }) =>
      apiRequest<OutboxEntry[]>(
        'GET',
        `/api/admin/notifications?limit=${OUTBOX_LIMIT}${filter === 'all' ? '' : `&status=${filter}`}`,
        undefined,
        { signal },
      ),
    refetchOnMount: 'always',
    refetchInterval: 10_000,
  });

/** useOutbox returns the outbox as administrators see it (GET /api/admin/notifications). */
export function useOutbox(filter: OutboxFilter) {
  return useQuery(outboxQueryOptions(filter));
}
