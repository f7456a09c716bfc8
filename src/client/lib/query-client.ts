import { QueryClient } from '@tanstack/react-query';
import { getQueryFn } from './api-client';

/**
 * createQueryClient returns a client with the product's fetching defaults: reads are GETs of
 * the query key's path, never stale on their own, not refetched on focus or by polling, and
 * neither reads nor writes are retried. Individual queries override what they need.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        staleTime: Number.POSITIVE_INFINITY,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
