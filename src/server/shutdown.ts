import type { Lifecycle } from './core/lifecycle';

/** The parts of a running Baton that a graceful shutdown stops, each waiting for its work. */
export interface ShutdownParts {
  lifecycle: Lifecycle;
  /** how long readiness fails before new requests are refused (SHUTDOWN_DELAY_SECONDS) */
  delayMs: number;
  /** the alert email listener: stops accepting, lets open conversations finish */
  stopAlertEmail(): Promise<void>;
  /** the HTTP server: stops listening, ends the event streams, lets in-flight requests finish */
  closeHttp(): Promise<void>;
  /** the engine: no new tick; the current one finishes */
  stopEngine(): Promise<void>;
  /** the outbox worker: no new batch; the deliveries under way are recorded */
  stopOutbox(): Promise<void>;
  closeDatabase(): Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * shutDown stops Baton gracefully (issue 20, decision 225): readiness fails at once; after
 * `delayMs` (a load balancer's time to notice) new requests are refused with 503 and the
 * listener closes, while the requests in flight, the engine's current tick and the outbox's
 * current deliveries finish and the event streams close with a retry hint; the database closes
 * last, when nothing uses it any more.
 */
export async function shutDown(parts: ShutdownParts): Promise<void> {
  const sleep = parts.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms)));
  parts.lifecycle.draining = true;
  const alertEmail = parts.stopAlertEmail();
  if (parts.delayMs > 0) await sleep(parts.delayMs);
  parts.lifecycle.refusing = true;
  await Promise.all([alertEmail, parts.closeHttp(), parts.stopEngine(), parts.stopOutbox()]);
  await parts.closeDatabase();
}
