import type { LoginInput } from '@shared/contracts/auth';
import type { User } from '@shared/contracts/users';
import { effectiveRoles, isAdmin, type Role } from '@shared/domain/roles';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { authUserQueryOptions } from '@/lib/auth-user-query';
import { useLogin } from '../api/login';
import { useLogout } from '../api/logout';

export type Auth = {
  /** The signed-in user, or null when signed out (or still loading). */
  user: User | null;
  /** True until the server has said who (if anyone) is signed in. */
  isLoading: boolean;
  roles: Role[];
  isAdmin: boolean;
  login: (input: LoginInput) => void;
  isLoggingIn: boolean;
  logout: () => void;
  isLoggingOut: boolean;
};

/** useAuth returns the signed-in user, their roles, and sign-in / sign-out actions. */
export function useAuth(): Auth {
  const userQuery = useQuery(authUserQueryOptions());
  const loginMutation = useLogin();
  const logoutMutation = useLogout();
  const user = userQuery.data?.user ?? null;
  const roles = useMemo(() => (user ? effectiveRoles(user.roles, user.role) : []), [user]);

  return {
    user,
    isLoading: userQuery.isPending,
    roles,
    isAdmin: isAdmin(roles),
    login: loginMutation.mutate,
    isLoggingIn: loginMutation.isPending,
    logout: () => logoutMutation.mutate(),
    isLoggingOut: logoutMutation.isPending,
  };
}
