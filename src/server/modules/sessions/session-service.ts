import { and, eq, gt, sql } from 'drizzle-orm';
import type { Clock } from '../../core/clock';
import { hashToken, newBearerSecret } from '../../crypto/bearer-secrets';
import type { Db, Tx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import type { UserRow } from '../users/user-repository';

/**
 * The session cookie's name outside production (development, tests, demos). Every reader and
 * writer of the cookie goes through sessionCookie(config), which adds the prefix in production.
 */
export const SESSION_COOKIE = 'baton_session';

/**
 * sessionCookie: the session cookie's name and attributes. In production the name carries the
 * `__Host-` prefix, so a browser keeps it only when it is Secure, on Path=/ and without a Domain:
 * a sibling subdomain or a plain-HTTP page cannot plant or shadow it (decision 162). The same
 * attributes serve clearing it, which a browser also refuses for a prefixed name without Secure.
 */
export function sessionCookie(config: { isProduction: boolean }) {
  return {
    name: config.isProduction ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE,
    options: {
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: config.isProduction,
    },
  };
}
/** last-seen is written at most this often, so reads do not each cost a write */
export const TOUCH_INTERVAL_MS = 60_000;

export interface SessionPolicy {
  idleMs: number;
  absoluteMs: number;
}

/** createSession stores a new session for a user and returns its token (for the cookie). */
export async function createSession(
  db: Db | Tx,
  clock: Clock,
  policy: SessionPolicy,
  userId: number,
): Promise<{ token: string; expiresAt: Date }> {
  const token = newBearerSecret('session');
  const now = clock.now();
  const absolute = new Date(now.getTime() + policy.absoluteMs);
  const idle = new Date(Math.min(now.getTime() + policy.idleMs, absolute.getTime()));
  await db.insert(sessions).values({
    tokenHash: hashToken(token),
    userId,
    createdAt: now,
    lastSeenAt: now,
    idleExpiresAt: idle,
    absoluteExpiresAt: absolute,
  });
  return { token, expiresAt: absolute };
}

/**
 * The session read runs on every API request: it is built once per database and prepared (on
 * PostgreSQL a named statement per connection, planned once), not rebuilt per request.
 */
function prepareSessionLookup(db: Db) {
  const now = sql.placeholder('now');
  return db
    .select({
      user: users,
      lastSeenAt: sessions.lastSeenAt,
      idle: sessions.idleExpiresAt,
      absolute: sessions.absoluteExpiresAt,
      snapshot: sql<string>`pg_current_snapshot()::text`,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        gt(sessions.idleExpiresAt, now),
        gt(sessions.absoluteExpiresAt, now),
      ),
    )
    .limit(1)
    .prepare('baton_session_lookup');
}

const sessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>();

function sessionLookup(db: Db) {
  let lookup = sessionLookups.get(db);
  if (!lookup) {
    lookup = prepareSessionLookup(db);
    sessionLookups.set(db, lookup);
  }
  return lookup;
}

/** A live session as resolveSession reads it. */
export interface ResolvedSession {
  user: UserRow;
  tokenHash: string;
  /** `pg_current_snapshot()` of the statement that read it (decision 140) */
  snapshot: string;
  lastSeenAt: Date;
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
}

/**
 * resolveSession returns the user of a live session token, extending its idle expiry, with the
 * database snapshot the session was read in: `pg_current_snapshot()` in the same statement, so
 * the read cache's key costs no round trip (decision 140).
 */
export async function resolveSession(
  db: Db,
  clock: Clock,
  policy: SessionPolicy,
  token: string,
): Promise<ResolvedSession | null> {
  if (!token || token.length > 100) return null;
  const now = clock.now();
  const tokenHash = hashToken(token);
  const [row] = await sessionLookup(db).execute({ tokenHash, now: now.toISOString() });
  if (!row) return null;
  const session = {
    user: row.user,
    tokenHash,
    snapshot: row.snapshot,
    lastSeenAt: row.lastSeenAt,
    idleExpiresAt: row.idle,
    absoluteExpiresAt: row.absolute,
  };
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    const idle = new Date(Math.min(now.getTime() + policy.idleMs, row.absolute.getTime()));
    await db
      .update(sessions)
      .set({ lastSeenAt: now, idleExpiresAt: idle })
      .where(eq(sessions.tokenHash, tokenHash));
    return { ...session, lastSeenAt: now, idleExpiresAt: idle };
  }
  return session;
}

/** deleteSession ends a session (logout). */
export async function deleteSession(db: Db | Tx, tokenHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}
