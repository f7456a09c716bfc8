import type { NotificationStatus } from '@shared/contracts/notifications';
import { queryOptions, useQuery } from '@tanstack/react-query';

const notificationStatusQueryKey = ['/api/admin/notifications/status'] as const;

/**
 * notificationStatusQueryOptions reads which channels this server has and which failed in the
 * last hour (administrators, decision 163); polled every 30 s.
 */
const notificationStatusQueryOptions = () =>
  queryOptions<NotificationStatus>({
    queryKey: notificationStatusQueryKey,
    refetchInterval: 30_000,
    refetchOnWindowFocus: true,
  });

/** useNotificationStatus returns GET /api/admin/notifications/status; pass enabled: false for others. */
export function useNotificationStatus(enabled = true) {
  return useQuery({ ...notificationStatusQueryOptions(), enabled });
}
