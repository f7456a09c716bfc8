// The engine's one way through due work: each due item in its own transaction, a few at once;
// or, where a burst of items falls due together, a batch of them in each transaction.
import { inBatch } from '../db/batch-transaction';
import type { Db, Tx } from '../db/client';

/** EffectAlreadyDone aborts a transaction whose keyed effect another engine already made. */
export class EffectAlreadyDone extends Error {
  constructor(key: string) {
    super(`Effect ${key} was already done`);
    this.name = 'EffectAlreadyDone';
  }
}

/** How many due items one engine task works on at once (each in its own transaction). */
export const ENGINE_CONCURRENCY = 4;

/**
 * eachDue works through due items, a few at once (each item locks only its own rows, so they do
 * not wait on one another); one item's failure does not stop the others. The failures are thrown
 * together at the end, so the tick reports them and the next tick retries.
 */
export async function eachDue<T>(
  items: readonly T[],
  work: (item: T) => Promise<unknown>,
  concurrency = ENGINE_CONCURRENCY,
) {
  const failures: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      try {
        await work(item);
      } catch (err) {
        if (!(err instanceof EffectAlreadyDone)) failures.push(err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  if (failures.length === 1) throw failures[0];
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} items failed`);
}

/**
 * eachDueInBatches works through due items in batch transactions (decision 280): `work` is given
 * `size` items at a time in one batch transaction (`inBatch`, which shares their reads and their
 * commit), a few batches at once. A batch that fails wrote nothing; its items are then given to
 * `work` again one at a time, each in a transaction of its own, so one item that cannot be done
 * holds back no other, and the failures are thrown together at the end as eachDue throws them.
 * An item whose keyed effect another engine already made (EffectAlreadyDone) is skipped, as in
 * eachDue.
 */
export async function eachDueInBatches<T>(
  db: Db,
  items: readonly T[],
  size: number,
  work: (tx: Tx, batch: readonly T[]) => Promise<unknown>,
  concurrency = ENGINE_CONCURRENCY,
) {
  const batches: T[][] = [];
  for (let at = 0; at < items.length; at += size) batches.push(items.slice(at, at + size));
  await eachDue(
    batches,
    async (batch) => {
      const done = await inBatch(db, (tx) => work(tx, batch)).then(
        () => true,
        () => false,
      );
      if (!done) await eachDue(batch, (item) => db.transaction((tx) => work(tx, [item])), 1);
    },
    concurrency,
  );
}
