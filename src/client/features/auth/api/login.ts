import type { AuthResponse, LoginInput } from '@shared/contracts/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type AuthUserData, authUserQueryKey } from '@/lib/auth-user-query';
import { notifyError, notifySuccess } from '@/lib/notify';

/** How long the 'Login Failed' toast stays up. */
const LOGIN_FAILED_TOAST_MS = 10_000;

/** useLogin signs in with email and password and caches the user it answers with. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => apiRequest<AuthResponse>('POST', '/api/auth/login', input),
    onSuccess: ({ user }) => {
      const signedIn: AuthUserData = { user };
      queryClient.setQueryData(authUserQueryKey, signedIn);
      notifySuccess('Login Successful', `Welcome, ${user.name}!`);
    },
    onError: (error) => {
      notifyError('Login Failed', error, 'Invalid credentials', {
        duration: LOGIN_FAILED_TOAST_MS,
      });
    },
  });
}
