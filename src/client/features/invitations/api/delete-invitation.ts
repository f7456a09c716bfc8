import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { invitationsQueryOptions } from './get-invitations';

/** useDeleteInvitation deletes an invitation and refreshes the list. */
export function useDeleteInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>('DELETE', `/api/invitations/${id}`),
    onSuccess: () => {
      notifySuccess('Invitation Deleted', 'Invitation has been deleted successfully.');
      void queryClient.invalidateQueries({ queryKey: invitationsQueryOptions().queryKey });
    },
    onError: () => {
      notifyFailure('Delete Failed', 'Failed to delete invitation. Please try again.');
    },
  });
}
