import type { EscalationPolicy } from '@shared/contracts/escalation-policies';
import { queryOptions, useQuery } from '@tanstack/react-query';

/*
 * The escalation policies as the signed-in user may read them (GET /api/escalation-policies):
 * read by the policy screens and by the rotation page (its policy's name, the choice of policy),
 * so the read lives here rather than in either feature (decision 193).
 */

export const escalationPoliciesQueryKey = ['/api/escalation-policies'] as const;

/** escalationPolicyQueryKey sits under the list's key, so refreshing the list refreshes each policy. */
export const escalationPolicyQueryKey = (policyId: number) =>
  ['/api/escalation-policies', policyId] as const;

/** useEscalationPolicies returns the policies the signed-in user may read, with their rotations. */
export function useEscalationPolicies({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    ...queryOptions<EscalationPolicy[]>({ queryKey: escalationPoliciesQueryKey }),
    enabled,
  });
}
