import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { SIGN_IN_MESSAGES } from '../../../shared/contracts/auth';
import type { User } from '../../../shared/contracts/users';
import type { Clock } from '../../core/clock';
import type { Config } from '../../core/config';
import { hashToken } from '../../crypto/bearer-secrets';
import type { FieldCipher } from '../../crypto/field-crypto';
import type { Db, Tx } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../http/errors';
import { findPendingInvitationByEmail, toInvitation } from '../invitations/invitation-repository';
import { userFromInvitation } from '../invitations/invitation-service';
import { createSession, deleteSession } from '../sessions/session-service';
import {
  endTokenSyncs,
  startTokenSync,
  type TokenSyncStart,
} from '../token-sync/token-sync-service';
import { findUserRowByEmail, type NewUser, toUser } from '../users/user-repository';

/** passwordMatches compares a password with the configured one in constant time. */
export function passwordMatches(given: string, expected: string): boolean {
  // Hashing first gives equal-length buffers, so the comparison leaks neither content nor length.
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

/**
 * signInByEmail returns the user with this verified (or password-checked) email address, or,
 * when a pending invitation exists for it, accepts the invitation and creates the user with the
 * invited role, all in one transaction. Throws 401 for anyone else.
 */
export async function signInByEmail(
  deps: { db: Db; cipher: FieldCipher; clock: Clock },
  email: string,
  refusal: AppError = new AppError('INVALID_CREDENTIALS', 'Invalid credentials'),
): Promise<User> {
  const { db, cipher, clock } = deps;
  return db.transaction(async (tx) => {
    const existing = await findUserRowByEmail(tx, cipher, email);
    if (existing) return toUser(existing, cipher);
    const user = await acceptInvitation(tx, cipher, clock.now(), email);
    if (!user) throw refusal;
    return user;
  });
}

/**
 * acceptInvitation creates the user of the live pending invitation for an address, with the
 * invited role, and marks the invitation accepted; undefined when there is none. The invitation
 * row is locked so two simultaneous first sign-ins cannot both use it.
 */
async function acceptInvitation(
  tx: Tx,
  cipher: FieldCipher,
  now: Date,
  email: string,
  /** from a verified identity: the provider's spelling of the address, and its subject */
  extra: Partial<Pick<NewUser, 'email' | 'oidcIssuer' | 'oidcSubject'>> = {},
): Promise<User | undefined> {
  const invitationRow = await findPendingInvitationByEmail(tx, cipher, email, now, {
    lock: true,
  });
  if (!invitationRow) return undefined;
  return userFromInvitation(tx, cipher, toInvitation(invitationRow, cipher), now, extra);
}

/** What a verified ID token says about the person signing in. */
export interface SignInIdentity {
  issuer: string;
  subject: string;
  email: string;
}

/**
 * signInWithIdentity returns the user a verified identity belongs to, in one transaction: the
 * user linked to the provider's subject; else the user with the email address, linking the
 * subject on this first sign-in; else the invitee of a pending invitation, created with the
 * invited role and linked. Throws 403 for a verified person with neither a user nor an invitation.
 */
export async function signInWithIdentity(
  deps: { db: Db; cipher: FieldCipher; clock: Clock },
  identity: SignInIdentity,
): Promise<User> {
  const { db, cipher, clock } = deps;
  const { issuer, subject, email } = identity;
  return db.transaction(async (tx) => {
    const [linked] = await tx
      .select()
      .from(users)
      .where(and(eq(users.oidcIssuer, issuer), eq(users.oidcSubject, subject)))
      .limit(1);
    if (linked) return toUser(linked, cipher);

    const byEmail = await findUserRowByEmail(tx, cipher, email);
    if (byEmail) {
      if (byEmail.oidcIssuer === issuer && byEmail.oidcSubject && byEmail.oidcSubject !== subject) {
        // The address now belongs to another account at the provider (deleted and re-created).
        throw new AppError(
          'FORBIDDEN',
          'This email address is linked to a different Google account. Ask an administrator for help.',
        );
      }
      if (!byEmail.oidcSubject) {
        await tx
          .update(users)
          .set({ oidcIssuer: issuer, oidcSubject: subject, updatedAt: sql`now()` })
          .where(eq(users.id, byEmail.id));
      }
      return toUser(byEmail, cipher);
    }

    const invitee = await acceptInvitation(tx, cipher, clock.now(), email, {
      email,
      oidcIssuer: issuer,
      oidcSubject: subject,
    });
    if (invitee) return invitee;
    // The specification's sentence and what to do next; the address is not echoed back.
    throw new AppError('FORBIDDEN', SIGN_IN_MESSAGES.notInvited);
  });
}

/** What opening and closing a session need. */
export interface SessionDeps {
  db: Db;
  cipher: FieldCipher;
  clock: Clock;
  config: Pick<Config, 'session' | 'tokenSyncUrl'>;
}

/**
 * openSession starts the user's session in one transaction and returns its token and expiry. A
 * sign-in through the identity provider hands its ID token to the token sync when it is on
 * (decision 228), in the same transaction: the POST is queued, never sent here, so the companion
 * service can neither slow nor fail the sign-in.
 */
export async function openSession(
  deps: SessionDeps,
  userId: number,
  sync?: TokenSyncStart,
): Promise<{ token: string; expiresAt: Date }> {
  const { db, cipher, clock, config } = deps;
  return db.transaction(async (tx) => {
    const session = await createSession(tx, clock, config.session, userId);
    if (sync && config.tokenSyncUrl) {
      const tokenHash = hashToken(session.token);
      await startTokenSync(tx, cipher, clock.now(), { tokenHash, userId }, sync);
    }
    return session;
  });
}

/** closeSession ends a session (sign-out); the companion service hears of it (decision 228). */
export async function closeSession(deps: SessionDeps, tokenHash: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await endTokenSyncs(tx, deps.cipher, deps.clock.now(), { sessionTokenHash: tokenHash });
    await deleteSession(tx, tokenHash);
  });
}
