/**
 * Lifecycle is what the graceful shutdown (main.ts, decision 225) tells the app: first readiness
 * fails (`draining`: /readyz answers 503 so a load balancer stops sending), then new requests are
 * refused (`refusing`: 503 with Connection: close) while those in flight finish.
 */
export class Lifecycle {
  draining = false;
  refusing = false;
}

/** What a request that arrives during shutdown is told (with Retry-After). */
export const SHUTTING_DOWN = 'Baton is shutting down. Try again shortly.';
/** Retry-After, in seconds, of a request refused during shutdown. */
export const SHUTDOWN_RETRY_AFTER_SECONDS = 5;
