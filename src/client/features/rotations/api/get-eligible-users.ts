import type { User } from '@shared/contracts/users';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ELIGIBLE_MEMBER_ROLES } from '../constants';

const eligibleUsersQueryKey = [`/api/users/by-roles?roles=${ELIGIBLE_MEMBER_ROLES}`] as const;

/** eligibleUsersQueryOptions reads the users who may be members: on-call and manager roles. */
const eligibleUsersQueryOptions = () =>
  queryOptions<User[]>({ queryKey: eligibleUsersQueryKey, refetchOnMount: 'always' });

/** useEligibleUsers returns users with the on-call or manager role, while `enabled`. */
export function useEligibleUsers({ enabled }: { enabled: boolean }) {
  return useQuery({ ...eligibleUsersQueryOptions(), enabled });
}
