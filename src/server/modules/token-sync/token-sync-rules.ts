/**
 * The token sync's rules (issue 21, decision 228), pure with `now` passed in: when a held ID
 * token is due for renewal, whether a session counts as active, whether it is over, and whether
 * a message may still carry its token.
 */

/** TOKEN_MAX_AGE_MS: a token sent to the companion is never older than this (specification 9). */
export const TOKEN_MAX_AGE_MS = 5 * 60_000;

/**
 * ACTIVE_WINDOW_MS: a session used this recently is active. The session's last use is written
 * at most once a minute (TOUCH_INTERVAL_MS), and the app's own screens poll every 15 seconds, so
 * an open tab keeps its session well inside it.
 */
export const ACTIVE_WINDOW_MS = TOKEN_MAX_AGE_MS;

/** The slack kept for a renewal itself: the provider's answer and the outbox's send. */
const RENEWAL_SLACK_MS = 60_000;

/**
 * refreshAfterMs returns how old a held token may get before the engine renews it: early enough
 * that one engine tick, one outbox round and the renewal itself still land the new token before
 * the old one is TOKEN_MAX_AGE_MS old; at least one minute.
 */
export function refreshAfterMs(timing: { engineIntervalMs: number; outboxIntervalMs: number }) {
  return Math.max(
    60_000,
    TOKEN_MAX_AGE_MS - RENEWAL_SLACK_MS - timing.engineIntervalMs - timing.outboxIntervalMs,
  );
}

/** What the rules need to know about one synced session. */
export interface SyncedSession {
  /** the held token's iat */
  issuedAt: Date;
  /** whether the server holds a refresh token for it (OpenID Connect) */
  renewable: boolean;
  /** the session, or null when its row is gone */
  session: { lastSeenAt: Date; idleExpiresAt: Date; absoluteExpiresAt: Date } | null;
}

/** isSessionOver tells whether a synced session has ended: its row is gone or it has expired. */
export function isSessionOver(sync: Pick<SyncedSession, 'session'>, now: Date): boolean {
  const { session } = sync;
  if (!session) return true;
  const at = now.getTime();
  return at >= session.idleExpiresAt.getTime() || at >= session.absoluteExpiresAt.getTime();
}

/** isActive tells whether the person used the session within ACTIVE_WINDOW_MS of `now`. */
export function isActive(session: { lastSeenAt: Date }, now: Date): boolean {
  return now.getTime() - session.lastSeenAt.getTime() <= ACTIVE_WINDOW_MS;
}

/**
 * isRefreshDue tells whether the engine should renew a synced session's token now: it can (a
 * refresh token), the session is live and active, and the token is `refreshAfter` old or older.
 */
export function isRefreshDue(sync: SyncedSession, now: Date, refreshAfter: number): boolean {
  if (!sync.renewable || !sync.session || isSessionOver(sync, now)) return false;
  if (!isActive(sync.session, now)) return false;
  return now.getTime() - sync.issuedAt.getTime() >= refreshAfter;
}

/** The two messages the companion service receives. */
export type SyncMethod = 'POST' | 'DELETE';

/**
 * sendableToken tells whether a message may carry the held token now: a POST says "this person
 * is signed in" and carries a token no older than TOKEN_MAX_AGE_MS, or nothing (it expired while
 * it waited); a DELETE carries the last token whatever its age, since a session that expired
 * idle has no fresher one, and it only names who left.
 */
export function sendableToken(
  method: SyncMethod,
  issuedAt: Date,
  now: Date,
): { send: true } | { send: false; reason: string } {
  if (method === 'DELETE') return { send: true };
  const age = now.getTime() - issuedAt.getTime();
  if (age <= TOKEN_MAX_AGE_MS) return { send: true };
  return {
    send: false,
    reason: `The identity token was ${Math.floor(age / 60_000)} minutes old when the companion service could take it (the most is 5); a fresh one follows while the person is active.`,
  };
}
