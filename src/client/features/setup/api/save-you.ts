import type { SetupYouFormValues } from '@shared/contracts/setup';
import type { User } from '@shared/contracts/users';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type AuthUserData, authUserQueryKey } from '@/lib/auth-user-query';
import { notifyError, notifySuccess } from '@/lib/notify';
import { setupQueryKey } from './get-setup';

/**
 * useSaveYou saves the administrator's phone and time zone with the profile API (PATCH
 * /api/users/{own id}); the answer replaces the cached current user, and the checklist is read
 * again.
 */
export function useSaveYou(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ phone, timezone }: SetupYouFormValues) =>
      apiRequest<User>('PATCH', `/api/users/${userId}`, {
        timezone,
        ...(phone ? { phone } : {}),
      }),
    onSuccess: async (user) => {
      const updated: AuthUserData = { user };
      queryClient.setQueryData(authUserQueryKey, updated);
      notifySuccess('Profile updated', 'Your profile has been updated successfully');
      await queryClient.invalidateQueries({ queryKey: setupQueryKey });
    },
    onError: (error) => notifyError('Error', error, 'Failed to update profile'),
  });
}
