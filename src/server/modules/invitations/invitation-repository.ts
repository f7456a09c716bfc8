import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Invitation } from '../../../shared/contracts/invitations';
import { hashToken, newBearerSecret } from '../../crypto/bearer-secrets';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { invitations } from '../../db/schema';

export type InvitationRow = typeof invitations.$inferSelect;

const ctx = (column: string, rowId: number) => ({ table: 'invitations', column, rowId });

/** How many invitations the list answers at most, newest first. */
const INVITATION_LIST_LIMIT = 200;

/** invitationStatus returns the status shown for an invitation: a pending one past expiry is 'expired'. */
function invitationStatus(row: InvitationRow, now?: Date): string {
  if (now && row.status === 'pending' && row.expiresAt <= now) return 'expired';
  return row.status;
}

/** toInvitation decrypts a stored invitation into the API's shape. */
export function toInvitation(row: InvitationRow, cipher: FieldCipher, now?: Date): Invitation {
  return {
    id: row.id,
    name: cipher.decrypt(row.nameEnc, ctx('name', row.id)),
    email: cipher.decrypt(row.emailEnc, ctx('email', row.id)),
    role: row.role,
    status: invitationStatus(row, now),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/*
 * Invitation tokens (decision 110, superseding the token part of 012). A token is 32 random bytes
 * (base64url). Its SHA-256 is stored for lookup; the token itself is stored only sealed with the
 * field cipher (bound to its row), so an administrator can copy the link of a pending invitation
 * again while no email goes out. Invitations made before 110 have no sealed token: their links
 * (HMAC-derived) still validate through the hash, but cannot be shown again.
 */

/**
 * recoverInvitationToken returns the token of an invitation, opened from its sealed copy, or null
 * when the row keeps none (made before decision 110) or the copy does not match the stored hash.
 */
export function recoverInvitationToken(cipher: FieldCipher, row: InvitationRow): string | null {
  if (!row.tokenEnc) return null;
  const token = cipher.decrypt(row.tokenEnc, ctx('token', row.id));
  return hashToken(token) === row.tokenHash ? token : null;
}

/** insertInvitation stores a pending invitation and returns it with its single-use token. */
export async function insertInvitation(
  db: Db | Tx,
  cipher: FieldCipher,
  input: {
    name: string;
    email: string;
    role: string;
    expiresAt: Date;
    invitedById?: number | null;
    createdAt?: Date;
  },
): Promise<{ invitation: Invitation; token: string; row: InvitationRow }> {
  const [id] = await allocateIds(db, 'invitations');
  const token = newBearerSecret('invitation');
  const [row] = await db
    .insert(invitations)
    .values({
      id,
      nameEnc: cipher.encrypt(input.name, ctx('name', id)),
      emailEnc: cipher.encrypt(input.email.trim(), ctx('email', id)),
      emailIndex: cipher.blindIndex(input.email),
      role: input.role,
      tokenHash: hashToken(token),
      tokenEnc: cipher.encrypt(token, ctx('token', id)),
      expiresAt: input.expiresAt,
      invitedById: input.invitedById ?? null,
      createdAt: input.createdAt ?? new Date(),
    })
    .returning();
  return { invitation: toInvitation(row, cipher), token, row };
}

/** findInvitationByToken returns the invitation a token belongs to, whatever its state. */
export async function findInvitationByToken(
  db: Db | Tx,
  token: string,
): Promise<InvitationRow | undefined> {
  if (!token || token.length > 200) return undefined;
  const [row] = await db
    .select()
    .from(invitations)
    .where(eq(invitations.tokenHash, hashToken(token)))
    .limit(1);
  return row;
}

/** findPendingInvitationByEmail returns the live pending invitation for an address, if any. */
export async function findPendingInvitationByEmail(
  db: Db | Tx,
  cipher: FieldCipher,
  email: string,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<InvitationRow | undefined> {
  const query = db
    .select()
    .from(invitations)
    .where(
      and(
        inArray(invitations.emailIndex, cipher.blindIndexes(email)),
        eq(invitations.status, 'pending'),
        gt(invitations.expiresAt, now),
      ),
    )
    .limit(1);
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * expirePendingInvitations marks the pending invitations for an address that are past their
 * expiry as 'expired', so a new invitation may be sent (one pending invitation per address).
 */
export async function expirePendingInvitations(
  db: Db | Tx,
  cipher: FieldCipher,
  email: string,
  now: Date,
): Promise<void> {
  await db
    .update(invitations)
    // A link that can no longer be used need not stay showable (decision 110).
    .set({ status: 'expired', tokenEnc: null })
    .where(
      and(
        inArray(invitations.emailIndex, cipher.blindIndexes(email)),
        eq(invitations.status, 'pending'),
        lte(invitations.expiresAt, now),
      ),
    );
}

/** listInvitationRows returns the most recent invitations, newest first (one query). */
export async function listInvitationRows(db: Db | Tx): Promise<InvitationRow[]> {
  return db
    .select()
    .from(invitations)
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(INVITATION_LIST_LIMIT);
}

/** deleteInvitationRow deletes an invitation; answers it as it was, or undefined when there was none. */
export async function deleteInvitationRow(
  db: Db | Tx,
  id: number,
): Promise<InvitationRow | undefined> {
  const [deleted] = await db.delete(invitations).where(eq(invitations.id, id)).returning();
  return deleted;
}

/** markInvitationAccepted records that an invitation was used; false if it was no longer pending. */
export async function markInvitationAccepted(
  db: Db | Tx,
  id: number,
  userId: number,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(invitations)
    .set({ status: 'accepted', acceptedUserId: userId, acceptedAt: now, tokenEnc: null })
    .where(and(eq(invitations.id, id), eq(invitations.status, 'pending')))
    .returning({ id: invitations.id });
  return updated.length === 1;
}
