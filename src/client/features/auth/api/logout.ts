import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { apiRequest } from '@/lib/api-client';
import { authUserQueryKey } from '@/lib/auth-user-query';
import { notifyFailure, notifySuccess } from '@/lib/notify';

/** useLogout ends the session, forgets every cached read and goes to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => apiRequest<unknown>('POST', '/api/auth/logout'),
    onSuccess: () => {
      // Nothing read as the previous user may leak into the next session.
      queryClient.clear();
      // Known to be signed out: the login screen need not ask the server again.
      queryClient.setQueryData(authUserQueryKey, null);
      navigate('/login', { replace: true });
      notifySuccess('Logged Out', 'You have been logged out successfully');
    },
    onError: () => {
      notifyFailure('Logout Error', 'There was a problem logging out. Please try again.');
    },
  });
}
