import { INBOX_PAGE_SIZE, type InboxPage } from '@shared/contracts/inbox';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Whose messages the inbox shows: the signed-in person's own, or everyone's (administrators). */
export type InboxScope = 'mine' | 'everyone';

const INBOX_URL: Record<InboxScope, string> = {
  mine: '/api/inbox',
  everyone: '/api/admin/inbox',
};

/** inboxQueryOptions reads the demo inbox page by page, newest first (decision 186). */
export const inboxQueryOptions = (scope: InboxScope) =>
  infiniteQueryOptions({
    queryKey: [INBOX_URL[scope]] as const,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(INBOX_PAGE_SIZE) });
      if (pageParam) params.set('before', String(pageParam));
      return apiRequest<InboxPage>('GET', `${INBOX_URL[scope]}?${params}`, undefined, { signal });
    },
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.nextCursor,
    refetchOnMount: 'always',
    // The outbox worker keeps new messages every few seconds.
    refetchInterval: 10_000,
  });

/** useInbox returns the inbox of one scope and 'load more'. */
export function useInbox(scope: InboxScope) {
  return useInfiniteQuery(inboxQueryOptions(scope));
}
