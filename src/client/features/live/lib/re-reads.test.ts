import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, test } from 'vitest';
import { BATCH_MS, GAP_MS, MAX_GAP_MS, RoundPace, readAgain } from './re-reads';

describe('RoundPace', () => {
  test('the first round comes a batch after the first change', () => {
    expect(new RoundPace().delay(5_000)).toBe(BATCH_MS);
  });

  test('a round waits until a second has passed since the last one', () => {
    const pace = new RoundPace();
    pace.ran(5_000);
    // A change 200 ms after a round: the gap grows to two seconds (changes keep coming).
    expect(pace.delay(5_200)).toBe(2 * GAP_MS - 200);
  });

  test('after a quiet spell of two gaps the gap is a second again, and the round a batch away', () => {
    const pace = new RoundPace();
    pace.ran(5_000);
    expect(pace.delay(5_000 + 2 * GAP_MS)).toBe(BATCH_MS);
    expect(pace.currentGap).toBe(GAP_MS);
  });

  test('while changes keep coming the gap doubles up to MAX_GAP_MS, then a quiet spell resets it', () => {
    const pace = new RoundPace();
    let now = 0;
    pace.ran(now);
    const gaps: number[] = [];
    // A change every 50 ms: each round is asked for 50 ms after the last one ran.
    for (let round = 0; round < 6; round++) {
      now += 50;
      const delay = pace.delay(now);
      gaps.push(pace.currentGap);
      now += delay;
      pace.ran(now);
    }
    expect(gaps).toEqual([2_000, 4_000, 8_000, 8_000, 8_000, 8_000]);
    expect(MAX_GAP_MS).toBe(8_000);
    // The rounds themselves came a gap apart.
    expect(pace.delay(now + 10)).toBe(MAX_GAP_MS - 10);
    // Silence for two gaps: the next change is read again within a batch.
    now += 2 * MAX_GAP_MS + 10;
    expect(pace.delay(now)).toBe(BATCH_MS);
    expect(pace.currentGap).toBe(GAP_MS);
  });

  test('changes a little slower than a gap apart keep the gap at a second', () => {
    const pace = new RoundPace();
    let now = 0;
    for (let i = 0; i < 5; i++) {
      expect(pace.delay(now)).toBe(BATCH_MS);
      now += BATCH_MS;
      pace.ran(now);
      now += 1.5 * GAP_MS;
    }
    expect(pace.currentGap).toBe(GAP_MS);
  });

  test('a grown gap holds for changes between one and two gaps apart', () => {
    const pace = new RoundPace();
    pace.ran(0);
    expect(pace.delay(100)).toBe(2 * GAP_MS - 100);
    pace.ran(2 * GAP_MS);
    // 3 s after that round: more than the 2 s gap, less than two of them.
    expect(pace.delay(5 * GAP_MS)).toBe(BATCH_MS);
    expect(pace.currentGap).toBe(2 * GAP_MS);
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
