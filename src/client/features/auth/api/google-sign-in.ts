import { SIGN_IN_MESSAGES } from '@shared/contracts/auth';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { type AuthUserData, authUserQueryKey } from '@/lib/auth-user-query';
import { notifyFailure, notifySuccess } from '@/lib/notify';
import { GoogleSignInError, signInWithGoogle } from '../lib/sign-in-with-google';

const LOGIN_FAILED_TOAST_MS = 10_000;

type SignInToast = { title: string; description: string; duration?: number };

/**
 * signInFailureToast returns the toast of specification section 8 for a failed Google sign-in:
 * 'Authentication Failed' when the server refused (401/403), 'Authentication Error' when sign-in
 * broke on the way, and 'Login Failed' otherwise (with the server's wait when rate limited).
 */
export function signInFailureToast(error: unknown): SignInToast {
  const loginFailed = (description: string) => ({
    title: 'Login Failed',
    description,
    duration: LOGIN_FAILED_TOAST_MS,
  });
  if (!(error instanceof GoogleSignInError)) {
    return { title: 'Authentication Error', description: SIGN_IN_MESSAGES.problem };
  }
  switch (error.reason) {
    case 'denied':
      return {
        title: 'Authentication Failed',
        description: error.message || SIGN_IN_MESSAGES.notPermitted,
      };
    case 'failed':
      return { title: 'Authentication Error', description: SIGN_IN_MESSAGES.problem };
    case 'popup_blocked':
      return loginFailed(SIGN_IN_MESSAGES.popupBlocked);
    case 'popup_closed':
      return loginFailed(SIGN_IN_MESSAGES.popupClosed);
    case 'provider_refused':
      return loginFailed(SIGN_IN_MESSAGES.operationNotAllowed);
    case 'rate_limited':
      // The server's own sentence says how long to wait, as local sign-in's 'Login Failed' does.
      return loginFailed(error.message || SIGN_IN_MESSAGES.failed);
    default:
      return loginFailed(SIGN_IN_MESSAGES.failed);
  }
}

/** useGoogleSignIn runs the Google sign-in popup and caches the user it answers with. */
export function useGoogleSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signInWithGoogle,
    onSuccess: (user) => {
      const signedIn: AuthUserData = { user };
      queryClient.setQueryData(authUserQueryKey, signedIn);
      notifySuccess('Login Successful', `Welcome, ${user.name}!`);
    },
    onError: (error) => {
      const shown = signInFailureToast(error);
      notifyFailure(shown.title, shown.description);
      if (shown.title === 'Authentication Failed') {
        // Refused: make sure nothing of a half-finished sign-in stays behind.
        const signedOut: AuthUserData = null;
        queryClient.setQueryData(authUserQueryKey, signedOut);
        void apiRequest('POST', '/api/auth/logout').catch(() => undefined);
      }
    },
  });
}
