import type { SetupChecklist } from '@shared/contracts/setup';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';
import { setupQueryKey } from './get-setup';

/** useDismissSetup hides the checklist for the signed-in administrator (POST /api/setup/dismiss). */
export function useDismissSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<SetupChecklist>('POST', '/api/setup/dismiss'),
    onSuccess: (checklist) => {
      queryClient.setQueryData(setupQueryKey, checklist);
      notifySuccess(
        'Setup checklist dismissed',
        'Each of its screens stays in the menu: User Management, Rotations, Escalation Policies and your Profile.',
      );
    },
    onError: (error) => notifyError('Error', error, 'Failed to dismiss the setup checklist'),
  });
}
