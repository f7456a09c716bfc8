import type { CreateInvitationInput, InvitationListItem } from '@shared/contracts/invitations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { invitationsQueryOptions } from './get-invitations';

/** The list is refreshed at once and again this much later (specification section 7). */
const REFRESH_AGAIN_MS = 500;

/** useCreateInvitation sends an invitation and refreshes the list. */
export function useCreateInvitation() {
  const queryClient = useQueryClient();
  const { queryKey } = invitationsQueryOptions();
  return useMutation({
    mutationFn: (input: CreateInvitationInput) =>
      apiRequest<InvitationListItem>('POST', '/api/invitations', input),
    onSuccess: () => {
      notifySuccess('Invitation Sent', 'User invitation has been sent successfully.');
      void queryClient.invalidateQueries({ queryKey });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey }), REFRESH_AGAIN_MS);
    },
    onError: (error) => {
      notifyError('Invitation Failed', error, 'Failed to send invitation. Please try again.');
    },
  });
}
