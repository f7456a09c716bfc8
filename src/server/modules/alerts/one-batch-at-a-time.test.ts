import { expect, test } from 'vitest';
import { oneBatchAtATime } from './one-batch-at-a-time';

/** A batch function whose batches are answered when the test says so. */
function heldBatches() {
  const batches: { keys: number[]; answer: () => void }[] = [];
  const load = (keys: readonly number[]) =>
    new Promise<number[]>((resolve) => {
      batches.push({ keys: [...keys], answer: () => resolve(keys.map((k) => k * 10)) });
    });
  return { batches, load };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

test('keys that arrive while a batch is in flight wait for it, then go as one batch', async () => {
  const { batches, load } = heldBatches();
  const loader = oneBatchAtATime(load);
  const first = loader.load(1);
  await settle();
  expect(batches.map((b) => b.keys)).toEqual([[1]]);

  const waiting = [2, 3, 4, 5].map((k) => loader.load(k));
  await settle();
  // Still one batch in the database: the four wait behind it.
  expect(batches.map((b) => b.keys)).toEqual([[1]]);

  batches[0].answer();
  expect(await first).toBe(10);
  await settle();
  expect(batches.map((b) => b.keys)).toEqual([[1], [2, 3, 4, 5]]);
  batches[1].answer();
  expect(await Promise.all(waiting)).toEqual([20, 30, 40, 50]);
});

test('a failed batch fails its own keys only; the next batch still goes', async () => {
  let calls = 0;
  const loader = oneBatchAtATime<number, number>(async (keys) => {
    calls += 1;
    if (calls === 1) throw new Error('database unavailable');
    return keys.map((k) => k + 1);
  });
  await expect(loader.load(1)).rejects.toThrow('database unavailable');
  expect(await loader.load(2)).toBe(3);
});
