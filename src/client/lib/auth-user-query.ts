import type { AuthResponse } from '@shared/contracts/auth';
import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '@/lib/api-client';

/** The signed-in user as cached: `{ user }`, or null when nobody is signed in. */
export type AuthUserData = AuthResponse | null;

/** authUserQueryOptions reads the signed-in user; a 401 means nobody is signed in (null). */
export const authUserQueryOptions = () =>
  queryOptions({
    queryKey: ['/api/auth/user'],
    queryFn: getQueryFn<AuthResponse>({ on401: 'returnNull' }),
  });

/** The cache key of the signed-in user (typed: reads and writes through it are AuthUserData). */
export const authUserQueryKey = authUserQueryOptions().queryKey;
