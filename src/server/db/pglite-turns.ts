import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * PGlite's one connection, taken in turn (decision 273). PGlite runs every statement on this
 * process's main thread, and a statement's promise settles without the event loop turning: left
 * alone, one request runs from its first statement to its answer without letting the server read
 * a new connection or request. Under a steady load the server then read one new connection per
 * turn of the event loop, and one turn answered every request already read: at 50 clients some
 * connections waited seconds before their first request was read (the pass-baton tail,
 * docs/performance.md).
 *
 * So the database is handed out in turns:
 * - a request's work goes before that of every request that arrived after it, whenever it asks
 *   (its transaction, the statements before it): the oldest request finishes first, and the
 *   statements of two requests do not alternate;
 * - when the database passes from one request to another, the handover waits for the event loop's
 *   next turn (`setImmediate`), so connections and requests that arrived meanwhile are read and
 *   queued in the order they came;
 * - work outside a request (the engine's tick, the outbox, the live hub) goes before every request,
 *   statement by statement, and takes a free database at once (decision 291): it is bounded, the
 *   server's readiness depends on the engine ticking on time, and the writes a page or a handoff
 *   causes should not wait behind a queue of reads. Numbering each of its statements as it asked
 *   put a tick of a hundred statements behind a hundred queues (decision 273, "Reverted");
 * - a request that may change something (any method but the safe ones: an alert, an
 *   acknowledgement, a pass) goes before every request that only reads, whenever they arrived
 *   (decision 293): in an outage two hundred open dashboards read again after every change, and
 *   the alerts, the pages and the acknowledgements must not wait behind them. Reads keep their
 *   order among themselves and wait only while changes are waiting, and never for more than
 *   CHANGES_BEFORE_A_READ changes handed the database in a row: clients that change without pause
 *   do not starve them.
 */
export interface Turns {
  /**
   * inArrivalOrder runs `next` as one request: its database work is ordered by this moment, and
   * after waiting changes' when the request only reads (CHANGES_BEFORE_A_READ at most in a row)
   */
  inArrivalOrder<T>(next: () => T, kind: RequestKind): T;
  /** take runs `work` when its turn comes, and holds the database until it settles */
  take<T>(work: () => Promise<T>): Promise<T>;
  /** how many are waiting for a turn now */
  waiting(): number;
}

/** what a request does with the data: a read waits while changes wait (decision 293) */
export type RequestKind = 'read' | 'change';

interface Waiter {
  order: number;
  start: () => void;
}

// Captured once: a test that fakes the timers must not stop the database.
const nextTurnOfLoop = setImmediate;

/** the order of work outside a request: before every request's (numbered from 1) */
const BACKGROUND = 0;
/** added to a read's number, so that it comes after every change's (2^40 requests is 35 years at 1,000 a second) */
const READS_AFTER = 2 ** 40;
/**
 * while reads wait, the most changes handed the database in a row before the oldest read is: a
 * load of changes alone (clients that pass without pause) leaves the reads a fifth of the turns
 */
export const CHANGES_BEFORE_A_READ = 4;

export function createTurns(): Turns {
  const arrival = new AsyncLocalStorage<number>();
  let arrived = 0;
  /** the order of the work holding the database, or null when it is free */
  let holder: number | null = null;
  /** the order of the work that held it last: it may go on at once while it is the oldest */
  let last: number | null = null;
  /** waiting work, oldest first */
  const waiters: Waiter[] = [];
  let handoverPending = false;
  /** changes handed the database in a row while a read waited */
  let changesInARow = 0;

  const enqueue = (waiter: Waiter) => {
    let i = waiters.length;
    while (i > 0 && waiters[i - 1].order > waiter.order) i -= 1;
    waiters.splice(i, 0, waiter);
  };

  const handOver = () => {
    if (handoverPending || holder !== null || waiters.length === 0) return;
    handoverPending = true;
    nextTurnOfLoop(() => {
      handoverPending = false;
      if (holder !== null) return;
      nextWaiter()?.start();
    });
  };

  /**
   * nextWaiter takes the oldest waiter, except that a read waiting behind CHANGES_BEFORE_A_READ
   * changes handed over in a row goes first: changes go before reads, but never starve them.
   */
  const nextWaiter = (): Waiter | undefined => {
    const oldestRead = waiters.findIndex((w) => w.order >= READS_AFTER);
    // A read at the head, work outside a request, or a change with no read waiting: it goes.
    if (oldestRead <= 0 || waiters[0].order === BACKGROUND) {
      if (oldestRead === 0) changesInARow = 0;
      return waiters.shift();
    }
    if (changesInARow < CHANGES_BEFORE_A_READ) {
      changesInARow += 1;
      return waiters.shift();
    }
    changesInARow = 0;
    return waiters.splice(oldestRead, 1)[0];
  };

  const take = <T>(work: () => Promise<T>): Promise<T> => {
    const request = arrival.getStore();
    const order = request ?? BACKGROUND;
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        holder = order;
        last = order;
        let running: Promise<T>;
        try {
          running = work();
        } catch (err) {
          running = Promise.reject(err);
        }
        running.then(resolve, reject).finally(() => {
          holder = null;
          // Its next statement, asked for as soon as this one has answered, goes on at once.
          handOver();
        });
      };
      // Work outside a request (the engine, a test's set-up) takes a free database at once when no
      // one waits (a statement a turn cost the unit suite 7% of its time on PGlite); else it waits
      // at the head of the queue, in turn with other such work, so that one loop of it (an outbox
      // that never pauses) does not starve another (the engine's tick).
      const goesOnNow =
        holder === null &&
        (request === undefined
          ? waiters.length === 0
          : order === last && (waiters.length === 0 || waiters[0].order > order));
      if (goesOnNow) start();
      else {
        enqueue({ order, start });
        handOver();
      }
    });
  };

  return {
    inArrivalOrder: (next, kind) =>
      arrival.run(++arrived + (kind === 'read' ? READS_AFTER : 0), next),
    take,
    waiting: () => waiters.length,
  };
}
