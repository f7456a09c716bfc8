import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
  ApiRequestError,
  apiRequest,
  getErrorMessage,
  getQueryFn,
  pathFromQueryKey,
  setRequestIdentity,
  statusLine,
  withTimestamp,
} from './api-client';

const NOW = 1_736_000_000_000;

type FetchArgs = [input: string, init: RequestInit];

function stubFetch(response: () => Response) {
  const fetchMock = vi.fn(async (..._args: FetchArgs) => response());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function lastCall(fetchMock: ReturnType<typeof stubFetch>): { url: string; init: RequestInit } {
  const [url, init] = fetchMock.mock.calls.at(-1)!;
  return { url, init };
}

/** runQuery runs the default query function the way React Query would, for one key. */
async function runQuery(on401: 'throw' | 'returnNull', queryKey: readonly unknown[]) {
  const context = {
    queryKey,
    signal: new AbortController().signal,
    meta: undefined,
  } as unknown as Parameters<ReturnType<typeof getQueryFn>>[0];
  return getQueryFn({ on401 })(context);
}

beforeEach(() => {
  vi.spyOn(Date, 'now').mockReturnValue(NOW);
});

afterEach(() => {
  setRequestIdentity(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('withTimestamp', () => {
  test.each([
    ['/api/rotations', `/api/rotations?_t=${NOW}`],
    ['/api/handoffs/recent?limit=5', `/api/handoffs/recent?limit=5&_t=${NOW}`],
    ['/api/x#frag', `/api/x?_t=${NOW}#frag`],
  ])('%s gives %s', (path, expected) => {
    expect(withTimestamp(path, NOW)).toBe(expected);
  });
});

describe('apiRequest', () => {
  test('sends JSON with credentials, no-cache headers and a _t timestamp', async () => {
    const fetchMock = stubFetch(() => Response.json({ user: { id: 1 } }));

    const result = await apiRequest('POST', '/api/auth/login', { email: 'a@b.c', password: 'x' });

    expect(result).toEqual({ user: { id: 1 } });
    const { url, init } = lastCall(fetchMock);
    expect(url).toBe(`/api/auth/login?_t=${NOW}`);
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe(JSON.stringify({ email: 'a@b.c', password: 'x' }));
    const headers = new Headers(init.headers);
    expect(headers.get('Content-Type')).toBe('application/json');
    expect(headers.get('Cache-Control')).toBe('no-cache');
    expect(headers.get('Pragma')).toBe('no-cache');
    expect(headers.has('X-User-Id')).toBe(false);
    expect(headers.has('X-User-Role')).toBe(false);
  });

  test('sends no body and no Content-Type without a payload', async () => {
    const fetchMock = stubFetch(() => new Response(null, { status: 204 }));

    await expect(apiRequest('POST', '/api/auth/logout')).resolves.toBeUndefined();

    const { init } = lastCall(fetchMock);
    expect(init.body).toBeUndefined();
    expect(new Headers(init.headers).has('Content-Type')).toBe(false);
  });

  test('sends the signed-in user as X-User-Id and X-User-Role', async () => {
    const fetchMock = stubFetch(() => Response.json([]));
    setRequestIdentity({ userId: 42, role: 'admin' });

    await apiRequest('GET', '/api/rotations');

    const headers = new Headers(lastCall(fetchMock).init.headers);
    expect(headers.get('X-User-Id')).toBe('42');
    expect(headers.get('X-User-Role')).toBe('admin');
  });

  test('throws "<status>: <text>" and keeps the server error body', async () => {
    const body = { message: 'Rotation not found', code: 'NOT_FOUND' };
    stubFetch(() => Response.json(body, { status: 404, statusText: 'Not Found' }));

    const error = await apiRequest('GET', '/api/rotations/9').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiRequestError);
    const apiError = error as ApiRequestError;
    expect(apiError.message).toBe(`404: ${JSON.stringify(body)}`);
    expect(apiError.status).toBe(404);
    expect(apiError.body).toEqual(body);
  });

  test('keeps field errors', async () => {
    const body = {
      message: 'Invalid input',
      code: 'VALIDATION_FAILED',
      fields: { name: 'Too short' },
    };
    stubFetch(() => Response.json(body, { status: 400 }));

    const error = (await apiRequest('POST', '/api/rotations', {}).catch(
      (e) => e,
    )) as ApiRequestError;

    expect(error.body?.fields).toEqual({ name: 'Too short' });
  });

  test('uses the status text when the response has no text', async () => {
    stubFetch(() => new Response('', { status: 500, statusText: 'Internal Server Error' }));

    const error = (await apiRequest('GET', '/api/x').catch((e) => e)) as ApiRequestError;

    expect(error.message).toBe('500: Internal Server Error');
    expect(error.body).toBeNull();
  });

  test('keeps a non-JSON error text in the message, with no body', async () => {
    stubFetch(() => new Response('Bad gateway', { status: 502, statusText: 'Bad Gateway' }));

    const error = (await apiRequest('GET', '/api/x').catch((e) => e)) as ApiRequestError;

    expect(error.message).toBe('502: Bad gateway');
    expect(error.body).toBeNull();
  });
});

describe('pathFromQueryKey', () => {
  test.each([
    [['/api/rotations'], '/api/rotations'],
    [['/api/rotations', 7], '/api/rotations/7'],
    [['/api/rotations', 7, 'schedules'], '/api/rotations/7/schedules'],
    [['/api/invitations', 'a/b?c', 'validate'], '/api/invitations/a%2Fb%3Fc/validate'],
  ])('%j gives %s', (key, expected) => {
    expect(pathFromQueryKey(key)).toBe(expected);
  });

  test('refuses segments that are not strings or numbers', () => {
    expect(() => pathFromQueryKey(['/api/x', { a: 1 }])).toThrow(TypeError);
  });
});

describe('getQueryFn', () => {
  test('GETs the path the query key holds', async () => {
    const fetchMock = stubFetch(() => Response.json({ ok: true }));

    const data = await runQuery('throw', ['/api/rotations', 3]);

    expect(data).toEqual({ ok: true });
    const { url, init } = lastCall(fetchMock);
    expect(url).toBe(`/api/rotations/3?_t=${NOW}`);
    expect(init.method).toBe('GET');
  });

  test("answers null on 401 with on401 'returnNull'", async () => {
    stubFetch(() => Response.json({ message: 'Not signed in' }, { status: 401 }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});

    const data = await runQuery('returnNull', ['/api/auth/user']);

    expect(data).toBeNull();
    expect(warn).not.toHaveBeenCalled();
  });

  test("warns (not errors) and throws on 401 with on401 'throw'", async () => {
    stubFetch(() => Response.json({ message: 'Not signed in' }, { status: 401 }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error');

    const failure = await runQuery('throw', ['/api/users']).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ApiRequestError);
    expect((failure as ApiRequestError).status).toBe(401);
    expect(warn).toHaveBeenCalledOnce();
    expect(error).not.toHaveBeenCalled();
  });

  test('throws other failures whatever on401 says', async () => {
    stubFetch(() => Response.json({ message: 'Nope' }, { status: 403 }));

    const failure = await runQuery('returnNull', ['/api/users']).catch((e: unknown) => e);

    expect((failure as ApiRequestError).message).toBe('403: {"message":"Nope"}');
  });
});

describe('getErrorMessage', () => {
  test("gives the server's message", () => {
    const error = new ApiRequestError(401, '{"message":"Bad password"}', {
      message: 'Bad password',
    });
    expect(getErrorMessage(error, 'Invalid credentials')).toBe('Bad password');
  });

  test('gives the fallback without a server message', () => {
    expect(getErrorMessage(new ApiRequestError(500, 'oops', null), 'Fallback')).toBe('Fallback');
    expect(getErrorMessage(new TypeError('Failed to fetch'), 'Fallback')).toBe('Fallback');
  });
});

describe('statusLine', () => {
  test('names the status and reason phrase of a failed request', async () => {
    stubFetch(() => new Response('', { status: 503, statusText: 'Service Unavailable' }));
    const error = await apiRequest('GET', '/api/rotations').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect(statusLine(error)).toBe('503 Service Unavailable');
  });

  test('falls back to the message of other errors', () => {
    expect(statusLine(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
    expect(statusLine('nope')).toBe('Unknown error');
  });
});
