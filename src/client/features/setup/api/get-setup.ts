import type { SetupChecklist } from '@shared/contracts/setup';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const PATH = '/api/setup';
export const setupQueryKey = [PATH] as const;

/**
 * useSetupChecklist reads the administrator's setup checklist. Its steps are done elsewhere (User
 * Management, the rotation form, the policy editor…), so it is read again each time the
 * dashboard mounts, not kept until something invalidates it.
 */
export function useSetupChecklist(enabled: boolean) {
  return useQuery({
    queryKey: setupQueryKey,
    queryFn: ({ signal }) => apiRequest<SetupChecklist>('GET', PATH, undefined, { signal }),
    enabled,
    staleTime: 0,
  });
}
