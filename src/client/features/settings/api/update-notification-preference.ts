import type { AuthResponse } from '@shared/contracts/auth';
import type { User } from '@shared/contracts/users';
import type { NotificationPreference } from '@shared/domain/notification-routing';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { authUserQueryKey } from '@/lib/auth-user-query';
import { notifySettingsError, notifySettingsSaved } from '../lib/notify-settings';
import { userSettingsQueryKey } from './get-user-settings';

/**
 * useUpdateNotificationPreference saves the notification preference through the profile call
 * (PATCH /api/users/{id} with notificationPreference only, specification section 7); the updated
 * user it answers replaces the cached current user.
 */
export function useUpdateNotificationPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      userId,
      notificationPreference,
    }: {
      userId: number;
      notificationPreference: NotificationPreference;
    }) => apiRequest<User>('PATCH', `/api/users/${userId}`, { notificationPreference }),
    onSuccess: async (user) => {
      const signedIn: AuthResponse = { user };
      queryClient.setQueryData(authUserQueryKey, signedIn);
      await queryClient.invalidateQueries({ queryKey: userSettingsQueryKey });
      notifySettingsSaved('Your notification preferences have been updated.');
    },
    onError: notifySettingsError,
  });
}
