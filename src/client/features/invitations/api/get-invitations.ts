import { INVITATIONS_POLL_MS, type InvitationListItem } from '@shared/contracts/invitations';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** invitationsQueryOptions reads the invitations; the list polls every 3 s (specification section 9). */
export const invitationsQueryOptions = () =>
  queryOptions<InvitationListItem[]>({
    queryKey: ['/api/invitations'],
    refetchInterval: INVITATIONS_POLL_MS,
  });

export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}
