import type { Database } from '../db/client';
import { type EngineLoop, type EngineTick, startEngineLoop } from './engine-loop';
import type { EngineDeps, NamedEngineTask } from './engine-task';

/** the NOTIFY channel migration 0034's trigger rings when an incident's timer changes (decision 275) */
export const ENGINE_DOORBELL = 'baton_engine';

/**
 * nextDueAt asks every task that can tell when it next has work after `now`, and answers the
 * earliest (null when none has any pending).
 */
export async function nextDueAt(
  deps: EngineDeps,
  now: Date,
  tasks: readonly NamedEngineTask[],
): Promise<Date | null> {
  let earliest: Date | null = null;
  for (const task of tasks) {
    const due = await task.nextDueAt?.(deps, now);
    if (due && (!earliest || due < earliest)) earliest = due;
  }
  return earliest;
}

/**
 * runTasks runs `tasks` at `now`, in order. A failing task does not stop the others; the tick
 * then fails as a whole (so the loop's last successful tick, and readiness, say so), and the next
 * tick simply does the rest again, idempotently.
 */
export async function runTasks(
  deps: EngineDeps,
  now: Date,
  tasks: readonly NamedEngineTask[],
): Promise<void> {
  const failures: { name: string; err: unknown }[] = [];
  for (const task of tasks) {
    try {
      await task.run(deps, now);
    } catch (err) {
      failures.push({ name: task.name, err });
    }
  }
  if (failures.length === 1) {
    const [{ name, err }] = failures;
    throw new Error(`engine task '${name}' failed: ${(err as Error)?.message ?? String(err)}`, {
      cause: err,
    });
  }
  if (failures.length > 1) {
    throw new AggregateError(
      failures.map((f) => f.err),
      `engine tasks failed: ${failures.map((f) => f.name).join(', ')}`,
    );
  }
}

/**
 * startEngine starts the time-driven loop over `tasks`: all of them every ENGINE_INTERVAL_SECONDS,
 * and those that keep timers also at the moment one falls due (decision 275). With `listen`, the database's NOTIFY
 * feed, the loop also hears the engine's doorbell: a commit that starts or moves an incident's
 * timer, on any instance, makes it look again at when to wake.
 */
export function startEngine(
  deps: EngineDeps,
  tasks: readonly NamedEngineTask[],
  options: {
    onError?: (err: unknown) => void;
    onTick?: (tick: EngineTick) => void;
    autoStart?: boolean;
    listen?: Database['listen'];
  } = {},
): EngineLoop & { listening: Promise<void> } {
  // the tasks that keep timers: the ones a tick between intervals runs
  const timed = tasks.filter((task) => task.nextDueAt);
  const loop = startEngineLoop({
    clock: deps.clock,
    intervalMs: deps.config.engineIntervalMs,
    tick: (now, scope) => runTasks(deps, now, scope === 'all' ? tasks : timed),
    nextDueAt: timed.length > 0 ? (now) => nextDueAt(deps, now, tasks) : undefined,
    onError: options.onError,
    onTick: options.onTick,
    autoStart: options.autoStart,
  });
  // A feed that cannot be opened leaves the interval and the due times: the engine still runs.
  const doorbell = options.listen?.(ENGINE_DOORBELL, {
    onNotify: () => loop.wake(),
    onReconnect: () => loop.wake(),
  });
  const unlisten = doorbell?.catch((err) => {
    options.onError?.(err);
    return null;
  });
  return {
    ...loop,
    listening: unlisten ? unlisten.then(() => {}) : Promise.resolve(),
    stop: async () => {
      await (await unlisten)?.();
      await loop.stop();
    },
  };
}
