import type { CreateInvitationInput, InvitationListItem } from '@shared/contracts/invitations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, getErrorMessage } from '@/lib/api-client';
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
      toast({
        title: 'Invitation Sent',
        description: 'User invitation has been sent successfully.',
      });
      void queryClient.invalidateQueries({ queryKey });
      setTimeout(() => void queryClient.invalidateQueries({ queryKey }), REFRESH_AGAIN_MS);
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Invitation Failed',
        description: getErrorMessage(error, 'Failed to send invitation. Please try again.'),
      });
    },
  });
}
