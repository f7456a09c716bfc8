import {
  AUTH_BROADCAST_CHANNEL,
  type AuthResponse,
  OIDC_RESULT_MESSAGE,
  type OidcFailureReason,
  type OidcResult,
  SIGN_IN_MESSAGES,
  SIGN_IN_POPUP,
} from '@shared/contracts/auth';
import type { User } from '@shared/contracts/users';
import { ApiRequestError, apiRequest } from '@/lib/api-client';

const START_PATH = '/api/auth/oidc/start';
const POPUP_NAME = 'baton-google-sign-in';
const CLOSED_POLL_MS = 500;
/**
 * The popup posts its result, then closes itself: a poll may see it closed before the message is
 * delivered (a busy machine). A closed popup is given this long to be heard before it counts as
 * closed without a word.
 */
const CLOSED_GRACE_MS = 1_500;

export type GoogleSignInFailure = 'popup_blocked' | 'popup_closed' | OidcFailureReason;

/** GoogleSignInError is why a popup sign-in ended without a user. */
export class GoogleSignInError extends Error {
  constructor(
    readonly reason: GoogleSignInFailure,
    message: string,
    /** the server's status for a refused sign-in (401/403), when it answered one */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GoogleSignInError';
  }
}

function isOidcResult(value: unknown): value is OidcResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === OIDC_RESULT_MESSAGE &&
    typeof (value as { ok?: unknown }).ok === 'boolean'
  );
}

function openPopup(): Window | null {
  const { width, height } = SIGN_IN_POPUP;
  const left = Math.max(0, window.screenX + (window.outerWidth - width) / 2);
  const top = Math.max(0, window.screenY + (window.outerHeight - height) / 2);
  return window.open(
    START_PATH,
    POPUP_NAME,
    `popup=yes,width=${width},height=${height},left=${Math.round(left)},top=${Math.round(top)}`,
  );
}

/** currentUser asks the server who is signed in: the popup's session cookie is shared. */
async function currentUser(): Promise<User | null> {
  try {
    return (await apiRequest<AuthResponse>('GET', '/api/auth/user')).user;
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

/**
 * waitForResult resolves with what the popup reports, or null once it has closed without a word
 * (its grace for a message in flight over).
 */
export function waitForResult(popup: Pick<Window, 'closed'>): Promise<OidcResult | null> {
  return new Promise((resolve) => {
    let channel: BroadcastChannel | null = null;
    let grace: ReturnType<typeof setTimeout> | undefined;
    const finish = (result: OidcResult | null) => {
      window.removeEventListener('message', onMessage);
      channel?.close();
      clearInterval(timer);
      clearTimeout(grace);
      resolve(result);
    };
    const onMessage = (event: MessageEvent) => {
      // Only Baton's own popup page may report: same origin, our message type.
      if (event.origin !== window.location.origin || !isOidcResult(event.data)) return;
      finish(event.data);
    };
    window.addEventListener('message', onMessage);
    try {
      channel = new BroadcastChannel(AUTH_BROADCAST_CHANNEL);
      channel.onmessage = (event) => {
        if (isOidcResult(event.data)) finish(event.data);
      };
    } catch {
      channel = null;
    }
    const timer = setInterval(() => {
      if (!popup.closed) return;
      clearInterval(timer);
      grace = setTimeout(() => finish(null), CLOSED_GRACE_MS);
    }, CLOSED_POLL_MS);
  });
}

/**
 * signInWithGoogle opens the 500×600 sign-in popup (the server runs the OpenID Connect code flow
 * with PKCE in it and sets the session cookie), waits for it to report or close, and returns the
 * signed-in user. Throws GoogleSignInError: popup_blocked, popup_closed, provider_refused
 * (operation not allowed), provider_error, denied (401/403) or failed.
 */
export async function signInWithGoogle(): Promise<User> {
  const popup = openPopup();
  if (!popup) throw new GoogleSignInError('popup_blocked', SIGN_IN_MESSAGES.popupBlocked);
  popup.focus();
  const result = await waitForResult(popup);
  if (result && !result.ok) {
    throw new GoogleSignInError(result.reason, result.message, result.status);
  }
  // Reported success, or closed without a word (its message may have been lost): ask the server.
  const user = await currentUser().catch(() => null);
  if (user) return user;
  if (result?.ok) throw new GoogleSignInError('failed', SIGN_IN_MESSAGES.problem);
  throw new GoogleSignInError('popup_closed', SIGN_IN_MESSAGES.popupClosed);
}
