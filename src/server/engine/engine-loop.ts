import type { Clock } from '../core/clock';
import type { EngineStatus } from '../core/deps';

/** EngineTick is what the loop reports of each tick (the metrics, decision 225). */
export interface EngineTick {
  /** how long the tick ran, in milliseconds (monotonic time, not the engine's clock) */
  durationMs: number;
  /**
   * how much later than its cadence it began: after the previous tick's start plus the interval
   * (a long previous tick, or a busy process, makes it late); 0 for the first
   */
  lagMs: number;
  ok: boolean;
}

export interface EngineLoop {
  status(): EngineStatus;
  /** runs one tick now (tests, and the first tick at start) */
  runOnce(): Promise<void>;
  stop(): Promise<void>;
}

/** engineIsStale tells whether the loop has missed several intervals (readiness fails then). */
export function engineIsStale(status: EngineStatus, now: Date, intervals = 4): boolean {
  const last = status.lastTickAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  return now.getTime() - last > status.intervalMs * intervals;
}

/**
 * startEngineLoop calls `tick(now)` every interval. Ticks never overlap; a failing tick is
 * reported and the loop goes on. Effects are idempotent, so a tick that is cut off midway (a
 * killed process) is simply done again by the next one, here or on another instance.
 */
export function startEngineLoop(options: {
  clock: Clock;
  intervalMs: number;
  tick: (now: Date) => Promise<void>;
  onError?: (err: unknown) => void;
  /** told of every tick when it ends */
  onTick?: (tick: EngineTick) => void;
  /** false: do not schedule ticks (tests call runOnce) */
  autoStart?: boolean;
}): EngineLoop {
  const state: EngineStatus = {
    intervalMs: options.intervalMs,
    lastTickAt: null,
    lastError: null,
    running: options.autoStart !== false,
  };
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  let previousStart: number | null = null;

  const runOnce = () => {
    current = current.then(async () => {
      const started = performance.now();
      const lagMs =
        previousStart === null ? 0 : Math.max(0, started - previousStart - options.intervalMs);
      previousStart = started;
      let ok = true;
      try {
        await options.tick(options.clock.now());
        state.lastTickAt = options.clock.now();
        state.lastError = null;
      } catch (err) {
        ok = false;
        state.lastError = err instanceof Error ? err.message : String(err);
        options.onError?.(err);
      }
      options.onTick?.({ durationMs: performance.now() - started, lagMs, ok });
    });
    return current;
  };
  const schedule = () => {
    if (!state.running) return;
    timer = setTimeout(() => void runOnce().finally(schedule), options.intervalMs);
    timer.unref();
  };
  if (state.running) void runOnce().finally(schedule);

  return {
    status: () => ({ ...state }),
    runOnce,
    stop: async () => {
      state.running = false;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
