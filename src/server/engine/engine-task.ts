import type { Clock } from '../core/clock';
import type { Config } from '../core/config';
import type { FieldCipher } from '../crypto/field-crypto';
import type { Database } from '../db/client';

// The types every engine task is written against. The engine imports no module: each module
// owns its clock-driven tasks (`<noun>-task.ts`), and the composition root lists them
// (`src/server/engine-tasks.ts`; decisions 189 and 238).

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

/** A task as the loop runs it: its name (in logs, failures and docs/engine.md) and its work. */
export interface NamedEngineTask {
  name: string;
  run: EngineTask;
}
