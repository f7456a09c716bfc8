import type { QueryClient } from '@tanstack/react-query';

/*
 * The keys of the reads that more than one feature refreshes after a write. A feature does not
 * import another feature (decision 193), so these live here, and each feature's read and write
 * take them from here.
 */

/** The coverage requests asking the signed-in user to cover, and theirs (GET /api/coverage-requests). */
export const coverageRequestsQueryKey = ['/api/coverage-requests'] as const;

/** The unresolved pages sent to the signed-in user (GET /api/user/pages). */
export const myPagesQueryKey = ['/api/user/pages'] as const;

/** What the signed-in user paged that could not be delivered (GET /api/user/page-delivery-failures). */
export const pageDeliveryFailuresQueryKey = ['/api/user/page-delivery-failures'] as const;

/**
 * rotationPagesQueryKey sits under the rotation's own key (['/api/rotations', id]), so whatever
 * refreshes a rotation refreshes its page history too.
 */
export const rotationPagesQueryKey = (rotationId: number) =>
  ['/api/rotations', rotationId, 'pages'] as const;

/**
 * refreshPageViews refetches the reads a new or changed page of a rotation appears in: the
 * signed-in user's pages (the dashboard panel and the pages screen), their delivery failures and
 * the rotation's page history. A page answer cannot be written into them directly: each is
 * filtered and ordered by the server (open pages first, failures only), so it is read again.
 */
export function refreshPageViews(queryClient: QueryClient, rotationId: number) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: myPagesQueryKey }),
    queryClient.invalidateQueries({ queryKey: pageDeliveryFailuresQueryKey }),
    queryClient.invalidateQueries({ queryKey: rotationPagesQueryKey(rotationId) }),
  ]);
}

/**
 * Every incident read (the list, the dashboard card, one incident and its alerts) starts with
 * this key (features/incidents/api/keys.ts): an alert from another screen ("Send test alert")
 * refreshes them all.
 */
export const incidentReadsQueryKey = ['/api/incidents'] as const;
