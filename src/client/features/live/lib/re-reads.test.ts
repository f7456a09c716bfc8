import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, test } from 'vitest';
import { BATCH_MS, GAP_MS, nextRoundDelay, readAgain } from './re-reads';

describe('nextRoundDelay', () => {
  test('the first round comes a batch after the first change', () => {
    expect(nextRoundDelay(5_000, null)).toBe(BATCH_MS);
  });
  test('a round waits until a second has passed since the last one', () => {
    expect(nextRoundDelay(5_200, 5_000)).toBe(800);
    expect(nextRoundDelay(5_000 + GAP_MS - 50, 5_000)).toBe(BATCH_MS);
    expect(nextRoundDelay(9_000, 5_000)).toBe(BATCH_MS);
  });
});

/** A query shown on screen whose reads each wait until the test answers them. */
function shownQuery(client: QueryClient) {
  const answers: ((value: number) => void)[] = [];
  let reads = 0;
  const observer = new QueryObserver(client, {
    queryKey: ['/api/rotations'],
    queryFn: ({ signal }) =>
      new Promise<number>((resolve, reject) => {
        reads++;
        answers.push(resolve);
        signal.addEventListener('abort', () => reject(new Error('cancelled')));
      }),
  });
  const stop = observer.subscribe(() => {});
  return {
    observer,
    stop,
    reads: () => reads,
    answer: (value: number) => answers.shift()?.(value),
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let client: QueryClient;
afterEach(() => client?.clear());

describe('readAgain', () => {
  test('a query not being read is read again', async () => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const q = shownQuery(client);
    await settle();
    q.answer(1);
    await settle();
    expect(q.observer.getCurrentResult().data).toBe(1);

    const underWay = readAgain(client, () => true);
    await settle();
    expect(underWay).toEqual([]);
    expect(q.reads()).toBe(2);
    q.answer(2);
    await settle();
    expect(q.observer.getCurrentResult().data).toBe(2);
    q.stop();
  });

  test('changes faster than the server answers never cancel its read, and the read that began before them is read again', async () => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const q = shownQuery(client);
    await settle();
    q.answer(1);
    await settle();
    // A change: the query is read again, and the server is slow to answer.
    readAgain(client, () => true);
    await settle();
    expect(q.reads()).toBe(2);
    // Ten rounds of changes meanwhile: none cancels that read, none starts another.
    let again: unknown[] = [];
    for (let i = 0; i < 10; i++) {
      again = readAgain(client, () => true);
      await settle();
    }
    expect(q.reads()).toBe(2);
    expect(again).toHaveLength(1);
    q.answer(2);
    await settle();
    expect(q.observer.getCurrentResult().data).toBe(2);
    // The next round reads it again, since its answer may predate the changes.
    const carried = new Set(again);
    readAgain(client, (query) => carried.has(query));
    await settle();
    expect(q.reads()).toBe(3);
    q.answer(3);
    await settle();
    expect(q.observer.getCurrentResult().data).toBe(3);
    q.stop();
  });

  test('only the queries picked are read again', async () => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const q = shownQuery(client);
    await settle();
    q.answer(1);
    await settle();
    readAgain(client, (query) => query.queryKey[0] === '/api/incidents');
    await settle();
    expect(q.reads()).toBe(1);
    q.stop();
  });
});
