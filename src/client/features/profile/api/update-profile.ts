import type { UpdateUserInput, User } from '@shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, getErrorMessage } from '@/lib/api-client';
import { type AuthUserData, authUserQueryKey } from '@/lib/auth-user-query';

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
      toast({
        title: 'Profile updated',
        description: 'Your profile has been updated successfully',
      });
    },
    onError: (error) => {
      const fallback =
        error instanceof Error && error.message === 'User not authenticated'
          ? error.message
          : 'Failed to update profile';
      toast({
        variant: 'destructive',
        title: 'Error',
        description: getErrorMessage(error, fallback),
      });
    },
  });
}
