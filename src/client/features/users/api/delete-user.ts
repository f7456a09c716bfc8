import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, getErrorMessage } from '@/lib/api-client';
import { usersQueryOptions } from './get-users';

/** useDeleteUser deletes a user and refreshes the users list. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>('DELETE', `/api/users/${id}`),
    onSuccess: () => {
      toast({ title: 'User Deleted', description: 'User has been deleted successfully.' });
      void queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey });
    },
    onError: (error) => {
      toast({
        variant: 'destructive',
        title: 'Delete Failed',
        description: getErrorMessage(error, 'Failed to delete user. Please try again.'),
      });
    },
  });
}
