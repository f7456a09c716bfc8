import type { User } from '@shared/contracts/users';
import { effectiveRoles, isAdmin, type Role } from '@shared/domain/roles';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { authUserQueryOptions } from './auth-user-query';

export type Auth = {
  /** The signed-in user, or null when signed out (or still loading). */
  user: User | null;
  /** True until the server has said who (if anyone) is signed in. */
  isLoading: boolean;
  roles: Role[];
  isAdmin: boolean;
};

/**
 * useAuth returns the signed-in user and their roles. Every feature reads the signed-in user
 * through it, so it lives in lib (decision 193); signing in and out are the auth feature's
 * useLogin and useLogout.
 */
export function useAuth(): Auth {
  const userQuery = useQuery(authUserQueryOptions());
  const user = userQuery.data?.user ?? null;
  const roles = useMemo(() => (user ? effectiveRoles(user.roles, user.role) : []), [user]);

  return {
    user,
    isLoading: userQuery.isPending,
    roles,
    isAdmin: isAdmin(roles),
  };
}
