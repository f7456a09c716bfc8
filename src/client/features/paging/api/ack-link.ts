import type { AckLink } from '@shared/contracts/paging';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const ackLinkQueryKey = (token: string) => ['/api/pages/ack', token] as const;

/** useAckLink reads what an acknowledgement link is for; reading it acknowledges nothing. */
export function useAckLink(token: string) {
  return useQuery(queryOptions<AckLink>({ queryKey: ackLinkQueryKey(token) }));
}

/** useConfirmAckLink acknowledges the page of a link (POST /api/pages/ack/{token}), no sign-in. */
export function useConfirmAckLink(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<AckLink>('POST', `/api/pages/ack/${encodeURIComponent(token)}`),
    onSuccess: (link) => queryClient.setQueryData(ackLinkQueryKey(token), link),
  });
}
