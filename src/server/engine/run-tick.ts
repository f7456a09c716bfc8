import { type EngineLoop, type EngineTick, startEngineLoop } from './engine-loop';
import type { EngineDeps, NamedEngineTask } from './engine-task';

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

/** startEngine starts the time-driven loop over `tasks` (every ENGINE_INTERVAL_SECONDS). */
export function startEngine(
  deps: EngineDeps,
  tasks: readonly NamedEngineTask[],
  options: {
    onError?: (err: unknown) => void;
    onTick?: (tick: EngineTick) => void;
    autoStart?: boolean;
  } = {},
): EngineLoop {
  return startEngineLoop({
    clock: deps.clock,
    intervalMs: deps.config.engineIntervalMs,
    tick: (now) => runTasks(deps, now, tasks),
    onError: options.onError,
    onTick: options.onTick,
    autoStart: options.autoStart,
  });
}
