import type { UserSettings } from '@shared/contracts/settings';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const userSettingsQueryKey = ['/api/user/settings'] as const;

/** userSettingsQueryOptions reads the signed-in user's settings (GET /api/user/settings). */
const userSettingsQueryOptions = () =>
  queryOptions({
    queryKey: userSettingsQueryKey,
    queryFn: ({ signal }) =>
      apiRequest<UserSettings>('GET', '/api/user/settings', undefined, { signal }),
    refetchOnMount: 'always',
  });

/** useUserSettings returns the signed-in user's time zone, handoff reminder and preference. */
export function useUserSettings() {
  return useQuery(userSettingsQueryOptions());
}
