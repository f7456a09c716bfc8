import type { Invitation } from '@shared/contracts/invitations';
import { normalizeRole, ROLE_LABELS } from '@shared/domain/roles';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiRequestError } from '@/lib/api-client';

/** An invitation as GET /api/invitations/{token}/validate answers it (type only: no zod here). */
type InvitationSummary = Invitation;

type ValidateInvitationResponse = { invitation: InvitationSummary };

/** validateInvitationQueryOptions checks an invitation token with the server. */
const validateInvitationQueryOptions = (token: string) =>
  queryOptions<ValidateInvitationResponse>({
    queryKey: ['/api/invitations', token, 'validate'],
    // A token is checked each time the invite page opens, never answered from an old read.
    staleTime: 0,
    gcTime: 0,
  });

export type InvitationValidation =
  | { state: 'validating' }
  | { state: 'valid'; invitation: InvitationSummary; roleLabel: string }
  | { state: 'invalid'; message: string };

/** invitationRoleLabel returns the name users see for an invitation's role ('member' is On-Call). */
export function invitationRoleLabel(role: string): string {
  const normalized = normalizeRole(role);
  return normalized ? ROLE_LABELS[normalized] : role;
}

/** useInvitationValidation returns where the check of `token` stands. */
export function useInvitationValidation(token: string): InvitationValidation {
  const query = useQuery(validateInvitationQueryOptions(token));
  if (query.isPending) return { state: 'validating' };
  if (query.isError) {
    const error = query.error;
    if (error instanceof ApiRequestError) {
      return { state: 'invalid', message: error.body?.message || 'Invalid invitation' };
    }
    return { state: 'invalid', message: 'Unable to validate invitation. Please try again.' };
  }
  const { invitation } = query.data;
  return { state: 'valid', invitation, roleLabel: invitationRoleLabel(invitation.role) };
}
