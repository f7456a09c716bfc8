import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest } from '@/lib/api-client';
import { invitationsQueryOptions } from './get-invitations';

/** useDeleteInvitation deletes an invitation and refreshes the list. */
export function useDeleteInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>('DELETE', `/api/invitations/${id}`),
    onSuccess: () => {
      toast({
        title: 'Invitation Deleted',
        description: 'Invitation has been deleted successfully.',
      });
      void queryClient.invalidateQueries({ queryKey: invitationsQueryOptions().queryKey });
    },
    onError: () => {
      toast({
        variant: 'destructive',
        title: 'Delete Failed',
        description: 'Failed to delete invitation. Please try again.',
      });
    },
  });
}
