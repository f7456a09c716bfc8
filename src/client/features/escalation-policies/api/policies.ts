import type {
  EscalationPolicy,
  EscalationPolicyInput,
  EscalationPreview,
} from '@shared/contracts/escalation-policies';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import {
  escalationPoliciesQueryKey,
  escalationPolicyQueryKey,
} from '@/lib/escalation-policy-reads';
import { notifyError, notifySuccess } from '@/lib/notify';

const previewQueryKey = (policyId: number) =>
  ['/api/escalation-policies', policyId, 'preview'] as const;

/** useEscalationPolicy reads one policy (GET /api/escalation-policies/{id}). */
export function useEscalationPolicy(policyId: number) {
  return useQuery(queryOptions<EscalationPolicy>({ queryKey: escalationPolicyQueryKey(policyId) }));
}

/**
 * usePolicyPreview reads whom each step would notify now (GET /api/escalation-policies/{id}/preview).
 * Read again every minute while shown: holders change at handoffs, and steps' hours open and close.
 */
export function usePolicyPreview(policyId: number) {
  return useQuery(
    queryOptions<EscalationPreview>({
      queryKey: previewQueryKey(policyId),
      refetchInterval: 60_000,
      refetchOnMount: 'always',
    }),
  );
}

/**
 * useSavePolicy creates a policy (POST) or replaces one's name, repeat and steps (PATCH). The
 * answer is the policy as stored: it is written into the policy's read, and the list and the
 * preview, which depend on the server (rotations, people's state), are read again.
 */
export function useSavePolicy(policyId: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EscalationPolicyInput) =>
      policyId === null
        ? apiRequest<EscalationPolicy>('POST', '/api/escalation-policies', input)
        : apiRequest<EscalationPolicy>('PATCH', `/api/escalation-policies/${policyId}`, input),
    onSuccess: async (policy) => {
      queryClient.setQueryData(escalationPolicyQueryKey(policy.id), policy);
      notifySuccess(
        policyId === null ? 'Policy created' : 'Policy saved',
        `${policy.name} has ${policy.steps.length} ${policy.steps.length === 1 ? 'step' : 'steps'}.`,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: escalationPoliciesQueryKey, exact: true }),
        queryClient.invalidateQueries({ queryKey: previewQueryKey(policy.id) }),
      ]);
    },
    onError: (error) =>
      notifyError('Error saving policy', error, 'The policy could not be saved. Please try again.'),
  });
}

/** useDeletePolicy deletes an unused policy; a policy in use is refused with its rotations named. */
export function useDeletePolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: Pick<EscalationPolicy, 'id' | 'name'>) =>
      apiRequest<unknown>('DELETE', `/api/escalation-policies/${policy.id}`),
    onSuccess: async (_answer, policy) => {
      queryClient.removeQueries({ queryKey: escalationPolicyQueryKey(policy.id) });
      notifySuccess('Policy deleted', `${policy.name} was deleted.`);
      await queryClient.invalidateQueries({ queryKey: escalationPoliciesQueryKey, exact: true });
    },
    onError: (error) =>
      notifyError('Error deleting policy', error, 'The policy could not be deleted.'),
  });
}
