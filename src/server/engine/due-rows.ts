// The engine's one way through due work: each due item in its own transaction, a few at once.

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
