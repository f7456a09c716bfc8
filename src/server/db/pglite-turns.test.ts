import { AsyncLocalStorage } from 'node:async_hooks';
import { describe, expect, test } from 'vitest';
import { CHANGES_BEFORE_A_READ, createTurns } from './pglite-turns';

/** a statement that answers without the event loop turning, as PGlite's do */
const statement = () => Promise.resolve();

describe('PGlite turns (decisions 273, 291, 293)', () => {
  test('requests finish in the order they arrived, each one whole, whenever they ask', async () => {
    const turns = createTurns();
    const log: string[] = [];
    // The first request pauses after its first statement (a hash, a file read) until the second
    // request's first statement has run.
    let resume = () => {};
    const paused = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const request = (name: string, between: (i: number) => Promise<void> | undefined) =>
      turns.inArrivalOrder(async () => {
        for (let i = 1; i <= 3; i++) {
          await turns.take(async () => {
            log.push(`${name}${i}`);
            if (name === 'b' && i === 1) resume();
            await statement();
          });
          await between(i);
        }
      }, 'read');
    await Promise.all([
      request('a', (i) => (i === 1 ? paused : undefined)),
      request('b', () => undefined),
      request('c', () => undefined),
    ]);
    // While `a` paused, `b` went on; once `a` asked again it went before `b`'s next statement.
    // A first-come queue would alternate the requests' statements: a1 b1 c1 a2 b2 c2 …
    expect(log.join(' ')).toBe('a1 b1 a2 a3 b2 b3 c1 c2 c3');
  });

  test('statements of requests that never pause are not interleaved', async () => {
    const turns = createTurns();
    const log: string[] = [];
    const request = (name: string) =>
      turns.inArrivalOrder(async () => {
        for (let i = 1; i <= 3; i++) {
          await turns.take(async () => {
            log.push(`${name}${i}`);
            await statement();
          });
        }
      }, 'change');
    await Promise.all(['a', 'b', 'c', 'd'].map(request));
    expect(log.join(' ')).toBe('a1 a2 a3 b1 b2 b3 c1 c2 c3 d1 d2 d3');
  });

  test('the handover to another request lets the event loop turn first', async () => {
    const turns = createTurns();
    const log: string[] = [];
    const first = turns.inArrivalOrder(
      () =>
        turns.take(async () => {
          log.push('first');
        }),
      'read',
    );
    // Work that arrives through the event loop (a connection accepted, a request read) while
    // the first request holds the database.
    setImmediate(() => log.push('event loop'));
    const second = turns.inArrivalOrder(
      () =>
        turns.take(async () => {
          log.push('second');
        }),
      'read',
    );
    await Promise.all([first, second]);
    expect(log).toEqual(['first', 'event loop', 'second']);
  });

  test('one failing statement passes the database on', async () => {
    const turns = createTurns();
    const failed = turns.inArrivalOrder(
      () =>
        turns.take(async () => {
          throw new Error('duplicate key');
        }),
      'change',
    );
    const next = turns.inArrivalOrder(() => turns.take(async () => 'answered'), 'read');
    await expect(failed).rejects.toThrow('duplicate key');
    await expect(next).resolves.toBe('answered');
    expect(turns.waiting()).toBe(0);
  });

  test('work outside a request goes before every waiting request, statement by statement', async () => {
    const turns = createTurns();
    const log: string[] = [];
    let ticking: Promise<void> | undefined;
    // The engine's timer runs outside any request's context.
    const outside = AsyncLocalStorage.snapshot();
    const request = (name: string) =>
      turns.inArrivalOrder(async () => {
        for (let i = 1; i <= 2; i++) {
          await turns.take(async () => {
            log.push(`${name}${i}`);
            if (name === 'a' && i === 1) ticking = outside(tick);
            await statement();
          });
        }
      }, 'change');
    // The engine's tick asks during a's first statement, while b and c wait: each of its
    // statements goes next, not behind the requests (decision 291).
    const tick = async () => {
      for (let i = 1; i <= 3; i++) {
        await turns.take(async () => {
          log.push(`tick${i}`);
          await statement();
        });
      }
    };
    await Promise.all(['a', 'b', 'c'].map(request));
    await ticking;
    expect(log.join(' ')).toBe('a1 tick1 tick2 tick3 a2 b1 b2 c1 c2');
  });

  test('a change goes before every waiting read, whenever it arrived (decision 293)', async () => {
    const turns = createTurns();
    const log: string[] = [];
    let changing: Promise<void> | undefined;
    const request = (name: string, kind: 'read' | 'change') =>
      turns.inArrivalOrder(async () => {
        for (let i = 1; i <= 2; i++) {
          await turns.take(async () => {
            log.push(`${name}${i}`);
            // An alert arrives while the first read runs its first statement.
            if (name === 'a' && i === 1) changing = request('alert', 'change');
            await statement();
          });
        }
      }, kind);
    await Promise.all([request('a', 'read'), request('b', 'read')]);
    await changing;
    // The alert came after both reads and went before the first read's second statement; the
    // reads kept their own order. In arrival order alone it would have been a1 a2 b1 b2 alert1 …
    expect(log.join(' ')).toBe('a1 alert1 alert2 a2 b1 b2');
  });

  test('changes without pause leave a waiting read its turn after four of them (decision 293)', async () => {
    const turns = createTurns();
    const log: string[] = [];
    const request = (name: string, kind: 'read' | 'change') =>
      turns.inArrivalOrder(
        () =>
          turns.take(async () => {
            log.push(name);
            await statement();
          }),
        kind,
      );
    // The read arrives first, then ten changes: it waits for CHANGES_BEFORE_A_READ of them, not
    // for all (strict priority: last) nor for none (arrival order: first).
    const all = [request('read', 'read')];
    for (let i = 1; i <= 10; i++) all.push(request(`c${i}`, 'change'));
    await Promise.all(all);
    expect(CHANGES_BEFORE_A_READ).toBe(4);
    expect(log.join(' ')).toBe('c1 c2 c3 c4 read c5 c6 c7 c8 c9 c10');
  });

  test('two pieces of work outside requests take turns, statement by statement', async () => {
    const turns = createTurns();
    const log: string[] = [];
    // An outbox that never pauses must not keep the engine's tick from the database.
    const work = (name: string) => async () => {
      for (let i = 1; i <= 3; i++) {
        await turns.take(async () => {
          log.push(`${name}${i}`);
          await statement();
        });
      }
    };
    await Promise.all([work('outbox')(), work('tick')()]);
    expect(log.join(' ')).toBe('outbox1 tick1 outbox2 tick2 outbox3 tick3');
  });
});
