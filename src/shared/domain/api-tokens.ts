import type { ApiTokenScope } from '../contracts/api-tokens';

/** The rules of personal API tokens (issue 20, decision 223), pure: the clock is passed in. */

const DAY_MS = 86_400_000;

/** The methods a read token may use: those that change nothing. */
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const API_TOKEN_MESSAGES = {
  invalid: 'The API token is not valid: it is unknown or was revoked.',
  expired: (at: string) => `The API token expired at ${at}. Create a new one in your profile.`,
  readScope: (method: string) =>
    `This API token's scope is read: it cannot make changes (${method} needs a token with the read and write scope).`,
  sessionOnly:
    'API tokens are managed from your profile while signed in; a request made with an API token cannot list, create or revoke them.',
  notFound: 'API token not found.',
  rateLimited: (seconds: number) =>
    `Too many requests with this API token. Try again in ${seconds} seconds.`,
} as const;

/** tokenExpiresAt returns when a token made at `now` to last `days` days expires. */
export function tokenExpiresAt(now: Date, days: number): Date {
  return new Date(now.getTime() + days * DAY_MS);
}

/** isTokenExpired tells whether a token expiring at `expiresAt` no longer works at `now`. */
export function isTokenExpired(expiresAt: Date, now: Date): boolean {
  return now.getTime() >= expiresAt.getTime();
}

/** scopeAllows tells whether a token of `scope` may make a request with `method`. */
export function scopeAllows(scope: ApiTokenScope, method: string): boolean {
  return scope === 'write' || READ_METHODS.has(method.toUpperCase());
}

/** isLastUseStale tells whether a token's last use should be written again (at most once a minute). */
export function isLastUseStale(lastUsedAt: Date | null, now: Date, intervalMs = 60_000): boolean {
  return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= intervalMs;
}
