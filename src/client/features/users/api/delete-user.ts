import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { usersQueryOptions } from './get-users';

/** useDeleteUser deletes a user and refreshes the users list. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<unknown>('DELETE', `/api/users/${id}`),
    onSuccess: () => {
      notifySuccess('User Deleted', 'User has been deleted successfully.');
      void queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey });
    },
    onError: (error) => {
      notifyError('Delete Failed', error, 'Failed to delete user. Please try again.');
    },
  });
}
