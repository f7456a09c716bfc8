import { createHmac } from 'node:crypto';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Invitation } from '../../../shared/contracts/invitations';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { allocateIds } from '../../db/ids';
import { invitations } from '../../db/schema';
import { hashToken } from '../sessions/session-service';

export type InvitationRow = typeof invitations.$inferSelect;

const ctx = (column: string, rowId: number) => ({ table: 'invitations', column, rowId });

/** How many invitations the list answers at most, newest first. */
export const INVITATION_LIST_LIMIT = 200;

/** invitationStatus returns the status shown for an invitation: a pending one past expiry is 'expired'. */
export function invitationStatus(row: InvitationRow, now?: Date): string {
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
 * Invitation tokens (decision 012). A token is HMAC-SHA256, under a secret only the server holds,
 * of the invitation's id and creation instant: unpredictable without the secret, like a random
 * one, and only its SHA-256 is stored. Deriving it lets an administrator copy the link of a
 * pending invitation again later (no email channel yet) without the token being kept anywhere.
 * The secret is the blind-index HMAC of a fixed label that no email address can spell (it has
 * spaces and no '@'), so it comes from the encryption key and follows key rotation.
 */
const LINK_SECRET_LABEL = 'baton invitation link secret v1';

function tokenUnder(secret: string, id: number, createdAt: Date): string {
  return createHmac('sha256', secret).update(`${id}:${createdAt.getTime()}`).digest('base64url');
}

/** invitationToken returns the token of an invitation under the current key. */
export function invitationToken(cipher: FieldCipher, id: number, createdAt: Date): string {
  return tokenUnder(cipher.blindIndex(LINK_SECRET_LABEL), id, createdAt);
}

/**
 * recoverInvitationToken returns the token whose hash is stored for the row, trying every known
 * key (an invitation made before a key rotation keeps its link), or null when none matches.
 */
export function recoverInvitationToken(cipher: FieldCipher, row: InvitationRow): string | null {
  for (const secret of cipher.blindIndexes(LINK_SECRET_LABEL)) {
    const token = tokenUnder(secret, row.id, row.createdAt);
    if (hashToken(token) === row.tokenHash) return token;
  }
  return null;
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
  // Whole milliseconds: the token is derived from this instant, and the database keeps micros.
  const createdAt = new Date(Math.floor((input.createdAt ?? new Date()).getTime()));
  const token = invitationToken(cipher, id, createdAt);
  const [row] = await db
    .insert(invitations)
    .values({
      id,
      nameEnc: cipher.encrypt(input.name, ctx('name', id)),
      emailEnc: cipher.encrypt(input.email.trim(), ctx('email', id)),
      emailIndex: cipher.blindIndex(input.email),
      role: input.role,
      tokenHash: hashToken(token),
      expiresAt: input.expiresAt,
      invitedById: input.invitedById ?? null,
      createdAt,
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
    .set({ status: 'expired' })
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

/** deleteInvitationRow deletes an invitation; false when there was none. */
export async function deleteInvitationRow(db: Db | Tx, id: number): Promise<boolean> {
  const deleted = await db
    .delete(invitations)
    .where(eq(invitations.id, id))
    .returning({ id: invitations.id });
  return deleted.length === 1;
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
    .set({ status: 'accepted', acceptedUserId: userId, acceptedAt: now })
    .where(and(eq(invitations.id, id), eq(invitations.status, 'pending')))
    .returning({ id: invitations.id });
  return updated.length === 1;
}
