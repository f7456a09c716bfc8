import type { ApiError } from '@shared/contracts/errors';
import type { QueryFunction, QueryKey } from '@tanstack/react-query';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** ApiRequestError is what every failed API call throws: message `${status}: ${text}`. */
export class ApiRequestError extends Error {
  readonly status: number;
  /** The server's `{ message, code?, fields? }` when the response carried one. */
  readonly body: ApiError | null;
  /** The HTTP reason phrase ('Internal Server Error'), when the response had one. */
  readonly statusText: string;

  constructor(status: number, text: string, body: ApiError | null, statusText = '') {
    super(`${status}: ${text}`);
    this.name = 'ApiRequestError';
    this.status = status;
    this.body = body;
    this.statusText = statusText;
  }
}

/** The signed-in user as the request headers carry it. */
export type RequestIdentity = { userId: number; role: string };

// Module-level on purpose: the api client is plain functions, and the auth feature keeps this
// in step with the cached current user (see features/auth/lib/request-identity.ts).
let requestIdentity: RequestIdentity | null = null;

/** setRequestIdentity sets (or clears, with null) the user sent as X-User-Id and X-User-Role. */
export function setRequestIdentity(identity: RequestIdentity | null): void {
  requestIdentity = identity;
}

/** withTimestamp returns the path with a `_t=<now>` query parameter added. */
export function withTimestamp(path: string, now: number = Date.now()): string {
  const hashAt = path.indexOf('#');
  const base = hashAt === -1 ? path : path.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : path.slice(hashAt);
  const separator = base.includes('?') ? '&' : '?';
  return `${base}${separator}_t=${now}${hash}`;
}

function buildHeaders(hasBody: boolean): Headers {
  const headers = new Headers({
    Accept: 'application/json',
    'Cache-Control': 'no-cache',
    Pragma: 'no-cache',
  });
  if (hasBody) headers.set('Content-Type', 'application/json');
  if (requestIdentity) {
    headers.set('X-User-Id', String(requestIdentity.userId));
    headers.set('X-User-Role', requestIdentity.role);
  }
  return headers;
}

// A hand check of ApiErrorSchema's shape rather than the schema itself: importing zod here
// would put all of it in the initial bundle, for a check this small.
function isApiError(value: unknown): value is ApiError {
  if (typeof value !== 'object' || value === null) return false;
  const { message, code, fields } = value as Record<string, unknown>;
  if (typeof message !== 'string') return false;
  if (code !== undefined && typeof code !== 'string') return false;
  if (fields === undefined) return true;
  return (
    typeof fields === 'object' &&
    fields !== null &&
    Object.values(fields).every((field) => typeof field === 'string')
  );
}

function parseErrorBody(text: string): ApiError | null {
  if (!text) return null;
  try {
    const body: unknown = JSON.parse(text);
    if (!isApiError(body)) return null;
    const { message, code, fields } = body;
    return { message, ...(code === undefined ? {} : { code }), ...(fields ? { fields } : {}) };
  } catch {
    return null;
  }
}

async function throwIfNotOk(response: Response): Promise<void> {
  if (response.ok) return;
  const text = await response.text();
  throw new ApiRequestError(
    response.status,
    text || response.statusText,
    parseErrorBody(text),
    response.statusText,
  );
}

export type ApiRequestOptions = { signal?: AbortSignal };

/**
 * apiRequest sends one JSON request to the API and returns the parsed JSON answer (undefined
 * for an empty one); a non-success status throws an ApiRequestError.
 */
export async function apiRequest<T = unknown>(
  method: HttpMethod,
  path: string,
  body?: unknown,
  options: ApiRequestOptions = {},
): Promise<T> {
  const hasBody = body !== undefined;
  const response = await fetch(withTimestamp(path), {
    method,
    headers: buildHeaders(hasBody),
    body: hasBody ? JSON.stringify(body) : undefined,
    credentials: 'include',
    signal: options.signal,
  });
  await throwIfNotOk(response);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * pathFromQueryKey returns the API path a query key holds: its segments joined with '/', the
 * segments after the first URL-encoded (so a token or id cannot change the path).
 */
export function pathFromQueryKey(queryKey: QueryKey): string {
  return queryKey
    .map((segment, index) => {
      if (typeof segment !== 'string' && typeof segment !== 'number') {
        throw new TypeError(`Query key segment ${index} is not a string or number`);
      }
      return index === 0 ? String(segment) : encodeURIComponent(String(segment));
    })
    .join('/');
}

export type UnauthorizedBehavior = 'throw' | 'returnNull';

/**
 * getQueryFn returns a query function that GETs the path held in the query key. A 401 answers
 * null with `on401: 'returnNull'`; otherwise it is logged as a warning and thrown.
 */
export function getQueryFn<T>(options: { on401: 'returnNull' }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: 'throw' }): QueryFunction<T>;
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null>;
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }): QueryFunction<T | null> {
  return async ({ queryKey, signal }) => {
    const path = pathFromQueryKey(queryKey);
    try {
      return await apiRequest<T>('GET', path, undefined, { signal });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 401) {
        if (options.on401 === 'returnNull') return null;
        console.warn(`Unauthorized: GET ${path} needs a signed-in user`);
      }
      throw error;
    }
  };
}

/** getErrorMessage returns the server's message for a failed call, or `fallback`. */
export function getErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiRequestError && error.body?.message) return error.body.message;
  return fallback;
}

/** statusLine returns '{status} {statusText}' of a failed request ('500 Internal Server Error'). */
export function statusLine(error: unknown): string {
  if (error instanceof ApiRequestError) return `${error.status} ${error.statusText}`.trim();
  return error instanceof Error ? error.message : 'Unknown error';
}
