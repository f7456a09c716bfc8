import type { User } from '@shared/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** usePeople reads everyone (GET /api/users, every role may), for the reassign dialog's choice. */
export function usePeople({ enabled }: { enabled: boolean }) {
  return useQuery({ ...queryOptions<User[]>({ queryKey: ['/api/users'] }), enabled });
}
