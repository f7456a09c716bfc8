import DataLoader from 'dataloader';

/**
 * oneBatchAtATime: a DataLoader whose batches go to the database one at a time (decision 216).
 * The keys that arrive while a batch is in flight wait for it and go together as the next
 * batch, as a database's group commit does: batches of one process never queue on each other's
 * row locks, and the busier the intake, the fewer statements per event.
 */
export function oneBatchAtATime<K, V>(
  load: (keys: readonly K[]) => Promise<V[]>,
): DataLoader<K, V> {
  let inFlight: Promise<unknown> = Promise.resolve();
  return new DataLoader<K, V>(
    (keys) => {
      const sent = load(keys);
      inFlight = sent.catch(() => undefined);
      return sent;
    },
    {
      cache: false,
      maxBatchSize: 500,
      batchScheduleFn: (send) => {
        inFlight.then(() => setImmediate(send));
      },
    },
  );
}
