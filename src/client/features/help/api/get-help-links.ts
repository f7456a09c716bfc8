import type { HelpLinks } from '@shared/contracts/help';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const helpLinksQueryKey = ['/api/help/links'] as const;

/**
 * helpLinksQueryOptions reads where this deployment's Users Forum and Report a Bug links point
 * (GET /api/help/links, public; USERS_FORUM_URL and BUG_REPORT_URL on the server, decision 184).
 */
const helpLinksQueryOptions = () =>
  queryOptions({
    queryKey: helpLinksQueryKey,
    queryFn: ({ signal }) => apiRequest<HelpLinks>('GET', '/api/help/links', undefined, { signal }),
  });

/** useHelpLinks returns where the forum and bug-report links point, once read. */
export function useHelpLinks() {
  return useQuery(helpLinksQueryOptions());
}
