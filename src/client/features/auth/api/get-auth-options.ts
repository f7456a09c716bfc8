import type { AuthOptions } from '@shared/contracts/auth';
import { queryOptions, useQuery } from '@tanstack/react-query';

/** authOptionsQueryOptions reads which ways of signing in this server offers. */
const authOptionsQueryOptions = () =>
  queryOptions<AuthOptions>({ queryKey: ['/api/auth/options'] });

export function useAuthOptions() {
  return useQuery(authOptionsQueryOptions());
}
