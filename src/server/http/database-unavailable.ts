/**
 * isDatabaseUnavailable tells whether an error means the database cannot be reached (stopped,
 * restarting, the connection cut) rather than that the request or the code is wrong: such a
 * request answers 503 with a message, and the pool reconnects by itself once the server is back.
 *
 * Drizzle wraps every failed query in a DrizzleQueryError whose `cause` is the driver's error,
 * and the engine wraps task failures the same way, so the whole cause chain is looked at.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e: unknown = err; e && typeof e === 'object' && !seen.has(e); ) {
    seen.add(e);
    if (isUnavailableHere(e)) return true;
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
