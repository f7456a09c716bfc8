import type { User } from '@shared/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** usersQueryOptions reads every user (User Management). */
export const usersQueryOptions = () => queryOptions<User[]>({ queryKey: ['/api/users'] });

export function useUsers() {
  return useQuery(usersQueryOptions());
}
