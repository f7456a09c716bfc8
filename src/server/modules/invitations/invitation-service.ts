import {
  type CreateInvitationInput,
  INVITATION_TTL_DAYS,
  type InvitationListItem,
} from '../../../shared/contracts/invitations';
import type { User } from '../../../shared/contracts/users';
import { effectiveRoles } from '../../../shared/domain/roles';
import type { Clock } from '../../core/clock';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { conflict, notFound } from '../../http/errors';
import { recordAdminEvent } from '../audit/people-events';
import { announce } from '../notifications/announce';
import { findUserRowByEmail, insertUsers, type NewUser } from '../users/user-repository';
import {
  deleteInvitationRow,
  expirePendingInvitations,
  findPendingInvitationByEmail,
  type InvitationRow,
  insertInvitation,
  listInvitationRows,
  markInvitationAccepted,
  recoverInvitationToken,
  toInvitation,
} from './invitation-repository';

const DAY_MS = 86_400_000;

export interface InvitationServiceDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  /** Baton's public origin, for invitation links */
  baseUrl: string;
}

/** invitationUrl returns the sign-up link of a token. */
function invitationUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/invite/${token}`;
}

function toListItem(
  deps: InvitationServiceDeps,
  row: InvitationRow,
  now: Date,
): InvitationListItem {
  const invitation = toInvitation(row, deps.cipher, now);
  const token = invitation.status === 'pending' ? recoverInvitationToken(deps.cipher, row) : null;
  return {
    ...invitation,
    createdAt: row.createdAt.toISOString(),
    inviteUrl: token ? invitationUrl(deps.baseUrl, token) : null,
  };
}

/**
 * createInvitation sends (stores) an invitation valid for 7 days. Refused with 409 when a user
 * already has the address or a live invitation for it is pending (in any letter case).
 */
export async function createInvitation(
  deps: InvitationServiceDeps,
  actor: User,
  input: Required<Pick<CreateInvitationInput, 'email' | 'name' | 'role'>>,
): Promise<InvitationListItem> {
  const now = deps.clock.now();
  try {
    return await deps.db.transaction(async (tx) => {
      if (await findUserRowByEmail(tx, deps.cipher, input.email)) {
        throw conflict('A user with this email address already exists.');
      }
      if (await findPendingInvitationByEmail(tx, deps.cipher, input.email, now)) {
        throw conflict('An invitation is already pending for this email address.');
      }
      await expirePendingInvitations(tx, deps.cipher, input.email, now);
      const { row } = await insertInvitation(tx, deps.cipher, {
        name: input.name,
        email: input.email,
        role: input.role,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_DAYS * DAY_MS),
        invitedById: actor.id,
        createdAt: now,
      });
      const item = toListItem(deps, row, now);
      // The invitation link goes out by email through the outbox, in this same transaction.
      if (item.inviteUrl) {
        // The email's link back to Baton uses the same base as the invitation link: PUBLIC_URL,
        // else the address the administrator reached Baton at.
        await announce(tx, { cipher: deps.cipher, config: { publicUrl: deps.baseUrl } }, now, {
          type: 'invitation',
          key: `invitation:${row.id}`,
          at: now,
          // The invitee has no account yet: their address only, by email.
          told: [
            {
              person: {
                id: null,
                email: input.email,
                phone: null,
                notificationPreference: 'email',
              },
              as: 'to',
            },
          ],
          invitee: {
            name: input.name,
            email: input.email,
            role: input.role,
            expiresAt: row.expiresAt,
          },
          link: item.inviteUrl,
          inviterName: actor.name,
        });
      }
      await recordAdminEvent(tx, {
        actorUserId: actor.id,
        action: 'user.invited',
        targetType: 'invitation',
        targetId: row.id,
        details: { role: input.role },
        at: now,
      });
      return item;
    });
  } catch (err) {
    // Two administrators inviting the same address at once: the unique index decides.
    if ((err as { code?: string }).code === '23505' || /23505|unique/i.test(String(err))) {
      throw conflict('An invitation is already pending for this email address.');
    }
    throw err;
  }
}

/**
 * userFromInvitation makes the invitee's account, as the invitation says (its name, address and
 * role, with what the caller adds: a verified identity at sign-in, the source's phone and zone at
 * an import), and marks the invitation accepted; 409 when it was no longer pending.
 */
export async function userFromInvitation(
  tx: Tx,
  cipher: FieldCipher,
  invitation: { id: number; name: string; email: string; role: string },
  now: Date,
  extra: Partial<Pick<NewUser, 'email' | 'oidcIssuer' | 'oidcSubject' | 'phone' | 'timezone'>> = {},
): Promise<User> {
  const [user] = await insertUsers(tx, cipher, [
    {
      name: invitation.name,
      email: invitation.email,
      roles: effectiveRoles([invitation.role]),
      ...extra,
    },
  ]);
  if (!user || !(await markInvitationAccepted(tx, invitation.id, user.id, now))) {
    throw conflict('This invitation has already been used.');
  }
  return user;
}

/**
 * acceptImportedInvitation makes the account of an invitation an import just sent (issue 34,
 * decision 268), as the invitee's first sign-in would: the person holds their turns from the
 * import on, and signing in later (the invitation's link is the sign-in page) finds the account.
 */
export async function acceptImportedInvitation(
  deps: Pick<InvitationServiceDeps, 'db' | 'cipher' | 'clock'>,
  invitation: InvitationListItem,
  profile: { phone: string | null; timezone?: string },
): Promise<number> {
  return deps.db.transaction(async (tx) => {
    const user = await userFromInvitation(tx, deps.cipher, invitation, deps.clock.now(), profile);
    return user.id;
  });
}

/** listInvitations returns the recent invitations, newest first, with links for pending ones. */
export async function listInvitations(deps: InvitationServiceDeps): Promise<InvitationListItem[]> {
  const now = deps.clock.now();
  const rows = await listInvitationRows(deps.db);
  return rows.map((row) => toListItem(deps, row, now));
}

/**
 * deleteInvitation deletes an invitation (its link stops working) and records it, with the
 * invitee's name sealed in the event (decision 132).
 */
export async function deleteInvitation(
  deps: InvitationServiceDeps,
  actor: User,
  id: number,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const row = await deleteInvitationRow(tx, id);
    if (!row) throw notFound('Invitation not found');
    const targetName = toInvitation(row, deps.cipher).name;
    await recordAdminEvent(
      tx,
      {
        actorUserId: actor.id,
        action: 'invitation.deleted',
        targetType: 'invitation',
        targetId: id,
        at: deps.clock.now(),
      },
      { cipher: deps.cipher, targetName },
    );
  });
}
