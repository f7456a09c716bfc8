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

/**
 * When a task will next have work, if it can tell (decision 275): the earliest moment after `now`
 * at which something of its kind falls due, or null when nothing is pending. Work due at or
 * before `now` is the tick's; what a tick leaves due is looked at again at the next interval.
 */
export type NextDueAt = (deps: EngineDeps, now: Date) => Promise<Date | null>;

/**
 * A task as the loop runs it: its name (in logs, failures and docs/engine.md), its work, and,
 * for a task whose timers are stored rows, when it next has work: the loop wakes then instead of
 * at its next interval (decision 275).
 */
export interface NamedEngineTask {
  name: string;
  run: EngineTask;
  nextDueAt?: NextDueAt;
}
