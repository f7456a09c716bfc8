import { roleUpdateFailureTitle, type User } from '@shared/contracts/users';
import type { Role } from '@shared/domain/roles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getErrorMessage } from '@/lib/api-client';
import { authUserQueryKey } from '@/lib/auth-user-query';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { usersQueryOptions } from './get-users';

/** useUpdateUserRoles replaces a user's roles (administrators only) and refreshes the users list. */
export function useUpdateUserRoles() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, roles }: { userId: number; roles: Role[] }) =>
      apiRequest<User>('PATCH', `/api/admin/users/${userId}/roles`, { roles }),
    onSuccess: () => {
      notifySuccess('Roles Updated', 'The user’s roles have been updated.');
      void queryClient.invalidateQueries({ queryKey: usersQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: authUserQueryKey });
    },
    onError: (error) => {
      const message = getErrorMessage(error, 'Failed to update roles');
      notifyFailure(roleUpdateFailureTitle(message), message);
    },
  });
}
