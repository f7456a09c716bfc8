import type { QueryClient } from '@tanstack/react-query';
import { setRequestIdentity } from '@/lib/api-client';
import { type AuthUserData, authUserQueryKey } from '@/lib/auth-user-query';

function isAuthUserKey(queryKey: readonly unknown[]): boolean {
  return queryKey.length === authUserQueryKey.length && queryKey[0] === authUserQueryKey[0];
}

/**
 * syncRequestIdentity keeps the api client's X-User-Id / X-User-Role headers equal to the
 * cached signed-in user, whoever writes that cache (the user read, login, a profile update,
 * logout's clear), and returns a function that stops it.
 */
export function syncRequestIdentity(queryClient: QueryClient): () => void {
  const update = () => {
    const user = queryClient.getQueryData<AuthUserData>(authUserQueryKey)?.user;
    setRequestIdentity(user ? { userId: user.id, role: user.role } : null);
  };
  update();
  // The cache notifies synchronously, before React re-renders, so no request made by a
  // component that just learned of the user can go out without the headers.
  return queryClient.getQueryCache().subscribe((event) => {
    if (isAuthUserKey(event.query.queryKey)) update();
  });
}
