import type { AuthResponse } from '@shared/contracts/auth';

/**
 * sessionFromPage reads the signed-in user the app's page came with (the server's JSON data
 * block, issue 35), or null: no block (nobody signed in, or a page from elsewhere) or one that is
 * not an answer of GET /api/auth/user, when the user is read from the API as before.
 */
export function sessionFromPage(text: string | null | undefined): AuthResponse | null {
  if (!text) return null;
  try {
    const answer = JSON.parse(text) as Partial<AuthResponse> | null;
    const user = answer?.user;
    if (!user || typeof user.id !== 'number' || !Array.isArray(user.roles)) return null;
    return answer as AuthResponse;
  } catch {
    return null;
  }
}
