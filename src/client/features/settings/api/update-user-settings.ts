import type { UpdateUserSettingsInput, UserSettings } from '@shared/contracts/settings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { authUserQueryKey } from '@/lib/auth-user-query';
import { notifySettingsError, notifySettingsSaved } from '../lib/notify-settings';
import { userSettingsQueryKey } from './get-user-settings';

/** useUpdateUserSettings saves the time zone and handoff reminder (PATCH /api/user/settings). */
export function useUpdateUserSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateUserSettingsInput) =>
      apiRequest<UserSettings>('PATCH', '/api/user/settings', input),
    onSuccess: (settings) => {
      queryClient.setQueryData(userSettingsQueryKey, settings);
      // The profile edits the same time zone: keep the cached signed-in user in step.
      queryClient.setQueryData(authUserQueryKey, (current) =>
        current ? { user: { ...current.user, timezone: settings.timezone } } : current,
      );
      notifySettingsSaved('Your general settings have been updated.');
    },
    onError: notifySettingsError,
  });
}
