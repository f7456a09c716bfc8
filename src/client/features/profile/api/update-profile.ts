import type { UpdateUserInput, User } from '@shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type AuthUserData, authUserQueryKey } from '@/lib/auth-user-query';
import { notifyError, notifySuccess } from '@/lib/notify';

/**
 * useUpdateProfile saves the signed-in user's profile (PATCH /api/users/{own id}); the answer
 * replaces the cached current user.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateUserInput) => {
      const current = queryClient.getQueryData<AuthUserData>(authUserQueryKey)?.user;
      if (!current) throw new Error('User not authenticated');
      return apiRequest<User>('PATCH', `/api/users/${current.id}`, input);
    },
    onSuccess: (user) => {
      const updated: AuthUserData = { user };
      queryClient.setQueryData(authUserQueryKey, updated);
      notifySuccess('Profile updated', 'Your profile has been updated successfully');
    },
    onError: (error) => {
      const fallback =
        error instanceof Error && error.message === 'User not authenticated'
          ? error.message
          : 'Failed to update profile';
      notifyError('Error', error, fallback);
    },
  });
}
