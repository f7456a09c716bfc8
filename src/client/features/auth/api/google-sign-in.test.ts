import { describe, expect, test } from 'vitest';
import { GoogleSignInError } from '../lib/sign-in-with-google';
import { signInFailureToast } from './google-sign-in';

describe('signInFailureToast', () => {
  test.each([
    [
      new GoogleSignInError(
        'denied',
        'You do not have permission to access this application. Ask an administrator for an invitation.',
        403,
      ),
      'Authentication Failed',
      'You do not have permission to access this application. Ask an administrator for an invitation.',
    ],
    [
      new GoogleSignInError('denied', '', 401),
      'Authentication Failed',
      'You do not have permission to access this application.',
    ],
    [
      new GoogleSignInError('failed', 'state lost'),
      'Authentication Error',
      'There was a problem signing you in. Please try again.',
    ],
    [
      new GoogleSignInError('popup_blocked', ''),
      'Login Failed',
      'The sign-in popup was blocked by your browser. Please allow popups for this site and try again.',
    ],
    [
      new GoogleSignInError('popup_closed', ''),
      'Login Failed',
      'Sign-in popup was closed before authentication was completed.',
    ],
    [
      new GoogleSignInError('provider_refused', ''),
      'Login Failed',
      'Google authentication is not enabled. It should be enabled in the authentication settings.',
    ],
    [new GoogleSignInError('provider_error', ''), 'Login Failed', 'Failed to sign in with Google'],
    [
      new GoogleSignInError(
        'rate_limited',
        'Too many sign-in attempts. Try again in 42 seconds.',
        429,
      ),
      'Login Failed',
      'Too many sign-in attempts. Try again in 42 seconds.',
    ],
    [
      new GoogleSignInError('rate_limited', '', 429),
      'Login Failed',
      'Failed to sign in with Google',
    ],
    [
      new TypeError('Failed to fetch'),
      'Authentication Error',
      'There was a problem signing you in. Please try again.',
    ],
  ])('%s → %s', (error, title, description) => {
    expect(signInFailureToast(error)).toMatchObject({ title, description });
  });

  test('Login Failed stays 10 seconds', () => {
    expect(signInFailureToast(new GoogleSignInError('popup_closed', '')).duration).toBe(10_000);
  });
});
