import type { FieldCipher } from '../crypto/field-crypto';
import type { Database } from '../db/client';
import type { EngineStatus } from '../engine/engine-loop';
import type { Lifecycle } from '../http/lifecycle';
import type { HostLookup } from '../http/outbound-address';
import type { RotationsRead } from '../modules/debug/debug-repository';
import type { Metrics } from '../modules/metrics/metrics';
import type { Clock } from './clock';
import type { Config } from './config';

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
  /** this process's metrics (absent: the app makes its own); main.ts shares it with the workers */
  metrics?: Metrics;
  /** the graceful shutdown's state (absent: the app makes its own) */
  lifecycle?: Lifecycle;
  /**
   * tests: every answer of an /api route is checked against the route's declared answers and
   * each mismatch reported here (decision 224); production checks nothing
   */
  checkAnswers?: (mismatch: string) => void;
  /** the diagnostics' storage read (absent: the one GET /api/rotations uses); tests replace it */
  rotationsStorageRead?: RotationsRead;
  /**
   * how the host names of URLs users type are resolved for the address rule (absent: the system's
   * resolver, decision 234); tests map made-up names to the addresses they need
   */
  resolveHost?: HostLookup;
}
