import type { TestPageResult } from '@shared/contracts/setup';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { setupQueryKey } from './get-setup';

/**
 * useSendTestPage sends the administrator a test page by email and SMS (POST
 * /api/setup/test-page); the checklist it answers replaces the cached one.
 */
export function useSendTestPage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<TestPageResult>('POST', '/api/setup/test-page'),
    onSuccess: (answer) => queryClient.setQueryData(setupQueryKey, answer.checklist),
  });
}
