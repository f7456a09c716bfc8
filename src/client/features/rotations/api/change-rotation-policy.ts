import type { Rotation } from '@shared/contracts/rotations';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { escalationPoliciesQueryKey } from '@/lib/escalation-policy-reads';
import { notifyError, notifySuccess } from '@/lib/notify';
import { rotationQueryKey } from './get-rotation';
import { rotationsQueryKey } from './get-rotations';

export type ChangeRotationPolicyVariables = {
  rotationId: number;
  escalationPolicyId: number;
  policyName: string;
};

/**
 * useChangeRotationPolicy points a rotation at another escalation policy (PATCH
 * /api/rotations/{id} with `escalationPolicyId`, decision 202). The answer is the rotation as it
 * now is; the policies are read again, since each lists the rotations following it.
 */
export function useChangeRotationPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rotationId, escalationPolicyId }: ChangeRotationPolicyVariables) =>
      apiRequest<Rotation>('PATCH', `/api/rotations/${rotationId}`, { escalationPolicyId }),
    onSuccess: async (rotation, { policyName }) => {
      queryClient.setQueryData(rotationQueryKey(rotation.id), rotation);
      notifySuccess('Escalation policy changed', `${rotation.name} now follows ${policyName}.`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: rotationsQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: escalationPoliciesQueryKey }),
      ]);
    },
    onError: (error) =>
      notifyError('Error changing policy', error, 'The escalation policy could not be changed.'),
  });
}
