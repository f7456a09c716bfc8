import { z } from 'zod';
import { text } from './primitives';

export const INVITATION_ROLES = ['admin', 'manager', 'incident_manager', 'member'] as const;
export type InvitationRole = (typeof INVITATION_ROLES)[number];
/** Invitations expire this long after they are sent. */
export const INVITATION_TTL_DAYS = 7;
/** The Pending Invitations table polls the list this often. */
export const INVITATIONS_POLL_MS = 3000;

/** InvitationSchema is an invitation as the API returns it. */
export const InvitationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  /** pending, accepted, expired (a pending invitation past its expiry), revoked */
  status: z.string(),
  expiresAt: z.string(),
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const InvitationValidationSchema = z.object({ invitation: InvitationSchema });

/** InvitationListItemSchema is an invitation in GET /api/invitations (administrators only). */
export const InvitationListItemSchema = InvitationSchema.extend({
  createdAt: z.string(),
  /** the sign-up link to copy while the invitation is pending; null otherwise */
  inviteUrl: z.string().nullable(),
});
export type InvitationListItem = z.infer<typeof InvitationListItemSchema>;

/** emailDomainOf returns the lower-cased domain of an address ('' when it has none). */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at === -1
    ? ''
    : email
        .slice(at + 1)
        .trim()
        .toLowerCase();
}

/**
 * createInvitationInputSchema returns the schema of POST /api/invitations and of the Invite User
 * form for a company domain (the server knows it; the client reads it from GET /api/auth/options).
 */
export function createInvitationInputSchema(companyDomain: string) {
  const domain = companyDomain.toLowerCase();
  return z.object({
    email: text({ label: 'Email', trim: true, error: 'Invalid email address' })
      .max(320, 'Invalid email address')
      .pipe(z.email('Invalid email address'))
      .refine(
        (email) => emailDomainOf(email) === domain,
        `Email must be from the ${domain} domain`,
      ),
    name: text({ label: 'Name', trim: true, error: 'Name is required' })
      .min(1, 'Name is required')
      .max(200, 'Name must be at most 200 characters'),
    role: z
      .enum(INVITATION_ROLES, { error: 'Role must be admin, manager, incident_manager or member' })
      .default('member'),
  });
}
export type CreateInvitationInput = z.input<ReturnType<typeof createInvitationInputSchema>>;
