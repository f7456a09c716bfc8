import type { Handoff } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@/components/ui/use-toast';
import { apiRequest, getErrorMessage } from '@/lib/api-client';

export type AcknowledgeVariables = { handoffId: number; rotationName: string };

/**
 * useAcknowledgeHandoff records that the signed-in user acknowledges the baton they received
 * (POST /api/handoffs/{id}/acknowledge), then refetches the rotation reads and recent handoffs.
 */
export function useAcknowledgeHandoff() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ handoffId }: AcknowledgeVariables) =>
      apiRequest<Handoff>('POST', `/api/handoffs/${handoffId}/acknowledge`),
    onSuccess: async (_handoff, { rotationName }) => {
      toast({
        title: 'Handoff acknowledged',
        description: `You acknowledged new on-call duty for ${rotationName}.`,
      });
      await Promise.all(
        [['/api/rotations'], ['/api/user/rotations'], ['/api/handoffs/recent']].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
    onError: (error) =>
      toast({
        variant: 'destructive',
        title: 'Error acknowledging handoff',
        description: getErrorMessage(
          error,
          'There was an error acknowledging the handoff. Please try again.',
        ),
      }),
  });
}
