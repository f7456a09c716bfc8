import { z } from 'zod';
import { text } from './primitives';
import { UserSchema } from './users';

/** LoginInputSchema is the body of POST /api/auth/login (local sign-in). */
export const LoginInputSchema = z.object({
  email: text({ label: 'Email', trim: true, error: 'Email is required' })
    .min(1, 'Email is required')
    .max(320, 'Email must be at most 320 characters'),
  password: text({ label: 'Password', error: 'Password is required' })
    .min(1, 'Password is required')
    .max(1024, 'Password must be at most 1024 characters'),
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

/** FirebaseSignInInputSchema is the body of POST /api/auth/firebase: an ID token the client holds. */
export const FirebaseSignInInputSchema = z.object({
  token: text({ label: 'token', error: 'token is required' })
    .min(1, 'token is required')
    .max(8192, 'token is too long'),
});
export type FirebaseSignInInput = z.infer<typeof FirebaseSignInInputSchema>;

/** AuthResponseSchema is what sign-in and GET /api/auth/user answer. */
export const AuthResponseSchema = z.object({ user: UserSchema });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

/** AuthOptionsSchema tells the login screen which ways of signing in this deployment offers. */
export const AuthOptionsSchema = z.object({
  localLogin: z.boolean(),
  google: z.boolean(),
  companyDomain: z.string(),
});
export type AuthOptions = z.infer<typeof AuthOptionsSchema>;

/**
 * What the login screen and the start-up banner say of the local password (LOCAL_LOGIN_PASSWORD,
 * or demo mode's generated one): one password shared by every account, so never for real use.
 * Production refuses to start with one (issue 14).
 */
export const LOCAL_SIGN_IN_NOTE =
  'Demo sign-in: this is one shared password for demos and tests, not for real use. Anyone who has it can sign in as any account.';

/** The sign-in messages of specification section 8, shared by the server's popup page and the client. */
export const SIGN_IN_MESSAGES = {
  operationNotAllowed:
    'Google authentication is not enabled. It should be enabled in the authentication settings.',
  popupBlocked:
    'The sign-in popup was blocked by your browser. Please allow popups for this site and try again.',
  popupClosed: 'Sign-in popup was closed before authentication was completed.',
  failed: 'Failed to sign in with Google',
  notPermitted: 'You do not have permission to access this application.',
  /** a verified person with neither a user nor a pending invitation */
  notInvited:
    'You do not have permission to access this application. Ask an administrator for an invitation.',
  problem: 'There was a problem signing you in. Please try again.',
  notConfigured: 'Sign-in with Google is not configured on this server.',
} as const;

/** The popup's sign-in window, in CSS pixels (specification section 9). */
export const SIGN_IN_POPUP = { width: 500, height: 600 } as const;

/** The message the sign-in popup sends its opener (and on the 'baton-auth' BroadcastChannel). */
export const OIDC_RESULT_MESSAGE = 'baton:oidc-result';
export const AUTH_BROADCAST_CHANNEL = 'baton-auth';

/**
 * Why a popup sign-in ended without a user: 'provider_refused' (the identity provider will not do
 * Google sign-in for this client: operation not allowed), 'provider_error' (the provider answered
 * an error, e.g. the user declined), 'denied' (401/403: the token or the person was refused),
 * 'rate_limited' (429: too many sign-in attempts from this client), 'failed' (anything else:
 * state lost, provider unreachable).
 */
export const OIDC_FAILURE_REASONS = [
  'provider_refused',
  'provider_error',
  'denied',
  'rate_limited',
  'failed',
] as const;
export type OidcFailureReason = (typeof OIDC_FAILURE_REASONS)[number];

/** OidcResult is what the popup reports when it finishes. */
export type OidcResult =
  | { type: typeof OIDC_RESULT_MESSAGE; ok: true }
  | {
      type: typeof OIDC_RESULT_MESSAGE;
      ok: false;
      status: number;
      reason: OidcFailureReason;
      message: string;
    };
