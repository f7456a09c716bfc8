import type { Handoff } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { notifyError, notifySuccess } from '@/lib/notify';

export type AcknowledgeVariables = { handoffId: number; rotationName: string };

/**
 * useAcknowledgeHandoff records that the signed-in user acknowledges the baton they received
 * (POST /api/handoffs/{id}/acknowledge), then refetches the rotation reads, recent handoffs and
 * the handoff history.
 */
export function useAcknowledgeHandoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ handoffId }: AcknowledgeVariables) =>
      apiRequest<Handoff>('POST', `/api/handoffs/${handoffId}/acknowledge`),
    onSuccess: async (_handoff, { rotationName }) => {
      notifySuccess(
        'Handoff acknowledged',
        `You acknowledged new on-call duty for ${rotationName}.`,
      );
      // The handoff history too: the handoff is now 'acknowledged' there (decision 187).
      await Promise.all(
        [
          ['/api/rotations'],
          ['/api/user/rotations'],
          ['/api/handoffs/recent'],
          ['/api/audit-log/handoffs'],
        ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
    onError: (error) =>
      notifyError(
        'Error acknowledging handoff',
        error,
        'There was an error acknowledging the handoff. Please try again.',
      ),
  });
}
