import type { PersonDetail } from '@shared/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** personQueryKey is the cache key (and path) of one person's view: /api/users/{id}. */
export const personQueryKey = (id: number) => ['/api/users', id] as const;

/** personQueryOptions reads the read-only person view (decision 187), afresh on each visit. */
export const personQueryOptions = (id: number) =>
  queryOptions<PersonDetail>({ queryKey: personQueryKey(id), refetchOnMount: 'always' });

/** usePerson returns a teammate's view; an unknown or deleted person fails with status 404. */
export function usePerson(id: number, options: { enabled?: boolean } = {}) {
  return useQuery({ ...personQueryOptions(id), enabled: options.enabled ?? true });
}
