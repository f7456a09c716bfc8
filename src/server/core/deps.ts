import type { FieldCipher } from '../crypto/field-crypto';
import type { Database } from '../db/client';
import type { HostLookup } from './address-ranges';
import type { Clock } from './clock';
import type { Config } from './config';
import type { Lifecycle } from './lifecycle';

/** EngineStatus is what /readyz and the diagnostics read about the time-driven loop. */
export interface EngineStatus {
  intervalMs: number;
  /** when the last tick finished without error */
  lastTickAt: Date | null;
  lastError: string | null;
  running: boolean;
}

/**
 * AppDeps is everything the app is wired from; tests pass fakes (a manual clock) here. It lives
 * apart from `app.ts` so that routes, which `app.ts` registers, never import `app.ts` (decision 189).
 */
export interface AppDeps {
  config: Config;
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
  /** folder of the built client; omitted in API tests */
  clientDir?: string;
  /** false silences request logs (tests) */
  logger?: boolean;
  /** where log lines go (default: standard output); tests pass a stream that captures them */
  logStream?: { write(line: string): void };
  /** the engine loop's status, for readiness (absent: readiness does not look at the engine) */
  engineStatus?: () => EngineStatus;
  /** the graceful shutdown's state (absent: the app makes its own) */
  lifecycle?: Lifecycle;
  /**
   * tests: every answer of an /api route is checked against the route's declared answers and
   * each mismatch reported here (decision 224); production checks nothing
   */
  checkAnswers?: (mismatch: string) => void;
  /**
   * how the host names of URLs users type are resolved for the address rule (absent: the system's
   * resolver, decision 234); tests map made-up names to the addresses they need
   */
  resolveHost?: HostLookup;
  /**
   * tests: the loopback push service's certificate authority, trusted by the pushes the app sends
   * itself (a test push); a started server trusts it by NODE_EXTRA_CA_CERTS instead
   */
  pushCa?: string;
}
