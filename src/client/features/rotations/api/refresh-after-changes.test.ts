import {
  environmentManager,
  focusManager,
  MutationObserver,
  type QueryClient,
  type QueryKey,
  QueryObserver,
} from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

vi.mock('@/components/ui/use-toast', () => ({ toast: vi.fn() }));
// A worker's files share its modules (isolate: false): load these again, with the mock.
vi.resetModules();

const { createQueryClient } = await import('@/lib/query-client');
const { toast } = await import('@/components/ui/use-toast');
const { passBatonMutationOptions } = await import('./pass-baton');
const { takeOnCallMutationOptions } = await import('./take-on-call');
const { createRotationMutationOptions } = await import('./create-rotation');
const { updateRotationMutationOptions } = await import('./update-rotation');
const { pageOnCallMutationOptions } = await import('./page-on-call');
const { requestCoverageMutationOptions } = await import('./request-coverage');
const { dashboardRotationsQueryOptions, rotationsListQueryOptions } = await import(
  './get-rotations'
);
const { userRotationsQueryOptions } = await import('./get-user-rotations');

/*
 * Section 7: what each change refreshes, and how the rotation reads poll and go stale. A real
 * QueryClient with the product's defaults; only fetch is replaced, at the HTTP boundary.
 */

type Answer = { status: number; body: unknown };

/** stubServer answers every request from `answer(method, path)` and records what was asked. */
function stubServer(answer: (method: string, path: string) => Answer = () => ok({})) {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const path = new URL(input, 'http://baton.test').pathname;
      asked.push(`${method} ${path}`);
      const { status, body } = answer(method, path);
      return new Response(body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
  return asked;
}

const ok = (body: unknown): Answer => ({ status: 200, body });

/** Every read a signed-in user may have in the cache when a change is made. */
const CACHED: QueryKey[] = [
  ['/api/rotations'],
  ['/api/rotations', 7],
  ['/api/rotations', 7, 'schedules'],
  ['/api/rotations', 8],
  ['/api/user/rotations'],
  ['/api/handoffs/recent', { limit: 5 }],
  ['/api/on-call-team'],
  ['/api/users/by-roles?roles=on-call,manager'],
];

/** The paging reads, cached beside those above when a test is about pages. */
const CACHED_PAGE_READS: QueryKey[] = [
  ['/api/rotations', 7, 'pages'],
  ['/api/rotations', 8, 'pages'],
  ['/api/user/pages'],
  ['/api/user/page-delivery-failures'],
];

function cachedClient(): QueryClient {
  const client = createQueryClient();
  for (const key of CACHED) client.setQueryData(key, []);
  return client;
}

/** invalidated returns the cached reads a change marked for refetching, as JSON for comparison. */
function invalidated(client: QueryClient): string[] {
  return client
    .getQueryCache()
    .getAll()
    .filter((q) => q.state.isInvalidated)
    .map((q) => JSON.stringify(q.queryKey))
    .sort();
}

const keys = (...list: QueryKey[]) => list.map((k) => JSON.stringify(k)).sort();

/** A baton change's answer: rotation 7 as it now is. */
const ANSWER = { id: 7, name: 'Platform Primary', currentOnCall: { id: 4, name: 'Sam Sullivan' } };
const BEFORE_7 = {
  id: 7,
  name: 'Platform Primary',
  currentOnCall: { id: 2, name: 'Olivia Ortiz' },
  members: [],
};
const OTHER_8 = { id: 8, name: 'Database On-Call', currentOnCall: null, members: [] };

/** clientWithRotations caches every read, with rotations 7 and 8 in both lists. */
function clientWithRotations(): QueryClient {
  const client = cachedClient();
  client.setQueryData(['/api/rotations'], [BEFORE_7, OTHER_8]);
  client.setQueryData(['/api/user/rotations'], [BEFORE_7]);
  client.setQueryData(['/api/rotations', 7], BEFORE_7);
  return client;
}

function expectAnswerWritten(client: QueryClient) {
  expect(client.getQueryData(['/api/rotations', 7])).toEqual(ANSWER);
  expect(client.getQueryData(['/api/rotations'])).toEqual([ANSWER, OTHER_8]);
  expect(client.getQueryData(['/api/user/rotations'])).toEqual([ANSWER]);
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.mocked(toast).mockClear();
  focusManager.setFocused(undefined);
});

describe('after a change, the reads section 7 names are refreshed, and no others', () => {
  test('pass baton: the answer goes into the rotation, /api/user/rotations and /api/rotations; /api/handoffs/recent is read again', async () => {
    const asked = stubServer((method) => (method === 'POST' ? ok(ANSWER) : ok([])));
    const client = clientWithRotations();
    await new MutationObserver(client, passBatonMutationOptions(client)).mutate({
      rotationId: 7,
      toUserId: 4,
      notes: 'db-3 is noisy',
      toUserName: 'Sam Sullivan',
    });
    // Nothing is fetched at once: no read is observed, and the rotation reads took the answer.
    expect(asked).toEqual(['POST /api/rotations/7/handoff']);
    expect(invalidated(client)).toEqual(keys(['/api/handoffs/recent', { limit: 5 }]));
    expectAnswerWritten(client);
    expect(toast).toHaveBeenCalledWith({
      title: 'Baton passed successfully',
      description: "You've passed the baton to Sam Sullivan",
    });
  });

  test('take on-call: the answer goes into /api/user/rotations, /api/rotations and the rotation taken; recent handoffs are read again', async () => {
    const asked = stubServer((method) => (method === 'POST' ? ok(ANSWER) : ok([])));
    const client = clientWithRotations();
    await new MutationObserver(client, takeOnCallMutationOptions(client)).mutate({
      rotationId: 7,
      rotationName: 'Platform Primary',
    });
    expect(asked).toEqual(['POST /api/rotations/7/take-oncall']);
    expect(invalidated(client)).toEqual(keys(['/api/handoffs/recent', { limit: 5 }]));
    expectAnswerWritten(client);
    expect(toast).toHaveBeenCalledWith({
      title: 'On-call responsibility taken',
      description: 'You are now on-call for Platform Primary',
    });
  });

  test('pass baton and take on-call: the rotation page’s handoff history and the audit log are read again too (decision 187)', async () => {
    stubServer((method) => (method === 'POST' ? ok(ANSWER) : ok([])));
    const history = ['/api/audit-log/handoffs', { rotationId: 7, limit: 10 }];
    const auditLog = ['/api/audit-log/handoffs', { search: '', status: '' }];
    const withHistories = () => {
      const client = clientWithRotations();
      client.setQueryData(history, { entries: [], nextCursor: null });
      client.setQueryData(auditLog, { pages: [], pageParams: [] });
      return client;
    };
    const expected = keys(['/api/handoffs/recent', { limit: 5 }], history, auditLog);

    const passed = withHistories();
    await new MutationObserver(passed, passBatonMutationOptions(passed)).mutate({
      rotationId: 7,
      toUserId: 4,
      toUserName: 'Sam Sullivan',
    });
    expect(invalidated(passed)).toEqual(expected);

    const taken = withHistories();
    await new MutationObserver(taken, takeOnCallMutationOptions(taken)).mutate({
      rotationId: 7,
      rotationName: 'Platform Primary',
    });
    expect(invalidated(taken)).toEqual(expected);
  });

  test('page: the rotation’s page history and the user’s pages, nothing else', async () => {
    const asked = stubServer(() => ok({ sentTo: { name: 'Olivia Ortiz' } }));
    const client = cachedClient();
    for (const key of CACHED_PAGE_READS) client.setQueryData(key, []);
    await new MutationObserver(client, pageOnCallMutationOptions(client)).mutate({
      rotationId: 7,
      message: ' db-3 is down ',
      urgency: 'high',
    });
    expect(asked).toEqual(['POST /api/rotations/7/page']);
    expect(invalidated(client)).toEqual(
      keys(
        ['/api/rotations', 7, 'pages'],
        ['/api/user/pages'],
        ['/api/user/page-delivery-failures'],
      ),
    );
    expect(toast).toHaveBeenCalledWith({
      title: 'Page alert sent',
      description: 'Page alert sent to Olivia Ortiz.',
    });
  });

  test('request coverage: the rotation and the coverage requests (the dashboard lists the outgoing one)', async () => {
    const asked = stubServer((method) => (method === 'POST' ? ok({ id: 3 }) : ok([])));
    const client = cachedClient();
    client.setQueryData(['/api/coverage-requests'], { incoming: [], outgoing: [] });
    await new MutationObserver(client, requestCoverageMutationOptions(client)).mutate({
      rotationId: 7,
      coveringUserId: 4,
      startTime: '2026-11-26T09:00:00.000Z',
      endTime: '2026-11-26T17:00:00.000Z',
      notes: '',
      coveringUserName: 'Sam Sullivan',
    });
    expect(asked).toEqual(['POST /api/rotations/7/cover']);
    expect(invalidated(client)).toEqual(
      keys(['/api/coverage-requests'], ['/api/rotations', 7], ['/api/rotations', 7, 'schedules']),
    );
  });

  test('update: the list and the rotation', async () => {
    const asked = stubServer();
    const client = cachedClient();
    await new MutationObserver(client, updateRotationMutationOptions(client)).mutate({
      rotationId: 7,
      input: { name: 'Platform Secondary' },
    });
    expect(asked).toEqual(['PATCH /api/rotations/7']);
    expect(invalidated(client)).toEqual(
      keys(['/api/rotations'], ['/api/rotations', 7], ['/api/rotations', 7, 'schedules']),
    );
    expect(toast).toHaveBeenCalledWith({
      title: 'Rotation updated',
      description: 'Your rotation has been updated successfully.',
    });
  });

  test('create: the list is read again at once and once more about 500 ms later', async () => {
    vi.useFakeTimers();
    const asked = stubServer((method, path) =>
      method === 'POST'
        ? { status: 201, body: { id: 12, name: 'Edge' } }
        : path === '/api/auth/user'
          ? ok({ user: { id: 1 } })
          : ok([]),
    );
    const listReads = () => asked.filter((a) => a === 'GET /api/rotations').length;
    const client = cachedClient();
    // The Rotations screen is open: its list is watched (and fresh, so not read on mount).
    const unsubscribe = new QueryObserver(client, rotationsListQueryOptions()).subscribe(() => {});
    await new MutationObserver(client, createRotationMutationOptions(client)).mutate({
      name: 'Edge',
      description: '',
      type: 'fixed',
      cadence: 'daily',
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(invalidated(client)).toEqual([]); // refetched already, so no longer invalid
    expect(listReads()).toBe(1);
    await vi.advanceTimersByTimeAsync(450);
    expect(listReads()).toBe(1);
    await vi.advanceTimersByTimeAsync(50);
    expect(listReads()).toBe(2);
    // Nothing else was read.
    expect(asked.filter((a) => a !== 'GET /api/rotations' && a !== 'GET /api/auth/user')).toEqual([
      'POST /api/rotations',
    ]);
    unsubscribe();
  });

  test('a refused change refreshes nothing and shows the error toast', async () => {
    stubServer(() => ({ status: 409, body: { message: 'Someone is already on call.' } }));
    const client = cachedClient();
    const observer = new MutationObserver(client, takeOnCallMutationOptions(client));
    await expect(observer.mutate({ rotationId: 7, rotationName: 'Platform' })).rejects.toThrow(
      '409',
    );
    expect(invalidated(client)).toEqual([]);
    expect(toast).toHaveBeenCalledWith({
      variant: 'destructive',
      title: 'Error taking on-call',
      description: 'Someone is already on call.',
    });
  });
});

describe('how the rotation reads poll and go stale', () => {
  let listReads: () => number;

  beforeEach(() => {
    vi.useFakeTimers();
    // Node has no window, so TanStack Query takes it for a server and schedules no polling: here
    // it runs as in the browser.
    environmentManager.setIsServer(() => false);
    focusManager.setFocused(true);
    const asked = stubServer((_method, path) =>
      path === '/api/auth/user' ? ok({ user: { id: 1 } }) : ok([]),
    );
    listReads = () => asked.filter((a) => a === 'GET /api/rotations').length;
  });

  // What a test mounted is taken down after it, even when it fails half-way.
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const cleanup of cleanups.splice(0)) cleanup();
    environmentManager.setIsServer(() => typeof window === 'undefined');
  });

  /** mountedClient is a client as the app's provider holds it: listening for focus. */
  function mountedClient(): QueryClient {
    const client = createQueryClient();
    client.mount();
    cleanups.push(() => {
      client.unmount();
      client.clear();
    });
    return client;
  }

  /** watch mounts one observer of the options, as a screen using them would. */
  function watch(client: QueryClient, options: object) {
    const observer = new QueryObserver(client, options as never);
    const unsubscribe = observer.subscribe(() => {});
    cleanups.unshift(unsubscribe);
    return unsubscribe;
  }

  test('the Rotations screen: polled every 15 s, stale after 5 s, refetched on focus and mount', async () => {
    const client = mountedClient();
    const unmount = watch(client, rotationsListQueryOptions());
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads()).toBe(1);

    // Focus within 5 s: still fresh, not read again; after 5 s it is.
    await vi.advanceTimersByTimeAsync(4_000);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_500);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads()).toBe(2);

    // Polled every 15 s after the last read.
    await vi.advanceTimersByTimeAsync(14_900);
    expect(listReads()).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads()).toBe(3);
    await vi.advanceTimersByTimeAsync(15_000);
    expect(listReads()).toBe(4);

    // Mounting again refetches once the data is older than 5 s.
    unmount();
    await vi.advanceTimersByTimeAsync(2_000);
    const again = watch(client, rotationsListQueryOptions());
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads()).toBe(4);
    again();
    await vi.advanceTimersByTimeAsync(4_000);
    const third = watch(client, rotationsListQueryOptions());
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads()).toBe(5);
    third();
  });

  test('a hidden tab is not polled; it is read again when it becomes visible', async () => {
    const client = mountedClient();
    const unmount = watch(client, rotationsListQueryOptions());
    await vi.advanceTimersByTimeAsync(0);
    focusManager.setFocused(false);
    await vi.advanceTimersByTimeAsync(45_000);
    expect(listReads()).toBe(1);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(listReads()).toBe(2);
    unmount();
  });

  test('the dashboard: rotations and the user’s rotations stay fresh for 10 s', async () => {
    const client = mountedClient();
    const unmount = watch(client, dashboardRotationsQueryOptions());
    const unmountMine = watch(client, userRotationsQueryOptions());
    await vi.advanceTimersByTimeAsync(0);
    const mine = () =>
      vi.mocked(fetch).mock.calls.filter(([url]) => String(url).startsWith('/api/user/rotations'))
        .length;
    expect([listReads(), mine()]).toEqual([1, 1]);

    await vi.advanceTimersByTimeAsync(9_000);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect([listReads(), mine()]).toEqual([1, 1]);

    await vi.advanceTimersByTimeAsync(1_500);
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.advanceTimersByTimeAsync(0);
    expect([listReads(), mine()]).toEqual([2, 2]);
    unmount();
    unmountMine();
  });
});
