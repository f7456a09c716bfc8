import type { TestAlertPreview } from '@shared/contracts/integrations';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { testAlertPreviewQueryKey } from './keys';

/**
 * useTestAlertPreview reads whom "Send test alert" would page now (GET
 * /api/integrations/{id}/test), afresh each time the confirmation opens: who is on call moves.
 */
export function useTestAlertPreview(integrationId: number, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: testAlertPreviewQueryKey(integrationId),
    queryFn: ({ signal }) =>
      apiRequest<TestAlertPreview>('GET', `/api/integrations/${integrationId}/test`, undefined, {
        signal,
      }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  });
}
