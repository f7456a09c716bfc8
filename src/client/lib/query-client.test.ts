import { MutationObserver, QueryObserver } from '@tanstack/react-query';
import { describe, expect, test, vi } from 'vitest';
import { createQueryClient } from './query-client';

// Specification section 9: data is never stale on its own, not refetched on window focus, not
// polled, and neither reads nor writes are retried.
describe('createQueryClient', () => {
  test('defaults: never stale, no refetch on focus, no polling, no retries', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({
      staleTime: Number.POSITIVE_INFINITY,
      refetchOnWindowFocus: false,
      refetchInterval: false,
      retry: false,
    });
    expect(queries?.queryFn).toEqual(expect.any(Function));
    expect(mutations).toMatchObject({ retry: false });
  });

  test('a failed read is not tried again; fetched data stays fresh', async () => {
    const client = createQueryClient();
    const failing = vi.fn(async () => {
      throw new Error('500: Internal Server Error');
    });
    const observer = new QueryObserver(client, { queryKey: ['/api/fails'], queryFn: failing });
    const states: string[] = [];
    const unsubscribe = observer.subscribe((r) => states.push(r.status));
    await vi.waitFor(() => expect(states).toContain('error'));
    unsubscribe();
    expect(failing).toHaveBeenCalledTimes(1);

    await client.fetchQuery({ queryKey: ['/api/ok'], queryFn: async () => 'data' });
    expect(
      client
        .getQueryCache()
        .find({ queryKey: ['/api/ok'] })
        ?.isStale(),
    ).toBe(false);
  });

  test('a failed write is not tried again', async () => {
    const client = createQueryClient();
    const failing = vi.fn(async () => {
      throw new Error('409: Conflict');
    });
    const observer = new MutationObserver(client, { mutationFn: failing });
    await expect(observer.mutate()).rejects.toThrow('409: Conflict');
    expect(failing).toHaveBeenCalledTimes(1);
  });
});
