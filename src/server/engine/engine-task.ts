import type { Clock } from '../clock';
import type { Config } from '../config';
import type { FieldCipher } from '../crypto/field-crypto';
import type { Database } from '../db/client';

// The types every engine task is written against. This module imports no task, so the tasks and
// the list that runs them (`tasks.ts`) import it without a circle (decision 189).

/** What an engine task works with. */
export interface EngineDeps {
  config: Config;
  database: Database;
  cipher: FieldCipher;
  clock: Clock;
}

/**
 * An engine task does whatever of its kind is due at `now`, idempotently: every effect has a key
 * (a unique effect_key, a dedupe key, a conditional update), so running it twice, or on two
 * instances at once, does nothing twice.
 */
export type EngineTask = (deps: EngineDeps, now: Date) => Promise<void>;
