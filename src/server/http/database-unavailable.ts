/**
 * isDatabaseUnavailable tells whether an error means the database cannot be reached (stopped,
 * restarting, the connection cut) rather than that the request or the code is wrong: such a
 * request answers 503 with a message, and the pool reconnects by itself once the server is back.
 *
 * Drizzle wraps every failed query in a DrizzleQueryError whose `cause` is the driver's error,
 * and the engine wraps task failures the same way, so the whole cause chain is looked at.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  return someCause(err, isUnavailableHere);
}

/**
 * isDatabaseBusy tells whether a statement gave up on PostgreSQL's time-outs (decision 168): it
 * waited longer than DB_LOCK_TIMEOUT_MS for a row another transaction holds, ran longer than
 * DB_STATEMENT_TIMEOUT_MS, its own transaction sat idle past the idle-in-transaction time-out, or
 * it was chosen to break a deadlock. The transaction was rolled back and the same request may
 * well succeed a moment later: it answers 503 with Retry-After, and the engine retries next tick.
 */
export function isDatabaseBusy(err: unknown): boolean {
  return someCause(err, (e) => {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && BUSY_SQLSTATES.has(code);
  });
}

/** how long a client should wait before repeating a request answered 503 for the database */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const BUSY_SQLSTATES = new Set([
  '55P03', // lock_not_available: lock_timeout (or NOWAIT)
  '57014', // query_canceled: statement_timeout
  '25P03', // idle_in_transaction_session_timeout
  '40P01', // deadlock_detected
]);

/** someCause tells whether the error or anything in its cause chain matches. */
function someCause(err: unknown, matches: (e: object) => boolean): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e && typeof e === 'object' && !seen.has(e); ) {
    seen.add(e);
    if (matches(e)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** network errors of the socket to the database server */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server going away or not accepting connections */
const SQLSTATES = new Set([
  '57P01', // admin_shutdown (pg_ctl stop, a terminated backend)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down, in recovery)
  '53300', // too_many_connections
]);

/** what node-postgres says when a connection ends or cannot be had in time */
const DRIVER_MESSAGES =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|Connection ended unexpectedly/i;

function isUnavailableHere(e: object): boolean {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || SQLSTATES.has(code)) return true;
    // Class 08: connection exceptions (08000, 08001, 08003, 08004, 08006, 08007, 08P01).
    if (/^08[0-9A-Z]{3}$/.test(code)) return true;
  }
  return e instanceof Error && DRIVER_MESSAGES.test(e.message);
}
