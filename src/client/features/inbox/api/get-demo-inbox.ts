import type { InboxPage } from '@shared/contracts/inbox';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * demoInboxQueryOptions asks once whether this server keeps a demo inbox (the flag of GET
 * /api/inbox): the sidebar and the avatar menu link to it only then.
 */
export const demoInboxQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/inbox', 'demoInbox'] as const,
    queryFn: async ({ signal }) =>
      (await apiRequest<InboxPage>('GET', '/api/inbox?limit=1', undefined, { signal })).demoInbox,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** useDemoInbox tells whether this server keeps a demo inbox; false until known. */
export function useDemoInbox(enabled: boolean): boolean {
  return useQuery({ ...demoInboxQueryOptions(), enabled }).data ?? false;
}
