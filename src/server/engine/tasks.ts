import type { Clock } from '../clock';
import type { Config } from '../config';
import type { FieldCipher } from '../crypto/field-crypto';
import type { Database } from '../db/client';
import { pageTimersTask } from '../modules/paging/paging-task';
import { acknowledgementsTask } from './acknowledgements';
import { coverageWindowsTask } from './coverage-windows';
import { fixedRotationsTask } from './fixed-rotations';
import { scheduledRotationsTask, scheduleNoticesTask } from './scheduled-rotations';

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
 * ENGINE_TASKS run in this order on every tick: coverage windows first (they decide who holds
 * the baton while they run), then fixed rotations' handoff flow, scheduled rotations' changes
 * and the notices before the coming ones, and missed acknowledgements last (they read the
 * handoffs the others just made).
 */
export const ENGINE_TASKS: { name: string; run: EngineTask }[] = [
  { name: 'coverage windows', run: coverageWindowsTask },
  { name: 'fixed rotations', run: fixedRotationsTask },
  { name: 'scheduled rotations', run: scheduledRotationsTask },
  { name: 'scheduled notices', run: scheduleNoticesTask },
  { name: 'acknowledgements', run: acknowledgementsTask },
  { name: 'page timers', run: pageTimersTask },
];
