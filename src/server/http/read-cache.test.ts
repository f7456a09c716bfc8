import { describe, expect, test } from 'vitest';
import { ManualClock } from '../core/clock';
import { type ComputedAnswer, ReadCache } from './read-cache';

const START = '2026-11-02T12:00:00.000Z';

function setup(maxBytes = 1_000, maxAgeMs = 1_000) {
  const clock = new ManualClock(START);
  const cache = new ReadCache({ clock, maxBytes, maxAgeMs });
  let computed = 0;
  /** answer computes `body` at the clock's now (counted), valid until `changesAt` */
  const answer = (key: string, body: unknown, changesAt: Date | null = null) =>
    cache
      .answer(key, async (): Promise<ComputedAnswer> => {
        computed += 1;
        return { body, at: clock.now(), changesAt };
      })
      .then((json) => json.toString());
  return { clock, cache, answer, computed: () => computed };
}

describe('ReadCache', () => {
  test('keeps an answer by key and gives the same JSON back without computing it again', async () => {
    const { answer, computed } = setup();
    expect(await answer('a', [1, 'x'])).toBe('[1,"x"]');
    expect(await answer('a', ['other'])).toBe('[1,"x"]');
    expect(await answer('b', ['other'])).toBe('["other"]');
    expect(computed()).toBe(2);
  });

  test('an answer is valid from the instant it was computed for until its change or its age', async () => {
    const { clock, answer, computed } = setup(1_000, 1_000);
    const changesAt = new Date(Date.parse(START) + 400);
    await answer('a', 'first', changesAt);
    clock.advance(399);
    expect(await answer('a', 'second', changesAt)).toBe('"first"');
    clock.advance(1);
    expect(await answer('a', 'second')).toBe('"second"');
    // No change ahead: the age bounds it.
    clock.advance(999);
    expect(await answer('a', 'third')).toBe('"second"');
    clock.advance(1);
    expect(await answer('a', 'third')).toBe('"third"');
    // A clock set back before the instant an answer was computed for computes again.
    clock.advance(-500);
    expect(await answer('a', 'fourth')).toBe('"fourth"');
    expect(computed()).toBe(4);
  });

  test('keeps at most maxBytes of JSON, forgetting the least recently used first', async () => {
    const { cache, answer, computed } = setup(30);
    const ten = (c: string) => c.repeat(8); // "cccccccc" is 10 bytes of JSON
    await answer('a', ten('a'));
    await answer('b', ten('b'));
    await answer('c', ten('c'));
    expect(cache.keptBytes).toBe(30);
    await answer('a', 'unused'); // a is used again, so b is now the oldest
    await answer('d', ten('d'));
    expect(cache.size).toBe(3);
    expect(cache.keptBytes).toBe(30);
    expect(await answer('b', 'again')).toBe('"again"');
    expect(await answer('a', 'unused')).toBe(`"${ten('a')}"`);
    // An answer larger than the whole cache is answered but not kept.
    expect(await answer('big', 'x'.repeat(40))).toBe(`"${'x'.repeat(40)}"`);
    expect(cache.keptBytes).toBeLessThanOrEqual(30);
    expect(await answer('big', 'small')).toBe('"small"');
    expect(computed()).toBe(7);
  });

  test('concurrent reads of one key share one computation', async () => {
    const clock = new ManualClock(START);
    const cache = new ReadCache({ clock, maxBytes: 1_000, maxAgeMs: 1_000 });
    let computed = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const compute = async (): Promise<ComputedAnswer> => {
      computed += 1;
      await gate;
      return { body: { n: computed }, at: clock.now(), changesAt: null };
    };
    const answers = Promise.all([1, 2, 3].map(() => cache.answer('k', compute)));
    release();
    expect((await answers).map(String)).toEqual(['{"n":1}', '{"n":1}', '{"n":1}']);
    expect(computed).toBe(1);
  });

  test('a failed computation is not kept, and a reader waiting on it computes its own', async () => {
    const clock = new ManualClock(START);
    const cache = new ReadCache({ clock, maxBytes: 1_000, maxAgeMs: 1_000 });
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const failing = cache.answer('k', async () => {
      await gate;
      throw new Error('database unavailable');
    });
    const waiting = cache.answer('k', async () => ({
      body: 'recovered',
      at: clock.now(),
      changesAt: null,
    }));
    release();
    await expect(failing).rejects.toThrow('database unavailable');
    expect(String(await waiting)).toBe('"recovered"');
    expect(cache.size).toBe(1);
  });
});
