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
  /** runs one tick of every task now (tests, and the first tick at start) */
  runOnce(): Promise<void>;
  /**
   * asks the loop to look again at when its work is next due, because something changed (the
   * engine's doorbell, decision 275): it wakes sooner if that is now sooner than its timer
   */
  wake(): void;
  stop(): Promise<void>;
}

/** What a tick runs: every task (each interval), or only those whose timer fell due. */
export type TickScope = 'all' | 'due';

/** how soon after a due time the tick runs: timers fire a little early or late */
const DUE_SLACK_MS = 5;
/** the shortest sleep, so that work left due (another instance holds it) never makes a spin */
const MIN_SLEEP_MS = 50;

/** engineIsStale tells whether the loop has missed several intervals (readiness fails then). */
export function engineIsStale(status: EngineStatus, now: Date, intervals = 4): boolean {
  const last = status.lastTickAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  return now.getTime() - last > status.intervalMs * intervals;
}

type LoopOptions = Parameters<typeof startEngineLoop>[0];
type Wake = { ms: number; scope: TickScope };

/**
 * nextWakeOf answers when the loop next wakes: the next tick of every task (the interval after
 * `previousStart`, performance.now() of the last), or sooner a task's timer falling due.
 */
async function nextWakeOf(options: LoopOptions, previousStart: number | null): Promise<Wake> {
  const sinceTick = previousStart === null ? 0 : performance.now() - previousStart;
  const tick: Wake = { ms: Math.max(0, options.intervalMs - sinceTick), scope: 'all' };
  if (!options.nextDueAt) return tick;
  try {
    const due = await options.nextDueAt(options.clock.now());
    if (!due) return tick;
    const wait = due.getTime() - options.clock.now().getTime() + DUE_SLACK_MS;
    return wait < tick.ms ? { ms: Math.max(MIN_SLEEP_MS, wait), scope: 'due' } : tick;
  } catch (err) {
    options.onError?.(err);
    return tick;
  }
}

/**
 * startEngineLoop calls `tick(now, 'all')` every interval, and `tick(now, 'due')` in between when
 * `nextDueAt` says a task's timer falls due before the next interval (decision 275): after each
 * tick, and when `wake` is called, it sleeps until the earlier of the two. Ticks never overlap; a failing tick is reported and
 * the loop goes on. Effects are idempotent, so a tick that is cut off midway (a killed process) is
 * simply done again by the next one, here or on another instance.
 */
export function startEngineLoop(options: {
  clock: Clock;
  intervalMs: number;
  /** `all`: every task, each interval; `due`: only the tasks that keep timers, one fell due */
  tick: (now: Date, scope: TickScope) => Promise<void>;
  onError?: (err: unknown) => void;
  /** told of every tick when it ends */
  onTick?: (tick: EngineTick) => void;
  /** false: do not schedule ticks (tests call runOnce) */
  autoStart?: boolean;
  /** when work is next due after `now` (null: nothing pending); without it, every interval */
  nextDueAt?: (now: Date) => Promise<Date | null>;
}): EngineLoop {
  const state: EngineStatus = {
    intervalMs: options.intervalMs,
    lastTickAt: null,
    lastError: null,
    running: options.autoStart !== false,
  };
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  // When the last tick of every task began (performance.now()): the interval counts from it.
  let previousStart: number | null = null;

  const runOnce = (scope: TickScope = 'all') => {
    current = current.then(async () => {
      const started = performance.now();
      if (scope === 'due') {
        // A task's timer fell due between ticks: only the tasks that keep timers run.
        await options.tick(options.clock.now(), 'due').catch((err) => options.onError?.(err));
        return;
      }
      const lagMs =
        previousStart === null ? 0 : Math.max(0, started - previousStart - options.intervalMs);
      previousStart = started;
      let ok = true;
      try {
        await options.tick(options.clock.now(), 'all');
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
  const nextWake = () => nextWakeOf(options, previousStart);
  // The timer's moment (Date.now()), a look at the due work under way, a ring during that look.
  let timerAt = Number.POSITIVE_INFINITY;
  let looking = false;
  let rangMeanwhile = false;
  const setTimer = ({ ms, scope }: Wake) => {
    if (!state.running) return;
    if (timer) clearTimeout(timer);
    timerAt = Date.now() + ms;
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Number.POSITIVE_INFINITY;
      void runOnce(scope).finally(schedule);
    }, ms);
    timer.unref();
  };
  /** after a tick: sleep until the next wake (looking again if a ring came meanwhile) */
  const schedule = async () => {
    if (!state.running) return;
    looking = true;
    let next: Wake;
    do {
      rangMeanwhile = false;
      next = await nextWake();
    } while (rangMeanwhile && state.running);
    looking = false;
    setTimer(next);
  };
  /** a ring: if a timer now falls due before the loop's timer, move the timer to it */
  const wake = () => {
    if (!state.running) return;
    if (looking || !timer) {
      // A tick is running (it schedules when it ends) or a look is under way (it looks again).
      rangMeanwhile = true;
      return;
    }
    looking = true;
    void nextWake().then((next) => {
      looking = false;
      if (rangMeanwhile) {
        rangMeanwhile = false;
        wake();
        return;
      }
      if (timer && Date.now() + next.ms < timerAt) setTimer(next);
    });
  };
  if (state.running) void runOnce().finally(schedule);

  return {
    status: () => ({ ...state }),
    runOnce: () => runOnce('all'),
    wake,
    stop: async () => {
      state.running = false;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
}
