import type { Db, Tx } from './client';

/**
 * A batch transaction (decision 277): one transaction that does the same kind of work many times
 * (the escalation engine's due steps). Within it, reads are shared: the first read of a key runs
 * and the later ones get its answer (`sharedRead`); ids come from the sequence many at a time
 * (`allocateIds`); and rows that only add to a trail are written together just before the
 * commit (`atCommit`: the audit trail, whose chained insert locks its head until the commit, is
 * then locked for the last statement, not for the whole batch). Outside a batch every caller
 * reads and writes as before. What is shared must not change within the batch's work
 * (rotations, members, people, rules, destinations for a batch of steps: the steps write none of
 * them), and callers treat a shared answer as read-only.
 */
interface Batch {
  reads: Map<string, Promise<unknown>>;
  /** what callers keep for the batch's length (`batchState`) */
  state: Map<string, unknown>;
  /** run in order after the work, before the commit */
  atCommit: Map<string, () => Promise<void>>;
}

const batches = new WeakMap<object, Batch>();

/** inBatch runs `work` in one transaction of `db` as a batch, then the work it left for its commit. */
export function inBatch<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const batch: Batch = { reads: new Map(), state: new Map(), atCommit: new Map() };
    batches.set(tx, batch);
    const done = await work(tx);
    for (const write of batch.atCommit.values()) await write();
    return done;
  });
}

/**
 * batchState: in a batch, what is kept under `key` for the batch's length (`make` gives it the
 * first time); outside a batch, undefined.
 */
export function batchState<T>(db: Db | Tx, key: string, make: () => T): T | undefined {
  const batch = batches.get(db);
  if (!batch) return undefined;
  if (!batch.state.has(key)) batch.state.set(key, make());
  return batch.state.get(key) as T;
}

/**
 * atCommit leaves `write` under `key` for the batch to run before its commit (once per key: a
 * later call with the same key is the same write); outside a batch it is an error to ask.
 */
export function atCommit(db: Db | Tx, key: string, write: () => Promise<void>): void {
  const batch = batches.get(db);
  if (!batch) throw new Error('atCommit: not in a batch transaction');
  if (!batch.atCommit.has(key)) batch.atCommit.set(key, write);
}

/** sharedRead runs `read`, or, in a batch, reuses its answer for `key`. */
export function sharedRead<T>(db: Db | Tx, key: string, read: () => Promise<T>): Promise<T> {
  const batch = batches.get(db);
  if (!batch) return read();
  let answer = batch.reads.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = read();
    batch.reads.set(key, answer);
  }
  return answer;
}

/** idsKey: a key part for a set of ids, whatever their order or repeats. */
export const idsKey = (ids: readonly (number | null | undefined)[]): string =>
  [...new Set(ids.filter((id): id is number => typeof id === 'number'))]
    .sort((a, b) => a - b)
    .join(',');
