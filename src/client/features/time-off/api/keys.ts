import type { QueryClient } from '@tanstack/react-query';

/** timeOffQueryKey is the cache key (and path) of a person's time off: /api/users/{id}/time-off. */
export const timeOffQueryKey = (personId: number) => ['/api/users', personId, 'time-off'] as const;

/**
 * refreshAfterTimeOff refetches what a change of time off moves: the person's list, the calendar,
 * the rotations (their next on call) and the warnings of gaps and collisions.
 */
export function refreshAfterTimeOff(queryClient: QueryClient, personId: number) {
  const first = (prefix: string) => ({
    predicate: (q: { queryKey: readonly unknown[] }) =>
      typeof q.queryKey[0] === 'string' && (q.queryKey[0] as string).startsWith(prefix),
  });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: timeOffQueryKey(personId) }),
    queryClient.invalidateQueries(first('/api/calendar')),
    queryClient.invalidateQueries(first('/api/rotations')),
    queryClient.invalidateQueries(first('/api/user/rotations')),
    queryClient.invalidateQueries(first('/api/time-off')),
  ]);
}
